import type { Core } from '@strapi/strapi';

/**
 * Route middleware of every authenticated route of ours (the routes themselves set
 * `auth: false`, so Strapi's 401/403 bodies never reach our clients). It leaves
 * `ctx.state.user` ({id, username, email}) and `ctx.state.via` ('key' | 'session').
 */
export default (_config: unknown, { strapi }: { strapi: Core.Strapi }) => {
  const auth = () => strapi.plugin('quire').service('auth');
  return async (ctx, next) => {
    const principal = await auth().authenticate(ctx);
    ctx.state.user = principal.user;
    ctx.state.via = principal.via;
    ctx.state.apiKeyId = principal.apiKeyId;
    return next();
  };
};
