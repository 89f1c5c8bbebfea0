/**
 * The views of the CLI login approval page: plain server-rendered HTML, no script at all. Every
 * value that reaches the markup goes through `escapeHtml`; the only inline style carries the
 * response's CSP nonce (kernel/page-kit.ts sets the CSP that allows it).
 */

import { escapeHtml } from '../domain/html-escape';

const STYLE = `
:root { color-scheme: light dark; --bg:#f5f4f0; --card:#fff; --fg:#1d1d1f; --muted:#6b6b70; --line:#e3e1da;
  --accent:#1f5f4a; --accent-fg:#fff; --danger:#9b2c2c; --danger-bg:#fdf0f0; --ok-bg:#eef7f2; }
@media (prefers-color-scheme: dark) { :root { --bg:#151516; --card:#1f1f21; --fg:#ececee; --muted:#a0a0a8; --line:#333337;
  --accent:#5bb892; --accent-fg:#0d1f18; --danger:#f08c8c; --danger-bg:#3a2020; --ok-bg:#1d3329; } }
* { box-sizing: border-box; }
body { margin:0; min-height:100vh; display:flex; align-items:center; justify-content:center; background:var(--bg);
  color:var(--fg); font:16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; padding:24px; }
main { width:100%; max-width:420px; background:var(--card); border:1px solid var(--line); border-radius:14px;
  padding:32px 32px 28px; box-shadow:0 8px 30px rgba(0,0,0,.06); }
.brand { font-family: Georgia, "Iowan Old Style", "Times New Roman", serif; font-size:22px; font-weight:700; letter-spacing:.02em;
  margin:0 0 20px; color:var(--accent); }
h1 { font-size:20px; line-height:1.3; margin:0 0 8px; }
p { margin:0 0 16px; }
.muted { color:var(--muted); font-size:14px; }
label { display:block; font-size:14px; font-weight:600; margin:0 0 6px; }
input[type=text], input[type=password] { width:100%; font:inherit; padding:10px 12px; border:1px solid var(--line);
  border-radius:8px; background:var(--bg); color:var(--fg); margin:0 0 16px; }
input:focus, button:focus { outline:2px solid var(--accent); outline-offset:2px; }
.code-input { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size:22px !important;
  letter-spacing:.18em; text-transform:uppercase; text-align:center; }
.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size:30px; font-weight:700;
  letter-spacing:.14em; text-align:center; padding:14px; border:1px dashed var(--line); border-radius:10px; margin:0 0 18px; }
dl { display:grid; grid-template-columns:auto 1fr; gap:6px 14px; margin:0 0 18px; font-size:14px; }
dt { color:var(--muted); } dd { margin:0; overflow-wrap:anywhere; }
.buttons { display:flex; gap:10px; }
button { font:inherit; font-weight:600; cursor:pointer; border-radius:8px; padding:10px 16px; border:1px solid var(--line);
  background:var(--card); color:var(--fg); flex:1; }
button.primary { background:var(--accent); border-color:var(--accent); color:var(--accent-fg); }
button.link { background:none; border:none; padding:0; color:var(--accent); font-weight:500; font-size:14px; flex:none; text-decoration:underline; }
.alert { border-radius:8px; padding:10px 12px; margin:0 0 16px; font-size:14px; background:var(--danger-bg); color:var(--danger); }
.notice { border-radius:8px; padding:10px 12px; margin:0 0 16px; font-size:14px; background:var(--ok-bg); }
.warn { font-size:14px; border-left:3px solid var(--accent); padding:2px 0 2px 12px; margin:0 0 18px; }
footer { margin-top:22px; padding-top:14px; border-top:1px solid var(--line); display:flex; justify-content:space-between;
  align-items:center; gap:8px; font-size:14px; color:var(--muted); }
footer form { margin:0; }
a { color:var(--accent); }
`;

export interface PageUser {
  username: string;
  email: string;
}

export interface PageLogin {
  name: string;
  userCode: string;
  createdAt: Date;
  requestIp: string | null;
}

export const PAGE_PATH = '/cli/login';

export function layout(nonce: string, title: string, body: string, footer = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} · Quire</title>
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Quire</p>
${body}
${footer}
</main>
</body>
</html>
`;
}

export const alert = (message?: string) => (message ? `<p class="alert" role="alert">${escapeHtml(message)}</p>` : '');

function signedInFooter(user: PageUser, csrf: string, code?: string): string {
  return `<footer>
