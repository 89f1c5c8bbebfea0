import type { Core } from '@strapi/strapi';
import { bearerToken, headerValue, registerCredential, type AuthRequest, type CallerUser, type Verdict } from '#kernel/auth';
import type { UserCaller } from '../../../../../contracts/credentials';
import { USER_CREDENTIAL_SCHEMES } from '../credentials';
import { userRepository } from '../repositories/users';
import { publicUrl } from '#kernel/config';
import { API_KEY_PREFIX, type KeyCheck } from './keys';
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX, CODE_PREFIX } from '../domain/oauth';

/** Bearer values that are ours but not JWTs: the jwt verifier leaves them to their own. */
const OPAQUE_PREFIXES = [API_KEY_PREFIX, ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX, CODE_PREFIX];

/** The resources (RFC 8707) an OAuth access token of this server may be bound to: its API, of which /api/mcp is part. */
export const oauthResources = (strapi: Core.Strapi) => {
  const base = publicUrl(strapi);
  return [`${base}/api/mcp`, `${base}/api`, base];
};

import { SESSION_COOKIE } from './web-sessions';
import { getService } from './get-service';

/** The httpOnly cookie of the browser session (set by the CLI login page): a session id (web-sessions.ts). */
export { SESSION_COOKIE };

const MISSING_NEXT = 'Send "Authorization: Bearer <API key>" (create one with POST /api/keys or "quire login").';
const EXPIRED_NEXT = 'Create a new key (POST /api/keys with your login, or "quire keys create"), or log in again with "quire login".';
const MALFORMED = 'The Authorization header must be "Bearer <credential>".';
const INVALID_SESSION = 'The session token is not valid or has expired.';
const CROSS_SITE_SESSION = 'The session cookie is accepted on /api only from pages of this server (same origin).';

/**
 * True when a request may be sent by a page of another site: a browser says so in
 * Sec-Fetch-Site (every current one) and in Origin (on every request but a plain GET or HEAD).
 * Clients that send neither (curl, the CLI) are not browsers, and cannot be made to carry a
 * person's cookie by another site.
 */
export function crossOrigin(request: AuthRequest, ownOrigin: string): boolean {
  const site = headerValue(request.headers['sec-fetch-site']);
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = headerValue(request.headers.origin);
  return origin !== undefined && origin !== ownOrigin;
}

/**
 * The credentials of a user, taught to the kernel's authenticator (kernel/auth.ts) in the
 * plugin's register: any route of any plugin may accept them by name.
 *
 * - `api-key`: `Authorization: Bearer qk_...`, an API key of ours.
 * - `jwt`: `Authorization: Bearer <users-permissions JWT>` (any other Bearer value, so a
 *   malformed Authorization header is refused here).
 * - `session`: the `quire_session` cookie; it counts only when the request has no
 *   Authorization header (an explicit credential is what the client meant), and under /api
 *   only from pages of PUBLIC_URL's origin (another site's page must not act with it).
 */
