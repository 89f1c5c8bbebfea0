import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { publicationRoutes } from '../routes/publications';
import { actorOf, authorOf } from './conditional';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const publications = () => getService(strapi, 'publications');
  return controller(publicationRoutes, {
    publish: async ({ params, caller }) => publications().publish(caller.userId, params.id, await actorOf(strapi, caller)),
    unpublish: async ({ params, caller }) => publications().unpublish(caller.userId, params.id, await actorOf(strapi, caller)),
    import: async ({ body, caller }) =>
      getService(strapi, 'imports')
        .importArticle(caller.userId, body.source, { title: body.title, author: authorOf(caller), actor: await actorOf(strapi, caller) }),
  });
};
