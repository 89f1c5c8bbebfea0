import type { Core } from '@strapi/strapi';
import { ApiError } from '../../../../../kernel/errors';
import type { UserCaller } from '../../../../../contracts/credentials';
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
import { newNonce, readForm, sendPage, text } from '../pages/respond';
import { codeForm, decisionForm, loginPageQuery, signInForm, signOutForm } from '../schemas/inputs';
import { SIGN_IN_IP_LIMIT, SIGN_IN_LIMIT } from '../services/sign-in';
import type { CsrfPurpose } from '../services/web-sessions';

/** The CSRF token of this page's forms (services/web-sessions). */
const CSRF: CsrfPurpose = { cookie: 'quire_csrf', path: PAGE_PATH, label: 'csrf' };
/**
 * Wrong user codes: more than 5 in 15 minutes locks the account's code entry for 15 minutes;
 * an address (shared by everyone behind one NAT) gets 20.
 */
export const WRONG_CODE_LIMIT = { points: 5, durationSec: 900, blockDurationSec: 900 };
export const WRONG_CODE_IP_LIMIT = { points: 20, durationSec: 900, blockDurationSec: 900 };
/** Codes opened by link (GET, uncounted) that point at nothing: 30 in 15 minutes per user, then links only fill the form. */
export const CODE_LINK_LIMIT = { points: 30, durationSec: 900 };
const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/**
 * The approval page of the CLI login, served outside /api (routes/pages.ts, mounted in
 * bootstrap like the GraphQL plugin mounts /graphql). A person signs in (users-permissions
 * credentials through services/sign-in, or the quire_session cookie), checks the code and the
 * device's name, and approves or denies. Forms and the query are read with the schemas their
 * routes declare (pages/respond readForm); cookies and CSRF are services/web-sessions'.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const logins = () => strapi.plugin('quire').service('cliLogin');
  const rateLimit = () => strapi.plugin('quire').service('rateLimit');
  const sessions = () => strapi.plugin('quire').service('webSessions');
  const signIns = () => strapi.plugin('quire').service('signIn');

  /** A fresh nonce for each response, and the CSP that allows only it. */
  function nonce(ctx): string {
    const value = newNonce();
    ctx.set('Content-Security-Policy', contentSecurityPolicy(value));
    return value;
  }

  /** This page's CSRF token (its cookie set when missing), and the check of a posted one. */
  const csrfToken = (ctx): string => sessions().csrfToken(ctx, CSRF);
  const csrfValid = (ctx, form: { csrf?: string }): boolean => sessions().csrfValid(ctx, CSRF, form.csrf ?? '');

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
    const code = text(readForm(loginPageQuery, ctx.query).code, 40).trim();
    const user = await sessionUser(ctx);
    if (!user) return sendPage(ctx, 200, signInPage({ nonce: n, csrf, code }));
    if (!code) return sendPage(ctx, 200, enterCodePage({ nonce: n, csrf, user }));
    const login = await pendingLoginOrRender(ctx, user, code, csrf, n, false);
    if (login) sendPage(ctx, 200, confirmPage({ nonce: n, csrf, user, login }));
  }

  /** A submitted code (the code form): counted, and refused while code entry is locked. */
  async function enter(ctx) {
    const form = readForm(codeForm, ctx.request.body);
    const code = text(form.code, 40).trim();
    if (!csrfValid(ctx, form)) return expiredForm(ctx, code);
    const n = nonce(ctx);
    const csrf = csrfToken(ctx);
    const user = await sessionUser(ctx);
    if (!user) return sendPage(ctx, 401, signInPage({ nonce: n, csrf, code, error: 'Sign in first.' }));
    if (!code) return sendPage(ctx, 400, enterCodePage({ nonce: n, csrf, user, error: 'Enter the code shown in your terminal.' }));
    const login = await pendingLoginOrRender(ctx, user, code, csrf, n);
    if (login) sendPage(ctx, 200, confirmPage({ nonce: n, csrf, user, login }));
  }

  async function signIn(ctx) {
    const form = readForm(signInForm, ctx.request.body);
    const code = text(form.code, 40).trim();
    if (!csrfValid(ctx, form)) return expiredForm(ctx, code);
    const n = nonce(ctx);
    const csrf = csrfToken(ctx);
    const identifier = text(form.identifier, 200).trim();
    const password = text(form.password, 500);
    const again = (status: number, error: string) => sendPage(ctx, status, signInPage({ nonce: n, csrf, code, identifier, error }));
    if (!identifier || !password) return again(400, 'Enter your username or email and your password.');

    const ipKey = `ip:${ctx.request.ip}`;
    const idKey = `id:${ctx.request.ip}:${identifier.toLowerCase()}`;
    const wait = Math.max(
      await rateLimit().blockedFor('cli-sign-in', idKey, SIGN_IN_LIMIT),
      await rateLimit().blockedFor('cli-sign-in-ip', ipKey, SIGN_IN_IP_LIMIT),
    );
    if (wait) return again(429, `Too many sign-in attempts. Try again in ${minutes(wait)} minutes.`);

    const result = await signIns().verifyPassword(identifier, password);
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
    const form = readForm(decisionForm, ctx.request.body);
    const code = text(form.code, 40).trim();
    if (!csrfValid(ctx, form)) return expiredForm(ctx, code);
    const n = nonce(ctx);
    const csrf = csrfToken(ctx);
    const user = await sessionUser(ctx);
    if (!user) return sendPage(ctx, 401, signInPage({ nonce: n, csrf, code, error: 'Sign in first.' }));
    const decision = form.decision;
    if (!decision) {
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
    const form = readForm(signOutForm, ctx.request.body);
    const code = text(form.code, 40).trim();
    if (!csrfValid(ctx, form)) return expiredForm(ctx, code);
    // Ends the session itself, not only the cookie: a copied value stops working too.
    await sessions().end(ctx);
    ctx.status = 303;
    ctx.redirect(codeHref(code));
  }

  return { show: page(show), enter: page(enter), signIn: page(signIn), decide: page(decide), signOut: page(signOut) };
};
