import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { keyRoutes } from '../routes/keys';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const keys = () => getService(strapi, 'keys');
  return controller(keyRoutes, {
    list: async ({ caller }) => ({ keys: await keys().list(caller.userId) }),
    // Who may create and revoke keys is the routes' access rules (routes/access.ts).
    create: ({ body, caller }) => keys().create(caller.userId, { name: body.name ?? 'API key', scope: body.scope, expiresAt: body.expiresAt ?? null }),
    revoke: async ({ params, caller }) => {
      await keys().revoke(caller.userId, params.id);
      return { id: params.id };
    },
    me: ({ caller }) => ({ user: caller.user, via: caller.via }),
  });
};
