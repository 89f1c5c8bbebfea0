import type { Core } from '@strapi/strapi';
import type { UserCaller } from '../../../../../contracts/credentials';
import { ApiError } from '#kernel/errors';
import { pageController, text, type CsrfPurpose, type Page } from '#kernel/page-kit';
import { PAGE_PATH, confirmPage, decidedPage, enterCodePage, problemPage, signInPage, type PageUser } from '../pages/login-page';
import { cliLoginPageRoutes } from '../routes/pages';
import { getService } from '../services/get-service';
import { SIGN_IN_IP_LIMIT, SIGN_IN_LIMIT } from '../services/sign-in';

/** The CSRF token of this page's forms (kernel/page-kit). */
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
 * device's name, and approves or denies. The page kit (kernel/page-kit.ts) reads the forms and
 * the query with the schemas their routes declare, keeps the CSRF token, the CSP nonce and the
 * one send; the views are pages/login-page.ts; the session cookie is services/web-sessions'.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const logins = () => getService(strapi, 'cliLogin');
  const rateLimit = () => getService(strapi, 'rateLimit');
  const sessions = () => getService(strapi, 'webSessions');
  const signIns = () => getService(strapi, 'signIn');

  /**
   * The signed-in person: the route's guard checked the quire_session cookie (the `session`
   * credential, optional here); a cookie that is no longer valid is cleared.
   */
  function sessionUser(input: { caller: unknown; credentialRefused: boolean }, ctx): (PageUser & { id: number }) | null {
    const caller = input.caller as UserCaller | null;
    if (caller) return caller.user;
    if (input.credentialRefused) sessions().clearCookie(ctx);
    return null;
  }

  const codeLimits = (ip: string, userId: number) =>
    [
      ['cli-user-code', `user:${userId}`, WRONG_CODE_LIMIT],
      ['cli-user-code-ip', `ip:${ip}`, WRONG_CODE_IP_LIMIT],
    ] as const;

  /** Seconds the person must wait before entering another code, or 0. */
  async function codeLockout(ip: string, userId: number): Promise<number> {
    let wait = 0;
    for (const [name, key, spec] of codeLimits(ip, userId)) wait = Math.max(wait, await rateLimit().blockedFor(name, key, spec));
    return wait;
  }

  /** Counts a wrong code; returns the lockout in seconds when this one went over a limit. */
  async function countWrongCode(ip: string, userId: number): Promise<number> {
    let wait = 0;
    for (const [name, key, spec] of codeLimits(ip, userId)) {
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
  async function pendingLoginOrRender(page: Page, ip: string, user: PageUser & { id: number }, code: string, csrf: string, counted = true) {
    const n = page.nonce;
    if (!counted) {
      try {
        await rateLimit().consume('cli-code-link', `user:${user.id}`, CODE_LINK_LIMIT);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'rate-limited') throw error;
        page.send(200, enterCodePage({ nonce: n, csrf, user, code }));
        return null;
      }
    }
    const locked = counted ? await codeLockout(ip, user.id) : 0;
    if (locked) {
      page.send(429, enterCodePage({ nonce: n, csrf, user, code, error: lockedMessage(locked) }));
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
      page.send(410, enterCodePage({ nonce: n, csrf, user, error }));
      return null;
    }
    const lockout = counted ? await countWrongCode(ip, user.id) : 0;
    const error = lockout
      ? lockedMessage(lockout)
      : 'That code is not valid, or it has expired or been used. Check the code in your terminal, or run "quire login" again.';
    page.send(lockout ? 429 : 400, enterCodePage({ nonce: n, csrf, user, code, error }));
    return null;
  }

  const codeHref = (code: string) => (code ? `${PAGE_PATH}?code=${encodeURIComponent(code)}` : PAGE_PATH);

  const expiredForm = (page: Page, code: string) =>
    page.send(
      403,
      problemPage({ nonce: page.nonce, title: 'This form has expired', message: 'The form was stale or did not come from this page. Open the page again and retry.', retryHref: codeHref(code) }),
    );

  // Every handler answers with a page, whatever happens (the kit's failure page).
  return pageController(
    strapi,
    cliLoginPageRoutes,
    {
      csrf: CSRF,
      failure: (page) => ({ status: 500, html: problemPage({ nonce: page.nonce, title: 'Something went wrong', message: 'Something went wrong on our side. Try again in a moment.' }) }),
    },
    {
      async show(input, page, ctx) {
        const csrf = page.csrfToken();
        const code = text(input.query.code, 40).trim();
        const user = sessionUser(input, ctx);
        if (!user) return page.send(200, signInPage({ nonce: page.nonce, csrf, code }));
        if (!code) return page.send(200, enterCodePage({ nonce: page.nonce, csrf, user }));
        const login = await pendingLoginOrRender(page, input.ip, user, code, csrf, false);
        if (login) page.send(200, confirmPage({ nonce: page.nonce, csrf, user, login }));
      },

      /** A submitted code (the code form): counted, and refused while code entry is locked. */
      async enter({ form, ...input }, page, ctx) {
        const code = text(form.code, 40).trim();
        if (!page.csrfValid(form.csrf)) return expiredForm(page, code);
        const csrf = page.csrfToken();
        const user = sessionUser(input, ctx);
        if (!user) return page.send(401, signInPage({ nonce: page.nonce, csrf, code, error: 'Sign in first.' }));
        if (!code) return page.send(400, enterCodePage({ nonce: page.nonce, csrf, user, error: 'Enter the code shown in your terminal.' }));
        const login = await pendingLoginOrRender(page, input.ip, user, code, csrf);
        if (login) page.send(200, confirmPage({ nonce: page.nonce, csrf, user, login }));
      },

      async signIn({ form, ip }, page, ctx) {
        const code = text(form.code, 40).trim();
        if (!page.csrfValid(form.csrf)) return expiredForm(page, code);
        const csrf = page.csrfToken();
        const identifier = text(form.identifier, 200).trim();
        const password = text(form.password, 500);
        const again = (status: number, error: string) => page.send(status, signInPage({ nonce: page.nonce, csrf, code, identifier, error }));
        if (!identifier || !password) return again(400, 'Enter your username or email and your password.');

        const ipKey = `ip:${ip}`;
        const idKey = `id:${ip}:${identifier.toLowerCase()}`;
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
        page.redirect(codeHref(code));
      },

      async decide({ form, ...input }, page, ctx) {
        const code = text(form.code, 40).trim();
        if (!page.csrfValid(form.csrf)) return expiredForm(page, code);
        const csrf = page.csrfToken();
        const user = sessionUser(input, ctx);
        if (!user) return page.send(401, signInPage({ nonce: page.nonce, csrf, code, error: 'Sign in first.' }));
        const decision = form.decision;
        if (!decision) {
          return page.send(400, problemPage({ nonce: page.nonce, title: 'No decision', message: 'Choose Approve or Deny.', retryHref: codeHref(code) }));
        }
        const login = await pendingLoginOrRender(page, input.ip, user, code, csrf);
        if (!login) return;
        const done = await logins().decide(login.id, user.id, decision === 'approve');
        if (!done) {
          return page.send(409, problemPage({ nonce: page.nonce, title: 'Login no longer waiting', message: 'This login was decided already or has expired. Run "quire login" again.' }));
        }
        page.send(200, decidedPage({ nonce: page.nonce, approved: decision === 'approve', name: login.name }));
      },

      async signOut({ form }, page, ctx) {
        const code = text(form.code, 40).trim();
        if (!page.csrfValid(form.csrf)) return expiredForm(page, code);
        // Ends the session itself, not only the cookie: a copied value stops working too.
        await sessions().end(ctx);
        page.redirect(codeHref(code));
      },
    },
  );
};
