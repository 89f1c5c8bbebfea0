import type { Core } from '@strapi/strapi';
import type { UserCaller } from '../../../../../kernel/auth';
import { permissionDenied } from '../../../../../kernel/errors';
import { controller } from '../../../../../kernel/routes';
import { keyRoutes } from '../routes/keys';

const KEYS_NEXT =
  'Create and revoke API keys with your login: a JWT (POST /api/auth/local), the browser session, or the key "quire login" saved (quire keys create ...).';

/**
 * Keys are managed by the person, not by their agents: a JWT, the session cookie, or the key
 * `quire login` issued after the person approved it with their session. A key made with
 * POST /api/keys may only revoke itself (log out): a leaked agent key can neither mint new keys
 * nor revoke the others. (Read and suggest keys are refused earlier: these routes are writes.)
 */
export function mayManageKeys(caller: UserCaller, revoking?: string): boolean {
  // An OAuth token is an agent's too: it manages nothing of the person's credentials.
  if (caller.credential === 'oauth') return false;
  if (caller.credential !== 'api-key') return true;
  if (caller.keyFromLogin) return true;
  return revoking !== undefined && revoking === caller.keyDocumentId;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const keys = () => strapi.plugin('quire').service('keys');
  return controller(keyRoutes, {
    list: async ({ caller }) => ({ keys: await keys().list(caller.userId) }),
    create: ({ body, caller }) => {
      if (!mayManageKeys(caller)) throw permissionDenied('An API key cannot create API keys.', KEYS_NEXT);
      return keys().create(caller.userId, { name: body.name ?? 'API key', scope: body.scope, expiresAt: body.expiresAt ?? null });
    },
    revoke: async ({ params, caller }) => {
      if (!mayManageKeys(caller, params.id)) throw permissionDenied('An API key can revoke only itself.', KEYS_NEXT);
      await keys().revoke(caller.userId, params.id);
      return { id: params.id };
    },
    me: ({ caller }) => ({ user: caller.user, via: caller.via }),
  });
};
