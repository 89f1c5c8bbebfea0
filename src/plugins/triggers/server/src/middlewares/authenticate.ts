import type { Core } from '@strapi/strapi';
import { unauthenticated } from '../../../../quire/server/src/domain/errors';
import { keyKind } from '../domain/keys';
import type { Principal } from '../domain/principal';

/**
 * Route middleware of the /api/process-instances routes: an organization key
 * (X-Process-Manager-Key, any instance of its organization) or, without that header, the
 * user credentials of the quire plugin (API key, JWT, session). Leaves ctx.state.principal.
 */
export default (_config: unknown, { strapi }: { strapi: Core.Strapi }) => {
  return async (ctx, next) => {
    const orgKey = ctx.request.headers['x-process-manager-key'];
    let principal: Principal;
    if (orgKey !== undefined) {
      const next = 'Send a valid organization key (POST /api/organizations/{id}/keys) or leave the header out and use your own credential.';
      if (keyKind(orgKey) !== 'organization') throw unauthenticated('X-Process-Manager-Key is not an organization key (cko_ followed by 43 characters).', next);
      const granted = await strapi.plugin('triggers').service('organizations').verifyKey(orgKey);
      if (!granted) throw unauthenticated('The organization key is not valid (revoked, or never issued).', next);
      principal = { kind: 'organization', organizationId: granted.organizationId, userId: granted.userId, keyId: granted.keyId };
    } else {
      const found = await strapi.plugin('quire').service('auth').authenticate(ctx);
      ctx.state.user = found.user;
      ctx.state.via = found.via;
      principal = { kind: 'user', userId: found.user.id };
    }
    ctx.state.principal = principal;
    return next();
  };
};
