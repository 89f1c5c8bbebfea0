import type { Core } from '@strapi/strapi';
import { setPageCookie } from '#kernel/page-kit';
import { generateSecret, hashSecret } from '#kernel/secrets';
import type { CallerUser } from '#kernel/auth';
import { userRepository } from '../repositories/users';
import { webSessionRepository } from '../repositories/web-sessions';
import { getService } from './get-service';

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
 * sessions. Used through `getService(strapi, 'webSessions')`:
 *
 *   await webSessions.start(ctx, userId);   // after checking the password: new session, cookie set
 *   const user = await webSessions.user(value); // the session credential's check (kernel auth)
 *   await webSessions.end(ctx);              // sign-out: ends the presented session, clears the cookie
 *   webSessions.clearCookie(ctx);            // a refused cookie: clear it without a lookup
 *   await webSessions.endAllFor(userId);     // password change or block (credential-changes.ts)
 *
 * The cookie is httpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https (the page kit's
 * cookie writer, kernel/page-kit.ts). Forms that a session authorises still need their own CSRF
 * token (SameSite=Lax allows top-level GETs): the page kit keeps one per page.
 */

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sessions = webSessionRepository(strapi);
  const users = userRepository(strapi);
  const setSessionCookie = (ctx, value: string, maxAge: number) => setPageCookie(strapi, ctx, SESSION_COOKIE, value, { maxAge, sameSite: 'Lax', path: '/' });

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

    /** Ends every session of a user (a password change); returns how many ended. */
    async endAllFor(userId: number): Promise<number> {
      return sessions.removeAllFor(userId);
    },
  };
};
