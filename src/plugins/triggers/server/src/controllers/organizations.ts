import type { Core } from '@strapi/strapi';
import { permissionDenied } from '#kernel/errors';
import type { OrganizationCaller, UserCaller } from '../../../../../contracts/credentials';
import { controller } from '#kernel/routes';
import { organizationRoutes } from '../routes';
import { getService } from '../services/get-service';

/** The user behind a key route's caller: an organization key may not manage organization keys. */
function owner(caller: UserCaller | OrganizationCaller): number {
  if (caller.kind === 'organization') {
    throw permissionDenied('An organization key cannot manage organization keys.', 'Use the owner\'s own credential (an API key, a JWT or the session) for /api/organizations/{id}/keys.');
  }
  return caller.userId;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const organizations = () => getService(strapi, 'organizations');
  return controller(organizationRoutes, {
    create: async ({ body, caller }) => ({ organization: await organizations().create(caller.userId, body.name) }),
    list: async ({ caller }) => ({ organizations: await organizations().list(caller.userId) }),
    createKey: ({ params, body, caller }) => organizations().createKey(owner(caller), params.orgId, body.name ?? 'Organization key'),
    listKeys: async ({ params, caller }) => ({ keys: await organizations().listKeys(owner(caller), params.orgId) }),
    revokeKey: async ({ params, caller }) => {
      await organizations().revokeKey(owner(caller), params.orgId, params.keyId);
      return { id: params.keyId };
    },
  });
};
