/**
 * Binding declarations to Strapi: the guard every request of a declared route passes
 * (authenticate, authorize), and the routers that serve the routes (content-api, admin, root).
 */
import type { Core } from '@strapi/strapi';
import { adminRoute } from '../admin-routes';
import { authenticate, authRequestOf } from '../auth';
import { refuseForeignOrigin } from '../origins';
import { authorize } from '../permissions';
import type { AnyRoute } from './declare';

/** The guard of a route: authenticates (kernel/auth) and authorizes (kernel/permissions), leaving ctx.state.caller. */
export async function guard(strapi: Core.Strapi, route: AnyRoute, ctx): Promise<void> {
  if (route.checkOrigin) refuseForeignOrigin(strapi, ctx.request.headers.origin);
  const actions = [...(route.action ? [route.action] : []), ...(route.auth?.actionsOf?.(ctx.request.body, strapi) ?? [])];
  const { caller, refused } = await authenticate(strapi, { ...authRequestOf(ctx), actions }, { ...route.auth, credentials: route.credentials });
  await authorize(strapi, caller, route);
  ctx.state.caller = caller;
  // The route's declared stages that need the app find it here (dispatch.ts `prepare`).
  ctx.state.strapi = strapi;
  ctx.state.credentialRefused = refused;
}

/**
 * The route middleware of content-api routes (each plugin exports it as its `guard`
 * middleware): runs the guard of the route being served.
 */
export function guardMiddleware(_config: unknown, { strapi }: { strapi: Core.Strapi }) {
  return async (ctx, next) => {
    const route: AnyRoute | undefined = ctx.state.route?.declaration;
    if (!route) throw new Error(`${ctx.method} ${ctx.path} has no route declaration.`);
    await guard(strapi, route, ctx);
    return next();
  };
}

/**
 * The plugin's content-api router: every content-api route, served at its /api path with
 * Strapi's auth off (our guard answers in our envelope, never in Strapi's 401/403 shape).
 */
export function contentApiRouter(plugin: string, routes: readonly AnyRoute[]) {
  return {
    type: 'content-api',
    routes: routes
      .filter((r) => r.type === 'content-api')
      .map((r) => ({
        method: r.method,
        path: r.path.slice('/api'.length),
        handler: r.handler,
        config: { prefix: '', auth: false as const, middlewares: [`plugin::${plugin}.guard`] },
        declaration: r,
      })),
  };
}

/**
 * The plugin's admin router: its admin routes, served under /<plugin> (the path declared is the
 * served one, /<plugin>/...; Strapi's admin router adds the plugin's prefix itself).
 */
export function adminRouter(plugin: string, routes: readonly AnyRoute[]) {
  const prefix = `/${plugin}`;
  return {
    type: 'admin',
    routes: routes
      .filter((r) => r.type === 'admin')
      .map((r) => {
        if (!r.path.startsWith(`${prefix}/`)) throw new Error(`Admin route ${r.id} must be served under ${prefix}/ (it says ${r.path}).`);
        return { ...adminRoute(r.method, r.path.slice(prefix.length), r.handler, [...r.admin!.actions]), declaration: r };
      }),
  };
}

/**
 * Mounts the plugin's root routes (in its bootstrap), the way the GraphQL plugin mounts /graphql:
 * the guard, then the controller action the route names.
 */
export function mountRootRoutes(strapi: Core.Strapi, plugin: string, routes: readonly AnyRoute[]): void {
  const mounted = routes
    .filter((r) => r.type === 'root')
    .map((route) => {
      const [controller, action] = [route.handler.slice(0, route.handler.lastIndexOf('.')), route.handler.slice(route.handler.lastIndexOf('.') + 1)];
      const run = (ctx) => (strapi.plugin(plugin).controller(controller) as unknown as Record<string, (ctx) => Promise<void>>)[action](ctx);
      return {
        method: route.method,
        path: route.path,
        handler: [
          async (ctx, next) => {
            ctx.state.route = { ...ctx.state.route, declaration: route };
            await guard(strapi, route, ctx);
            return next();
          },
          run,
        ],
        config: { auth: false },
      };
    });
  if (mounted.length) strapi.server.routes(mounted as never);
}
