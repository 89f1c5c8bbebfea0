import type { Core } from '@strapi/strapi';
import { permissionDenied } from '../../../../../kernel/errors';
import { controller } from '../../../../../kernel/routes';
import { keyRoutes } from '../routes/keys';
import { mayManageKeys } from '../services/keys';

const KEYS_NEXT =
  'Create and revoke API keys with your login: a JWT (POST /api/auth/local), the browser session, or the key "quire login" saved (quire keys create ...).';

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
