import type { Core } from '@strapi/strapi';
import { controller, reply } from '#kernel/routes';
import { noteRoutes } from '../routes/notes';
import { getService } from '../services/get-service';
import { actorOf, authorOf, precondition, tagged } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const notes = () => getService(strapi, 'notes');
  return controller(noteRoutes, {
    brief: ({ params, caller }) => notes().brief(caller.userId, params.id),
    briefRevisions: async ({ params, caller }) => ({ revisions: await notes().premiseRevisions(caller.userId, params.id) }),
    patchBrief: async ({ params, body, caller }) => notes().setPremise(caller.userId, params.id, body.premise, await actorOf(strapi, caller)),
    list: async ({ params, caller }) => ({ notes: await notes().list(caller.userId, params.id) }),
    create: async ({ params, body, caller }) => {
      const { etag, ...data } = await notes().add(caller.userId, params.id, body, authorOf(caller), await actorOf(strapi, caller));
      return reply(201, data, { ETag: etag });
    },
    get: async ({ params, headers, caller }) => {
      const { note, etag } = await notes().getTagged(caller.userId, params.id, params.nid);
      return tagged(headers['If-None-Match'], { note }, etag);
    },
    update: async ({ params, body, headers, caller }) => {
      const { etag, ...data } = await notes().update(caller.userId, params.id, params.nid, body, precondition(headers['If-Match']), await actorOf(strapi, caller));
      return reply(200, data, { ETag: etag });
    },
    remove: async ({ params, headers, caller }) => notes().remove(caller.userId, params.id, params.nid, precondition(headers['If-Match']), await actorOf(strapi, caller)),
  });
};
