import type { Core } from '@strapi/strapi';
import { controller, reply } from '../../../../../kernel/routes';
import { historyRoutes } from '../routes/history';
import { actorOf, ifMatchOf, preconditionOf } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const history = () => strapi.plugin('quire').service('history');
  const trash = () => strapi.plugin('quire').service('trash');
  return controller(historyRoutes, {
    revisions: ({ params, caller }) => history().list(caller.userId, params.id, params.sid),
    revision: ({ params, caller }) => history().get(caller.userId, params.id, params.sid, params.rev),
    restore: async ({ params, caller }, ctx) => {
      const { data, etag } = await history().restore(caller.userId, params.id, params.sid, params.rev, { actor: await actorOf(strapi, caller), ifMatch: ifMatchOf(ctx) });
      return reply(200, data, { ETag: etag });
    },
    trash: ({ params, caller }) => trash().list(caller.userId, params.id),
    restoreFromTrash: async ({ params, body, caller }, ctx) => {
      const { data, etag } = await trash().restore(caller.userId, params.id, params.anchor, body, {
        actor: await actorOf(strapi, caller),
        ifMatch: preconditionOf(ctx),
      });
      return reply(200, data, { ETag: etag });
    },
  });
};
