import { createHmac, randomBytes } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { publicUrl } from '../../../../../kernel/config';
import { ApiError } from '../../../../../kernel/errors';
import type { UserCaller } from '../../../../../kernel/auth';
import {
  PAGE_PATH,
  confirmPage,
  contentSecurityPolicy,
  decidedPage,
  enterCodePage,
  problemPage,
  signInPage,
  type PageUser,
} from '../domain/login-page';
import { safeEqual } from '../../../../../kernel/secrets';

const CSRF_COOKIE = 'quire_csrf';
/**
 * Wrong user codes: more than 5 in 15 minutes locks the account's code entry for 15 minutes;
 * an address (shared by everyone behind one NAT) gets 20.
 */
export const WRONG_CODE_LIMIT = { points: 5, durationSec: 900, blockDurationSec: 900 };
export const WRONG_CODE_IP_LIMIT = { points: 20, durationSec: 900, blockDurationSec: 900 };
/** Codes opened by link (GET, uncounted) that point at nothing: 30 in 15 minutes per user, then links only fill the form. */
export const CODE_LINK_LIMIT = { points: 30, durationSec: 900 };
/** Wrong passwords on this page: per address and identifier, and per address. */
export const SIGN_IN_LIMIT = { points: 10, durationSec: 900, blockDurationSec: 900 };
export const SIGN_IN_IP_LIMIT = { points: 50, durationSec: 900, blockDurationSec: 900 };

interface CookieOptions {
  maxAge: number;
  sameSite: 'Lax' | 'Strict';
  path: string;
  secure: boolean;
}

