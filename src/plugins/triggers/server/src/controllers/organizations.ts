import type { Core } from '@strapi/strapi';
import { controller } from '../../../../../kernel/routes';
import { organizationRoutes } from '../routes';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const organizations = () => strapi.plugin('triggers').service('organizations');
  return controller(organizationRoutes, {
    create: async ({ body, caller }) => ({ organization: await organizations().create(caller.userId, body.name) }),
    list: async ({ caller }) => ({ organizations: await organizations().list(caller.userId) }),
    createKey: ({ params, body, caller }) => organizations().createKey(caller.userId, params.orgId, body.name ?? 'Organization key'),
    listKeys: async ({ params, caller }) => ({ keys: await organizations().listKeys(caller.userId, params.orgId) }),
    revokeKey: async ({ params, caller }) => {
      await organizations().revokeKey(caller.userId, params.orgId, params.keyId);
      return { id: params.keyId };
    },
  });
};
