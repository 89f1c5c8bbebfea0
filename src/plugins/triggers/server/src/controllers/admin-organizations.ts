/** Admin routes of organizations and their keys and instances (see routes/admin.ts and src/kernel/admin-routes.ts). */
import type { Core } from '@strapi/strapi';
import { adminController } from '#kernel/routes';
import { adminOrganizationRoutes } from '../routes/admin';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const organizations = () => getService(strapi, 'adminOrganizations');
  const panel = () => getService(strapi, 'adminTriggers');
  return adminController(adminOrganizationRoutes, {
    list: async ({ query }) => {
      const { results, pagination } = await organizations().list(query);
      return { data: results, meta: { pagination } };
    },
    users: async ({ query }) => ({ data: await panel().users(query) }),
    create: async ({ body }) => ({ data: await panel().createOrganization(body) }),
    get: async ({ params }) => ({ data: await panel().organization(params.orgId) }),
    createKey: async ({ params, body }) => ({ data: await panel().createKey(params.orgId, body.name ?? 'Organization key') }),
    revokeKey: async ({ params }) => {
      await panel().revokeKey(params.orgId, params.keyId);
      return { data: { id: params.keyId } };
    },
    createInstance: async ({ params, body }) => ({ data: await panel().createInstance(params.orgId, body.name) }),
  });
};
