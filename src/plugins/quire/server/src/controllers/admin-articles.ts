/** Admin routes of the articles list (see routes/admin.ts and src/kernel/admin-routes.ts). */
import type { Core } from '@strapi/strapi';
import { parseAdminQuery } from '../../../../../kernel/admin-routes';
import { adminArticlesQuery, adminOwnersQuery } from '../schemas/admin';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService(strapi, 'adminArticles');
  return {
    async list(ctx) {
      const { results, pagination } = await service().list(parseAdminQuery(adminArticlesQuery, ctx.query));
      return { data: results, meta: { pagination } };
    },
    async get(ctx) {
      return { data: await service().get(ctx.params.id) };
    },
    async owners(ctx) {
      const query = parseAdminQuery(adminOwnersQuery, ctx.query);
      return { data: await service().owners({ q: query.q, limit: query.limit ?? 20 }) };
    },
  };
};
