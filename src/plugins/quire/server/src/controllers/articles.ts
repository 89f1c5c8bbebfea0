import type { Core } from '@strapi/strapi';
import { controller } from '#kernel/routes';
import { articleRoutes } from '../routes/articles';
import { getService } from '../services/get-service';
import { actorOf, tagged } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = () => getService(strapi, 'articles');
  const sections = () => getService(strapi, 'sections');
  return controller(articleRoutes, {
    list: ({ query, caller }) => articles().listArticles(caller.userId, query),
    create: async ({ body, caller }) => articles().createArticle(caller.userId, { ...body, actor: await actorOf(strapi, caller) }),
    get: async ({ params, query, headers, caller }) => {
      const { data, etag } = await articles().getArticleTagged(caller.userId, params.id, { includeRev: query.include === 'rev' });
      return tagged(headers['If-None-Match'], data, etag);
    },
    update: async ({ params, body, caller }) => ({ article: await articles().updateArticle(caller.userId, params.id, body, await actorOf(strapi, caller)) }),
    remove: async ({ params, caller }) => articles().deleteArticle(caller.userId, params.id, await actorOf(strapi, caller)),
    outline: async ({ params, query, headers, caller }) => {
      const { outline, etag } = await sections().outline(caller.userId, params.id, { includeRev: query.include === 'rev' });
      return tagged(headers['If-None-Match'], { outline }, etag);
    },
  });
};
