import type { Core } from '@strapi/strapi';
import { publicUrl } from '../../../../../kernel/config';
import { generateSecret, hashSecret } from '../../../../../kernel/secrets';
import type { CallerUser } from '../../../../../kernel/auth';

const UID = 'plugin::quire.web-session';
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
 * presented, and a password change (any route that updates a user's password) ends all of the
 * user's sessions. Used through `strapi.plugin('quire').service('webSessions')`:
 *
 *   await webSessions.start(ctx, userId);   // after checking the password: new session, cookie set
 *   const user = await webSessions.user(value); // the session credential's check (kernel auth)
 *   await webSessions.end(ctx);              // sign-out: ends the presented session, clears the cookie
 *   webSessions.clearCookie(ctx);            // a refused cookie: clear it without a lookup
 *   await webSessions.endAllFor(userId);     // password change (wired in bootstrap)
 *
 * The cookie is httpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https. Forms that a
 * session authorises still need their own CSRF token (SameSite=Lax allows top-level GETs).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const query = () => strapi.db.query(UID);
  const secure = () => new URL(publicUrl(strapi)).protocol === 'https:';

  /** Written by hand: Koa refuses a Secure cookie on a plain-HTTP hop behind a TLS proxy. */
  function setCookie(ctx, value: string, maxAge: number) {
    const parts = [`${SESSION_COOKIE}=${value}`, 'Path=/', `Max-Age=${Math.max(0, Math.floor(maxAge))}`, 'HttpOnly', 'SameSite=Lax'];
    if (secure()) parts.push('Secure');
    ctx.append('Set-Cookie', parts.join('; '));
  }

  async function activeUser(id: number): Promise<CallerUser | null> {
    const user = await strapi.db.query('plugin::users-permissions.user').findOne({ where: { id }, select: ['id', 'username', 'email', 'blocked'] });
    if (!user || user.blocked) return null;
    return { id: user.id, username: user.username, email: user.email };
  }

  return {
    /** Starts a session for `userId` and sets its cookie; expired sessions of the user are dropped. */
    async start(ctx, userId: number): Promise<void> {
      const token = generateSecret(SESSION_PREFIX);
      const now = Date.now();
      await query().deleteMany({ where: { userId, expiresAt: { $lt: new Date(now) } } });
      await query().create({ data: { tokenHash: hashSecret(token), userId, expiresAt: new Date(now + SESSION_TTL_SECONDS * 1000) }, select: ['id'] });
      setCookie(ctx, token, SESSION_TTL_SECONDS);
    },

    /** The (unblocked) user of a live session id, or null. */
    async user(value: string): Promise<CallerUser | null> {
      if (!value.startsWith(SESSION_PREFIX) || value.length > 100) return null;
      const row = await query().findOne({ where: { tokenHash: hashSecret(value), expiresAt: { $gt: new Date() } }, select: ['userId'] });
      return row ? activeUser(Number(row.userId)) : null;
    },

    /** Ends the session the request presents (if any) and clears its cookie. */
    async end(ctx): Promise<void> {
      const value = ctx.cookies.get(SESSION_COOKIE, { signed: false });
      if (value) await query().deleteMany({ where: { tokenHash: hashSecret(value) } });
      setCookie(ctx, '', 0);
    },

    /** Clears the cookie (a value that is no longer valid), without touching the store. */
    clearCookie(ctx): void {
      setCookie(ctx, '', 0);
    },

    /** Ends every session of a user (a password change); returns how many ended. */
    async endAllFor(userId: number): Promise<number> {
      const { count } = await query().deleteMany({ where: { userId } });
      return count;
    },
  };
};
