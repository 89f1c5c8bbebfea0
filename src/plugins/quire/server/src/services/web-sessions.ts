import { createHmac, randomBytes } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { publicUrl } from '../../../../../kernel/config';
import { generateSecret, hashSecret, safeEqual } from '../../../../../kernel/secrets';
import type { CallerUser } from '../../../../../kernel/auth';
import { userRepository } from '../repositories/users';
import { webSessionRepository } from '../repositories/web-sessions';

/** The httpOnly cookie of a person's browser session on our own pages. */
export const SESSION_COOKIE = 'quire_session';
/** What a session id starts with (so it is never mistaken for a JWT or a key). */
const SESSION_PREFIX = 'qs_';
/** A session lives 30 days from sign-in, unless it ends before. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Browser sessions of people on our server-rendered pages (the CLI login page; the OAuth
 * authorize page reuses them). The cookie holds a random session id; only its SHA-256 is
 * stored, with the user and the expiry, so a session can be ended: signing out ends the one
 * presented, and a password change or a block (credential-changes.ts) ends all of the user's
 * sessions. Used through `strapi.plugin('quire').service('webSessions')`:
 *
 *   await webSessions.start(ctx, userId);   // after checking the password: new session, cookie set
 *   const user = await webSessions.user(value); // the session credential's check (kernel auth)
 *   await webSessions.end(ctx);              // sign-out: ends the presented session, clears the cookie
 *   webSessions.clearCookie(ctx);            // a refused cookie: clear it without a lookup
 *   await webSessions.endAllFor(userId);     // password change or block (credential-changes.ts)
 *   const token = webSessions.csrfToken(ctx, CSRF);  // a page's forms: their CSRF token
 *   if (!webSessions.csrfValid(ctx, CSRF, sent)) ...  // a form post: its token and Origin checked
 *
 * The cookie is httpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https. Forms that a
 * session authorises still need their own CSRF token (SameSite=Lax allows top-level GETs): each
 * page names its own (`CsrfPurpose`: its cookie, the path the cookie is sent to, the HMAC label).
 */
export interface CsrfPurpose {
  /** The cookie holding the random value. */
  cookie: string;
  /** The cookie's Path: the page and its form posts. */
  path: string;
  /** What the HMAC is keyed with, so one page's token is no other page's. */
  label: string;
}

export interface CookieOptions {
  maxAge: number;
  sameSite: 'Lax' | 'Strict';
  path: string;
}


export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sessions = webSessionRepository(strapi);
  const users = userRepository(strapi);
  const secure = () => new URL(publicUrl(strapi)).protocol === 'https:';

  const secret = () => (strapi.config.get('server.app.keys') as string[])[0];

  /**
   * Our pages' one cookie writer (httpOnly; Secure when PUBLIC_URL is https). Written by hand:
   * Koa refuses a Secure cookie on a plain-HTTP hop behind a TLS proxy.
   */
  function setCookie(ctx, name: string, value: string, options: CookieOptions) {
    const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${Math.max(0, Math.floor(options.maxAge))}`, 'HttpOnly', `SameSite=${options.sameSite}`];
    if (secure()) parts.push('Secure');
    ctx.append('Set-Cookie', parts.join('; '));
  }
  const setSessionCookie = (ctx, value: string, maxAge: number) => setCookie(ctx, SESSION_COOKIE, value, { maxAge, sameSite: 'Lax', path: '/' });
  const csrfMac = (purpose: CsrfPurpose, value: string) => createHmac('sha256', secret()).update(`${purpose.label}:${value}`).digest('base64url');

  async function activeUser(id: number): Promise<CallerUser | null> {
    const user = await users.findById(id);
    if (!user || user.blocked) return null;
    return { id: user.id, username: user.username, email: user.email };
  }

  return {
    /** Starts a session for `userId` and sets its cookie; expired sessions of the user are dropped. */
    async start(ctx, userId: number): Promise<void> {
      const token = generateSecret(SESSION_PREFIX);
      const now = Date.now();
      await sessions.removeExpired(userId, new Date(now));
      await sessions.create(hashSecret(token), userId, new Date(now + SESSION_TTL_SECONDS * 1000));
      setSessionCookie(ctx, token, SESSION_TTL_SECONDS);
    },

    /** The (unblocked) user of a live session id, or null. */
    async user(value: string): Promise<CallerUser | null> {
      if (!value.startsWith(SESSION_PREFIX) || value.length > 100) return null;
      const userId = await sessions.userIdOf(hashSecret(value), new Date());
      return userId === undefined ? null : activeUser(userId);
    },

    /** Ends the session the request presents (if any) and clears its cookie. */
    async end(ctx): Promise<void> {
      const value = ctx.cookies.get(SESSION_COOKIE, { signed: false });
      if (value) await sessions.removeByHash(hashSecret(value));
      setSessionCookie(ctx, '', 0);
    },

    /** Clears the cookie (a value that is no longer valid), without touching the store. */
    clearCookie(ctx): void {
      setSessionCookie(ctx, '', 0);
    },

    /**
     * Signed double-submit CSRF token of a page's forms: a random value in an httpOnly,
     * SameSite=Strict cookie (set when missing), and its HMAC in each form. Another site can
     * neither read the cookie nor compute the HMAC.
     */
    csrfToken(ctx, purpose: CsrfPurpose): string {
      let value = ctx.cookies.get(purpose.cookie, { signed: false });
      if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
        value = randomBytes(32).toString('base64url');
        setCookie(ctx, purpose.cookie, value, { maxAge: 86400, sameSite: 'Strict', path: purpose.path });
      }
      return csrfMac(purpose, value);
    },

    /** Whether a form post carries its page's token (`sent`), and comes from our own origin when it says. */
    csrfValid(ctx, purpose: CsrfPurpose, sent: string): boolean {
      const origin = ctx.get('origin');
      if (origin && origin !== new URL(publicUrl(strapi)).origin && origin !== `${ctx.protocol}://${ctx.host}`) return false;
      const value = ctx.cookies.get(purpose.cookie, { signed: false });
      sent = sent.slice(0, 200);
      if (!value || !sent) return false;
      return safeEqual(csrfMac(purpose, value), sent);
    },

    /** Ends every session of a user (a password change); returns how many ended. */
    async endAllFor(userId: number): Promise<number> {
      return sessions.removeAllFor(userId);
    },
  };
};