<span>Signed in as <strong>${escapeHtml(user.username)}</strong></span>
<form method="post" action="${PAGE_PATH}/sign-out">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
${code ? `<input type="hidden" name="code" value="${escapeHtml(code)}">` : ''}
<button type="submit" class="link">Not you? Sign out</button>
</form>
</footer>`;
}

/** The username-or-email and password form, posting `hidden` fields along (escaped). */
export function signInForm(action: string, hidden: Record<string, string>, identifier = ''): string {
  const fields = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `<form method="post" action="${action}">
${fields}
<label for="identifier">Username or email</label>
<input type="text" id="identifier" name="identifier" autocomplete="username" required autofocus value="${escapeHtml(identifier)}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="buttons"><button type="submit" class="primary">Sign in</button></div>
</form>`;
}

export function signInPage(opts: { nonce: string; csrf: string; code?: string; identifier?: string; error?: string }): string {
  const body = `<h1>Sign in to connect a device</h1>
<p class="muted">A command-line client asked to sign in to your account. Sign in, then check the code it shows.</p>
${alert(opts.error)}
${signInForm(`${PAGE_PATH}/session`, { csrf: opts.csrf, code: opts.code ?? '' }, opts.identifier)}`;
  return layout(opts.nonce, 'Sign in', body);
}

export function enterCodePage(opts: { nonce: string; csrf: string; user: PageUser; code?: string; error?: string }): string {
  const body = `<h1>Connect a device</h1>
<p class="muted">Enter the code shown in your terminal by <code>quire login</code>.</p>
${alert(opts.error)}
<form method="post" action="${PAGE_PATH}">
<input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
<label for="code">Code</label>
<input type="text" id="code" name="code" class="code-input" placeholder="XXXX-XXXX" maxlength="20" autocomplete="off"
 autocapitalize="characters" spellcheck="false" required autofocus value="${escapeHtml(opts.code ?? '')}">
<div class="buttons"><button type="submit" class="primary">Continue</button></div>
</form>`;
  return layout(opts.nonce, 'Connect a device', body, signedInFooter(opts.user, opts.csrf));
}

function ago(from: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - from.getTime()) / 60000));
  return minutes === 0 ? 'just now' : minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
}

export function confirmPage(opts: { nonce: string; csrf: string; user: PageUser; login: PageLogin; now?: Date }): string {
  const { login } = opts;
  const body = `<h1>Approve this device?</h1>
<p class="muted">Check that this code matches the one in your terminal.</p>
<p class="code" aria-label="Code">${escapeHtml(login.userCode)}</p>
<dl>
<dt>Device</dt><dd>${escapeHtml(login.name)}</dd>
<dt>Requested</dt><dd>${escapeHtml(ago(login.createdAt, opts.now ?? new Date()))}${login.requestIp ? ` from ${escapeHtml(login.requestIp)}` : ''}</dd>
<dt>Account</dt><dd>${escapeHtml(opts.user.username)} (${escapeHtml(opts.user.email)})</dd>
</dl>
<p class="warn">Approving creates an API key for this device with full access to your articles. Only approve a login you started yourself, just now.</p>
<form method="post" action="${PAGE_PATH}/decision">
<input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
<input type="hidden" name="code" value="${escapeHtml(login.userCode)}">
<div class="buttons">
<button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="approve" class="primary">Approve</button>
</div>
</form>`;
  return layout(opts.nonce, 'Approve this device?', body, signedInFooter(opts.user, opts.csrf, login.userCode));
}

export function decidedPage(opts: { nonce: string; approved: boolean; name: string }): string {
  const body = opts.approved
    ? `<h1>Device connected</h1>
<p class="notice" role="status"><strong>${escapeHtml(opts.name)}</strong> is now signed in to your account.</p>
<p class="muted">You can close this window and return to your terminal. Revoke the key at any time with <code>quire keys revoke</code>.</p>`
    : `<h1>Login denied</h1>
<p class="notice" role="status"><strong>${escapeHtml(opts.name)}</strong> was not given access.</p>
<p class="muted">You can close this window. If you did not start this login, nothing else is needed.</p>`;
  return layout(opts.nonce, opts.approved ? 'Device connected' : 'Login denied', body);
}

export function problemPage(opts: { nonce: string; title: string; message: string; retryHref?: string }): string {
  const body = `<h1>${escapeHtml(opts.title)}</h1>
${alert(opts.message)}
<p><a href="${escapeHtml(opts.retryHref ?? PAGE_PATH)}">Start over</a></p>`;
  return layout(opts.nonce, opts.title, body);
}