/** Cookies are written by hand: Koa refuses a Secure cookie on a plain-HTTP hop behind a TLS proxy. */
export function setCookie(ctx, name: string, value: string, options: CookieOptions) {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${Math.max(0, Math.floor(options.maxAge))}`, 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.secure) parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

const str = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/**
 * The approval page of the CLI login, served outside /api (routes/pages.ts, mounted in
 * bootstrap like the GraphQL plugin mounts /graphql). A person signs in (users-permissions
 * credentials, or the quire_session cookie), checks the code and the device's name, and
 * approves or denies.
 */
/** A page of a sign-in flow: never cached, never framed (its CSP is set with its nonce). */
export function sendPage(ctx, status: number, html: string) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  // same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on form posts.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = html;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const logins = () => strapi.plugin('quire').service('cliLogin');
  const rateLimit = () => strapi.plugin('quire').service('rateLimit');
  const sessions = () => strapi.plugin('quire').service('webSessions');
  const publicOrigin = () => new URL(publicUrl(strapi));
  const secure = () => publicOrigin().protocol === 'https:';
  const secret = () => (strapi.config.get('server.app.keys') as string[])[0];

  /** A fresh nonce for each response, and the CSP that allows only it. */
  function nonce(ctx): string {
    const value = randomBytes(16).toString('base64');
    ctx.set('Content-Security-Policy', contentSecurityPolicy(value));
    return value;
  }

  /**
   * Signed double-submit CSRF token: a random value in an httpOnly, SameSite=Strict cookie, and
   * its HMAC in each form. Another site can neither read the cookie nor compute the HMAC.
   */
  function csrfToken(ctx): string {
    let value = ctx.cookies.get(CSRF_COOKIE, { signed: false });
    if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
      value = randomBytes(32).toString('base64url');
      setCookie(ctx, CSRF_COOKIE, value, { maxAge: 86400, sameSite: 'Strict', path: PAGE_PATH, secure: secure() });
    }
    return createHmac('sha256', secret()).update(`csrf:${value}`).digest('base64url');
  }

  function csrfValid(ctx): boolean {
    const origin = ctx.get('origin');
    if (origin && origin !== publicOrigin().origin && origin !== `${ctx.protocol}://${ctx.host}`) return false;
    const value = ctx.cookies.get(CSRF_COOKIE, { signed: false });
    const sent = str(ctx.request.body?.csrf, 200);
    if (!value || !sent) return false;
    return safeEqual(createHmac('sha256', secret()).update(`csrf:${value}`).digest('base64url'), sent);
  }

  /**
   * The signed-in person: the route's guard checked the quire_session cookie (the `session`
   * credential, optional here); a cookie that is no longer valid is cleared.
   */
  async function sessionUser(ctx): Promise<(PageUser & { id: number }) | null> {
    const caller = ctx.state.caller as UserCaller | null;
    if (caller) return caller.user;
    if (ctx.state.credentialRefused) sessions().clearCookie(ctx);
    return null;
  }

  const codeLimits = (ctx, userId: number) =>
    [
      ['cli-user-code', `user:${userId}`, WRONG_CODE_LIMIT],
      ['cli-user-code-ip', `ip:${ctx.request.ip}`, WRONG_CODE_IP_LIMIT],
    ] as const;

  /** Seconds the person must wait before entering another code, or 0. */
  async function codeLockout(ctx, userId: number): Promise<number> {
    let wait = 0;
    for (const [name, key, spec] of codeLimits(ctx, userId)) wait = Math.max(wait, await rateLimit().blockedFor(name, key, spec));
    return wait;
  }

  /** Counts a wrong code; returns the lockout in seconds when this one went over a limit. */
  async function countWrongCode(ctx, userId: number): Promise<number> {
    let wait = 0;
    for (const [name, key, spec] of codeLimits(ctx, userId)) {
      try {
        await rateLimit().consume(name, key, spec);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'rate-limited') throw error;
        wait = Math.max(wait, Number(error.headers['Retry-After']) || spec.blockDurationSec);
      }
    }
    return wait;
  }

  const lockedMessage = (seconds: number) =>
    `Too many wrong codes. Code entry is locked for ${minutes(seconds)} minute${minutes(seconds) === 1 ? '' : 's'}.`;

  /**
   * Looks the typed code up; renders the answer when there is no live login to show. Only a
   * submitted code (a POST with the CSRF token: `counted`) counts as a guess and is subject to
   * the lockout. A link (GET ?code=) is looked up uncounted, so links clicked from another site
   * cannot lock anyone out; its misses have their own small budget per user, past which links
   * show the code in the form to submit.
   */
  async function pendingLoginOrRender(ctx, user: PageUser & { id: number }, code: string, csrf: string, n: string, counted = true) {
    if (!counted) {
      try {
        await rateLimit().consume('cli-code-link', `user:${user.id}`, CODE_LINK_LIMIT);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'rate-limited') throw error;
        sendPage(ctx, 200, enterCodePage({ nonce: n, csrf, user, code }));
        return null;
      }
    }
    const locked = counted ? await codeLockout(ctx, user.id) : 0;
    if (locked) {
      sendPage(ctx, 429, enterCodePage({ nonce: n, csrf, user, code, error: lockedMessage(locked) }));
      return null;
    }
    const login = await logins().findPending(code);
    if (login) return login;
    // A code that was right once (a link opened again after approving or denying) is no guess.
    const settled = await logins().settledByUserCode(code);
    if (settled) {
      const error =
        settled === 'used'
          ? 'This code was already used: each code works once. To connect a device, run "quire login" on it again for a new code.'
          : 'This code has expired. Run "quire login" on the device again for a new code.';
      sendPage(ctx, 410, enterCodePage({ nonce: n, csrf, user, error }));
      return null;
    }
    const lockout = counted ? await countWrongCode(ctx, user.id) : 0;
    const error = lockout
      ? lockedMessage(lockout)
      : 'That code is not valid, or it has expired or been used. Check the code in your terminal, or run "quire login" again.';
    sendPage(ctx, lockout ? 429 : 400, enterCodePage({ nonce: n, csrf, user, code, error }));
    return null;
  }

  const codeHref = (code: string) => (code ? `${PAGE_PATH}?code=${encodeURIComponent(code)}` : PAGE_PATH);

  /** Every handler answers with a page, whatever happens. */
  const page = (handler: (ctx) => Promise<void>) => async (ctx) => {
    try {
      await handler(ctx);
    } catch (error) {
      strapi.log.error(`${ctx.method} ${ctx.path} failed: ${(error as Error)?.stack ?? error}`);
      sendPage(ctx, 500, problemPage({ nonce: nonce(ctx), title: 'Something went wrong', message: 'Something went wrong on our side. Try again in a moment.' }));
    }
  };

  const expiredForm = (ctx, code: string) =>
    sendPage(
      ctx,
      403,
      problemPage({ nonce: nonce(ctx), title: 'This form has expired', message: 'The form was stale or did not come from this page. Open the page again and retry.', retryHref: codeHref(code) }),
    );

  async function show(ctx) {
    const n = nonce(ctx);
    const csrf = csrfToken(ctx);
    const code = str(ctx.query.code, 40).trim();
    const user = await sessionUser(ctx);
    if (!user) return sendPage(ctx, 200, signInPage({ nonce: n, csrf, code }));
    if (!code) return sendPage(ctx, 200, enterCodePage({ nonce: n, csrf, user }));
    const login = await pendingLoginOrRender(ctx, user, code, csrf, n, false);
    if (login) sendPage(ctx, 200, confirmPage({ nonce: n, csrf, user, login }));
  }

  /** A submitted code (the code form): counted, and refused while code entry is locked. */
  async function enter(ctx) {
    const code = str(ctx.request.body?.code, 40).trim();
    if (!csrfValid(ctx)) return expiredForm(ctx, code);
    const n = nonce(ctx);
    const csrf = csrfToken(ctx);
    const user = await sessionUser(ctx);
    if (!user) return sendPage(ctx, 401, signInPage({ nonce: n, csrf, code, error: 'Sign in first.' }));
    if (!code) return sendPage(ctx, 400, enterCodePage({ nonce: n, csrf, user, error: 'Enter the code shown in your terminal.' }));
    const login = await pendingLoginOrRender(ctx, user, code, csrf, n);
    if (login) sendPage(ctx, 200, confirmPage({ nonce: n, csrf, user, login }));
  }

  async function signIn(ctx) {
    const body = ctx.request.body ?? {};
    const code = str(body.code, 40).trim();
    if (!csrfValid(ctx)) return expiredForm(ctx, code);
    const n = nonce(ctx);
    const csrf = csrfToken(ctx);
    const identifier = str(body.identifier, 200).trim();
    const password = str(body.password, 500);
    const again = (status: number, error: string) => sendPage(ctx, status, signInPage({ nonce: n, csrf, code, identifier, error }));
    if (!identifier || !password) return again(400, 'Enter your username or email and your password.');

    const ipKey = `ip:${ctx.request.ip}`;
    const idKey = `id:${ctx.request.ip}:${identifier.toLowerCase()}`;
    const wait = Math.max(
      await rateLimit().blockedFor('cli-sign-in', idKey, SIGN_IN_LIMIT),
      await rateLimit().blockedFor('cli-sign-in-ip', ipKey, SIGN_IN_IP_LIMIT),
    );
    if (wait) return again(429, `Too many sign-in attempts. Try again in ${minutes(wait)} minutes.`);

    const result = await verifyPassword(strapi, identifier, password);
    if (!result.ok) {
      try {
        await rateLimit().consume('cli-sign-in', idKey, SIGN_IN_LIMIT);
        await rateLimit().consume('cli-sign-in-ip', ipKey, SIGN_IN_IP_LIMIT);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'rate-limited') {
          return again(429, `Too many sign-in attempts. Try again in ${minutes(Number(error.headers['Retry-After']) || 900)} minutes.`);
        }
        throw error;
      }
      return again(result.status, result.message);
    }
    await rateLimit().reset('cli-sign-in', idKey, SIGN_IN_LIMIT);
    await sessions().start(ctx, result.userId);
    ctx.status = 303;
    ctx.redirect(codeHref(code));
  }

  async function decide(ctx) {
    const body = ctx.request.body ?? {};
    const code = str(body.code, 40).trim();
    if (!csrfValid(ctx)) return expiredForm(ctx, code);
    const n = nonce(ctx);
    const csrf = csrfToken(ctx);
    const user = await sessionUser(ctx);
    if (!user) return sendPage(ctx, 401, signInPage({ nonce: n, csrf, code, error: 'Sign in first.' }));
    const decision = body.decision;
    if (decision !== 'approve' && decision !== 'deny') {
      return sendPage(ctx, 400, problemPage({ nonce: n, title: 'No decision', message: 'Choose Approve or Deny.', retryHref: codeHref(code) }));
    }
    const login = await pendingLoginOrRender(ctx, user, code, csrf, n);
    if (!login) return;
    const done = await logins().decide(login.id, user.id, decision === 'approve');
    if (!done) {
      return sendPage(ctx, 409, problemPage({ nonce: n, title: 'Login no longer waiting', message: 'This login was decided already or has expired. Run "quire login" again.' }));
    }
    sendPage(ctx, 200, decidedPage({ nonce: n, approved: decision === 'approve', name: login.name }));
  }

  async function signOut(ctx) {
    const code = str(ctx.request.body?.code, 40).trim();
    if (!csrfValid(ctx)) return expiredForm(ctx, code);
    // Ends the session itself, not only the cookie: a copied value stops working too.
    await sessions().end(ctx);
    ctx.status = 303;
    ctx.redirect(codeHref(code));
  }

  return { show: page(show), enter: page(enter), signIn: page(signIn), decide: page(decide), signOut: page(signOut) };
};

