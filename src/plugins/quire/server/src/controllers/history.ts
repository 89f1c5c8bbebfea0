import type { Core } from '@strapi/strapi';
import { controller, reply } from '#kernel/routes';
import { historyRoutes } from '../routes/history';
import { getService } from '../services/get-service';
import { actorOf, precondition } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const history = () => getService(strapi, 'history');
  const trash = () => getService(strapi, 'trash');
  return controller(historyRoutes, {
    revisions: ({ params, caller }) => history().list(caller.userId, params.id, params.sid),
    revision: ({ params, caller }) => history().get(caller.userId, params.id, params.sid, params.rev),
    restore: async ({ params, headers, caller }) => {
      const { data, etag } = await history().restore(caller.userId, params.id, params.sid, params.rev, { actor: await actorOf(strapi, caller), ifMatch: headers['If-Match'] });
      return reply(200, data, { ETag: etag });
    },
    trash: ({ params, caller }) => trash().list(caller.userId, params.id),
    restoreFromTrash: async ({ params, body, headers, caller }) => {
      const { data, etag } = await trash().restore(caller.userId, params.id, params.anchor, body, {
        actor: await actorOf(strapi, caller),
        ifMatch: precondition(headers['If-Match']),
      });
      return reply(200, data, { ETag: etag });
    },
  });
};
