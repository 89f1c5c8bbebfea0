/**
 * Admin routes of the articles list (see routes/admin.ts and src/kernel/admin-routes.ts): the
 * list, the owner filter, and articles from the panel (create, rename, the trash, preview).
 */
import type { Core } from '@strapi/strapi';
import { adminController, reply } from '#kernel/routes';
import { adminArticleRoutes } from '../routes/admin';
import { editorOf } from './conditional';
import { getService } from '../services/get-service';
import { linkedUser, ownUser } from '../services/own-user';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService(strapi, 'adminArticles');
  return adminController(adminArticleRoutes, {
    list: async ({ query }, ctx) => {
      // owner=me: the signed-in admin's own user; without one yet, nobody's (id 0 owns nothing).
      const owner = query.owner === 'me' ? ((await linkedUser(strapi, ctx.state.user.id))?.id ?? 0) : query.owner;
      const { results, pagination } = await service().list({ ...query, owner });
      return { data: results, meta: { pagination } };
    },
    get: async ({ params }) => ({ data: await service().get(params.id) }),
    owners: async ({ query }) => ({ data: await service().owners({ q: query.q, limit: query.limit ?? 20 }) }),
    create: async ({ body }, ctx) => {
      const owner = body.owner === 'me' ? (await ownUser(strapi, ctx.state.user.id)).id : body.owner;
      return reply(201, await service().create(editorOf(ctx), { ...body, owner }));
    },
    ownUser: async (_input, ctx) => ({ data: await linkedUser(strapi, ctx.state.user.id) }),
    rename: async ({ params, body }, ctx) => ({ data: await service().rename(editorOf(ctx), params.id, body.title) }),
    trash: async ({ query }) => {
      const { results, pagination } = await service().trashList(query.page, query.pageSize);
      return { data: results, meta: { pagination } };
    },
    restore: async ({ params }, ctx) => ({ data: await service().restore(editorOf(ctx), params.id) }),
    users: async ({ query }) => ({ data: await service().users({ q: query.q, limit: query.limit ?? 20 }) }),
    // A page of content not yet public: for the editor who asked, never kept by a cache or indexed.
    agentChanges: async ({ query }) => ({ data: await service().agentChanges(query.limit ?? 5) }),
    pendingSuggestions: async ({ query }) => ({ data: await service().pendingSuggestions(query.limit ?? 5) }),
    preview: async ({ params }) => reply(200, await service().preview(params.id), { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' }),
  });
};
