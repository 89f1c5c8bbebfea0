import type { Core } from '@strapi/strapi';
import { controller, reply, type Handler } from '#kernel/routes';
import { suggestionRoutes } from '../routes/suggestions';
import { getService } from '../services/get-service';
import { actorOf, credentialOf } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const suggestions = () => getService(strapi, 'suggestions');
  const suggest: Handler<typeof suggestionRoutes.create> = async ({ params, body, caller }) =>
    suggestions().create(caller.userId, params.id, body.ops, { note: body.note, actor: await actorOf(strapi, caller), credential: credentialOf(caller) });
  return controller(suggestionRoutes, {
    // Suggesting is what this route does, whatever the scope.
    create: { apply: suggest, suggest },
    list: ({ params, query, caller }) => suggestions().list(caller.userId, params.id, query.status),
    get: ({ params, caller }) => suggestions().get(caller.userId, params.id, params.anchor),
    accept: async ({ params, body, caller }) => {
      const { data, etag } = await suggestions().accept(caller.userId, params.id, params.anchor, await actorOf(strapi, caller), body?.sections);
      return reply(200, data, { ETag: etag });
    },
    reject: async ({ params, body, caller }) => suggestions().reject(caller.userId, params.id, params.anchor, body.reason, await actorOf(strapi, caller), body.sections),
  });
};