export function registerUserCredentials(strapi: Core.Strapi): void {
  const auth = () => getService(strapi, 'auth');
  const userCaller = (credential: UserCaller['credential'], user: CallerUser, extra: Partial<UserCaller> & { permissions?: Readonly<Record<string, boolean>> } = {}): Verdict => ({
    caller: { kind: 'user', credential, userId: user.id, user, via: credential === 'api-key' ? 'key' : 'session', scope: 'write', ...extra },
  });

  registerCredential(strapi, 'api-key', {
    scheme: USER_CREDENTIAL_SCHEMES['api-key'],
    whenMissing: MISSING_NEXT,
    async verify(request: AuthRequest) {
      const token = bearerToken(request);
      if (!token?.startsWith(API_KEY_PREFIX)) return undefined;
      const key: KeyCheck = await getService(strapi, 'keys').verify(token, request.actions);
      if (!key) return { refused: 'The API key is not valid (revoked, or never issued).', nextAction: MISSING_NEXT };
      if (key.status === 'expired') return { refused: 'The API key has expired.', nextAction: EXPIRED_NEXT };
      return userCaller('api-key', key.user, {
        keyId: key.id,
        keyDocumentId: key.documentId,
        scope: key.scope,
        keyFromLogin: key.origin === 'login',
        ...(key.permissions && { permissions: key.permissions }),
      });
    },
  });

  registerCredential(strapi, 'jwt', {
    scheme: USER_CREDENTIAL_SCHEMES['jwt'],
    whenMissing: MISSING_NEXT,
    async verify(request: AuthRequest) {
      const token = bearerToken(request);
      if (token === undefined || (token && OPAQUE_PREFIXES.some((prefix) => token.startsWith(prefix)))) return undefined;
      if (token === null) return { refused: MALFORMED, nextAction: MISSING_NEXT };
      const found = await auth().jwtUser(token, request.actions);
      return found ? userCaller('jwt', found.user, found.permissions && { permissions: found.permissions }) : { refused: INVALID_SESSION, nextAction: 'Log in again.' };
    },
  });

  registerCredential(strapi, 'oauth', {
    scheme: USER_CREDENTIAL_SCHEMES['oauth'],
    whenMissing: MISSING_NEXT,
    async verify(request: AuthRequest) {
      const token = bearerToken(request);
      if (!token?.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
      const resources = oauthResources(strapi);
      const grant = await getService(strapi, 'oauth').verifyAccess(token, resources);
      if (!grant) return { refused: 'The OAuth access token is not valid (expired, revoked, or for another resource).', nextAction: 'Refresh it at /oauth/token, or authorize again.' };
      return { caller: { kind: 'user', credential: 'oauth', userId: grant.user.id, user: grant.user, via: 'key', scope: grant.scope, clientName: grant.clientName } as UserCaller };
    },
  });

  registerCredential(strapi, 'session', {
    scheme: USER_CREDENTIAL_SCHEMES['session'],
    whenMissing: MISSING_NEXT,
    async verify(request: AuthRequest) {
      if (request.headers.authorization) return undefined;
      const value = request.cookies[SESSION_COOKIE];
      if (!value) return undefined;
      const api = request.path === '/api' || request.path.startsWith('/api/');
      if (api && crossOrigin(request, new URL(publicUrl(strapi)).origin)) return { refused: CROSS_SITE_SESSION, nextAction: MISSING_NEXT };
      const user = await auth().sessionUser(value);
      return user ? userCaller('session', user) : { refused: INVALID_SESSION, nextAction: 'Log in again.' };
    },
  });
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const users = userRepository(strapi);

  /** The unblocked user, with whether its role allows each of `actions` (in the same query). */
  async function activeUser(id: number, actions: readonly string[]): Promise<{ user: CallerUser; permissions?: Record<string, boolean> } | null> {
    const row = await users.withPermissions(id, actions);
    if (!row || Boolean(Number(row.blocked))) return null;
    const user = { id: Number(row.id), username: row.username, email: row.email };
    return actions.length ? { user, permissions: Object.fromEntries(actions.map((action, i) => [action, Boolean(Number(row[`allowed_${i}`]))])) } : { user };
  }

  const api = {
    /**
     * The (unblocked) user of a users-permissions JWT, or null when it is not a valid one; with
     * whether its role allows each of `actions` (the request's), read in the same query.
     */
    async jwtUser(token: string, actions: readonly string[] = []): Promise<{ user: CallerUser; permissions?: Record<string, boolean> } | null> {
      let payload;
      try {
        payload = await strapi.plugin('users-permissions').service('jwt').verify(token);
      } catch {
        return null;
      }
      const id = typeof payload?.id === 'number' || typeof payload?.id === 'string' ? Number(payload.id) : null;
      return id === null ? null : activeUser(id, actions);
    },

    /**
     * The signed-in person of a session cookie's value, or null: the one session check, shared
     * by the API (the `session` credential) and the CLI login page.
     */
    async sessionUser(value: string): Promise<CallerUser | null> {
      return getService(strapi, 'webSessions').user(value);
    },
  };
  return api;
};
