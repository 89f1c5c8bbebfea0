import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { searchRoutes } from '../routes/search';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const search = () => getService(strapi, 'search');
  return controller(searchRoutes, {
    inArticle: ({ params, query, caller }) => search().inArticle(caller.userId, params.id, query.q, query.limit),
    everywhere: ({ query, caller }) => search().everywhere(caller.userId, query.q, { limit: query.limit, cursor: query.cursor }),
  });
};