type PasswordCheck = { ok: true; userId: number } | { ok: false; status: number; message: string };

const WRONG = 'Wrong username, email or password.';
const DUMMY_HASH = '$2a$10$oRyWoY0w3gwG5gN3EZzdc.24aySfKbv5WoLmdMs2aHHgjU/v15Suq';

/** users-permissions' own local-login rules (its auth controller's `callback`), without issuing anything. */
export async function verifyPassword(strapi: Core.Strapi, identifier: string, password: string): Promise<PasswordCheck> {
  const up = strapi.plugin('users-permissions');
  const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
  const grant = (await store.get({ key: 'grant' })) as { email?: { enabled?: boolean } } | null;
  if (!grant?.email?.enabled) return { ok: false, status: 403, message: 'Password sign-in is disabled on this server.' };
  const user = await strapi.db.query('plugin::users-permissions.user').findOne({
    where: { provider: 'local', $or: [{ email: identifier.toLowerCase() }, { username: identifier }] },
    select: ['id', 'password', 'confirmed', 'blocked'],
  });
  // An unknown identifier costs the same bcrypt comparison as a wrong password (no user enumeration by timing).
  const valid = await up.service('user').validatePassword(password, user?.password || DUMMY_HASH);
  if (!user?.password || !valid) {
    return { ok: false, status: 401, message: WRONG };
  }
  const advanced = (await store.get({ key: 'advanced' })) as { email_confirmation?: boolean } | null;
  if (advanced?.email_confirmation && user.confirmed !== true) {
    return { ok: false, status: 403, message: 'Confirm your email address before signing in.' };
  }
  if (user.blocked === true) return { ok: false, status: 403, message: 'This account has been blocked by an administrator.' };
  return { ok: true, userId: user.id };
}
