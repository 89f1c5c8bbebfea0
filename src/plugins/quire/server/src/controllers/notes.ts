import type { Core } from '@strapi/strapi';
import { controller, reply } from '../../../../../kernel/routes';
import { noteRoutes } from '../routes/notes';
import { authorOf, preconditionOf, tagged } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const notes = () => strapi.plugin('quire').service('notes');
  return controller(noteRoutes, {
    brief: ({ params, caller }) => notes().brief(caller.userId, params.id),
    briefRevisions: async ({ params, caller }) => ({ revisions: await notes().premiseRevisions(caller.userId, params.id) }),
    patchBrief: async ({ params, body, caller }) => notes().setPremise(caller.userId, params.id, body.premise, await strapi.plugin('quire').service('edits').actorOf(caller)),
    list: async ({ params, caller }) => ({ notes: await notes().list(caller.userId, params.id) }),
    create: async ({ params, body, caller }) => {
      const { etag, ...data } = await notes().add(caller.userId, params.id, body, authorOf(caller));
      return reply(201, data, { ETag: etag });
    },
    get: async ({ params, caller }, ctx) => {
      const { note, etag } = await notes().getTagged(caller.userId, params.id, params.nid);
      return tagged(ctx, { note }, etag);
    },
    update: async ({ params, body, caller }, ctx) => {
      const { etag, ...data } = await notes().update(caller.userId, params.id, params.nid, body, preconditionOf(ctx));
      return reply(200, data, { ETag: etag });
    },
    remove: async ({ params, caller }, ctx) => notes().remove(caller.userId, params.id, params.nid, preconditionOf(ctx)),
  });
};
