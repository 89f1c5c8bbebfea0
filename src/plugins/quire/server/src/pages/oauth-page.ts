/**
 * The OAuth authorize page (sign in, then consent), in the CLI login page's layout and style:
 * plain HTML, no script, every value escaped, readable on a phone.
 */
import { alert, layout, signInForm, type PageUser } from './login-page';
import { escapeHtml } from '../domain/html-escape';
import { PATHS, type OAuthScope } from '../domain/oauth';

/** Where the consent page is served (domain/oauth `PATHS`). */
const AUTHORIZE_PATH = PATHS.authorize;

const SCOPE_WORDS: Record<OAuthScope, string> = {
  write: 'Read and change your articles, sections and notes, and publish them',
  suggest: 'Read your articles and suggest changes for you to accept or reject',
  read: 'Read your articles, sections and notes (no changes)',
};

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export function oauthSignInPage(opts: { nonce: string; csrf: string; request: string; clientName: string; identifier?: string; error?: string }): string {
  const body = `<h1>Sign in to connect ${escapeHtml(opts.clientName)}</h1>
<p class="muted">An app asked to connect to your Quire account. Sign in, then decide what it may do.</p>
${alert(opts.error)}
${signInForm(`${AUTHORIZE_PATH}/session`, { csrf: opts.csrf, request: opts.request }, opts.identifier)}`;
  return layout(opts.nonce, 'Sign in', body);
}

export function consentPage(opts: {
  nonce: string;
  csrf: string;
  request: string;
  user: PageUser;
  client: { name: string; id: string; uri: string | null };
  redirectUri: string;
  scope: OAuthScope;
}): string {
  const redirectHost = (() => {
    try {
      return new URL(opts.redirectUri).host || opts.redirectUri;
    } catch {
      return opts.redirectUri;
    }
  })();
  const body = `<h1>Connect ${escapeHtml(opts.client.name)} to your account?</h1>
<dl>
<dt>App</dt><dd>${escapeHtml(opts.client.name)}</dd>
${opts.client.uri ? `<dt>Web site</dt><dd>${escapeHtml(opts.client.uri)}</dd>` : ''}
<dt>Client</dt><dd>${escapeHtml(opts.client.id)}</dd>
<dt>Returns to</dt><dd>${escapeHtml(redirectHost)}</dd>
<dt>Access</dt><dd><strong>${escapeHtml(opts.scope)}</strong>: ${escapeHtml(SCOPE_WORDS[opts.scope])}</dd>
</dl>
<p class="warn">Only approve an app you just asked to connect. You can disconnect it at any time (quire grants revoke).</p>
<form method="post" action="${AUTHORIZE_PATH}/decision">
${hidden('csrf', opts.csrf)}
${hidden('request', opts.request)}
<div class="buttons">
<button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="approve" class="primary">Approve</button>
</div>
</form>
<footer><span>Signed in as <strong>${escapeHtml(opts.user.username)}</strong></span></footer>`;
  return layout(opts.nonce, `Connect ${opts.client.name}`, body);
}

export function oauthProblemPage(opts: { nonce: string; title: string; message: string }): string {
  return layout(opts.nonce, opts.title, `<h1>${escapeHtml(opts.title)}</h1>\n${alert(opts.message)}\n<p class="muted">Return to the app and try connecting again.</p>`);
}
