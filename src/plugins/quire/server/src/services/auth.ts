import type { Core } from '@strapi/strapi';
import { unauthenticated } from '../domain/errors';
import { API_KEY_PREFIX } from '../domain/secrets';

export const SESSION_COOKIE = 'quire_session';

export interface Principal {
  user: { id: number; username: string; email: string };
  via: 'key' | 'session';
  apiKeyId?: number;
}

const MISSING_NEXT = 'Send "Authorization: Bearer <API key>" (create one with POST /api/keys or "quire login").';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  async function activeUser(id: number) {
    const user = await strapi.db
      .query('plugin::users-permissions.user')
      .findOne({ where: { id }, select: ['id', 'username', 'email', 'blocked'] });
    if (!user || user.blocked) return null;
    return { id: user.id, username: user.username, email: user.email };
  }

  /** The user id in a users-permissions JWT, or null when it is not a valid one. */
  async function jwtUserId(token: string): Promise<number | null> {
    try {
      const payload = await strapi.plugin('users-permissions').service('jwt').verify(token);
      return typeof payload?.id === 'number' || typeof payload?.id === 'string' ? Number(payload.id) : null;
    } catch {
      return null;
    }
  }

  return {
    /** Reads the credential of a request: Bearer API key, Bearer JWT, or the session cookie. */
    async authenticate(ctx): Promise<Principal> {
      const header: string | undefined = ctx.get('authorization') || undefined;
      let token: string | undefined;
      if (header) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
        if (!match) throw unauthenticated('The Authorization header must be "Bearer <credential>".', MISSING_NEXT);
        token = match[1];
      } else {
        token = ctx.cookies.get(SESSION_COOKIE, { signed: false }) || undefined;
      }
      if (!token) throw unauthenticated('No credential was sent.', MISSING_NEXT);

      if (token.startsWith(API_KEY_PREFIX)) {
        const key = await strapi.plugin('quire').service('keys').verify(token);
        if (!key) throw unauthenticated('The API key is not valid (revoked, or never issued).', MISSING_NEXT);
        return { user: key.user, via: 'key', apiKeyId: key.id };
      }
      const userId = await jwtUserId(token);
      const user = userId !== null && (await activeUser(userId));
      if (!user) throw unauthenticated('The session token is not valid or has expired.', 'Log in again.');
      return { user, via: 'session' };
    },
  };
};
