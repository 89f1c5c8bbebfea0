import type { Core } from '@strapi/strapi';
import { ApiError, fromStrapiErrorBody, toFailure, type Failure } from './errors';

/**
 * The one place where errors become the failure envelope `{success:false,error:{...}}`.
 *
 * It is an app-level middleware (config/middlewares.ts, `global::envelope`) placed before the
 * body parser, so malformed JSON, unknown routes and anything thrown by our routes come out in
 * our shape. Each plugin declares the URL prefixes it owns, in its register:
 *
 *   registerPrefixes(strapi, '<plugin>', ['/api/posts', '/webhook']);
 *
 * Under a declared prefix everything answers in our envelope; elsewhere under /api, other
 * plugins' routes (users-permissions' /api/auth/local...) keep Strapi's own shape.
 */

const prefixesByApp = new WeakMap<object, Map<string, readonly string[]>>();

/** Declares (or replaces) the URL prefixes that `owner` answers under. */
export function registerPrefixes(strapi: Core.Strapi, owner: string, prefixes: readonly string[]): void {
  for (const prefix of prefixes) {
    if (!/^\/[^?#]*[^/]$/.test(prefix)) throw new Error(`Envelope prefix "${prefix}" of ${owner} must start with "/" and not end with one.`);
  }
  let owners = prefixesByApp.get(strapi);
  if (!owners) prefixesByApp.set(strapi, (owners = new Map()));
  owners.set(owner, [...prefixes]);
}

/** Every declared prefix, by owner. */
export function registeredPrefixes(strapi: Core.Strapi): ReadonlyMap<string, readonly string[]> {
  return prefixesByApp.get(strapi) ?? new Map();
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + '/');

/** True when `path` is under a prefix some plugin declared. */
export function isOurPath(strapi: Core.Strapi, path: string): boolean {
  for (const prefixes of registeredPrefixes(strapi).values()) {
    if (prefixes.some((prefix) => under(path, prefix))) return true;
  }
  return false;
}

function write(ctx, failure: Failure) {
  ctx.status = failure.status;
  for (const [name, value] of Object.entries(failure.headers)) ctx.set(name, value);
  ctx.body = failure.body;
}

/** The middleware factory (Strapi's `(config, { strapi })` shape). */
export function envelopeMiddleware(_config: unknown, { strapi }: { strapi: Core.Strapi }) {
  return async (ctx, next) => {
    const ours = isOurPath(strapi, ctx.path);
    if (!ours && !ctx.path.startsWith('/api/')) return next();
    // Another plugin's content-api route (users-permissions' login...) keeps Strapi's shape.
    const foreign = () => !ours && ctx.state.route?.info?.type === 'content-api';
    try {
      await next();
    } catch (error) {
      if (foreign()) throw error;
      const failure = toFailure(error);
      if (failure.status >= 500) {
        // A deliberate 500 (an ApiError, e.g. a link that cannot be fetched) is expected: one line, no stack.
        if (error instanceof ApiError) strapi.log.warn(`${ctx.method} ${ctx.path}: ${error.message}`);
        else strapi.log.error(`${ctx.method} ${ctx.path} failed: ${(error as Error)?.stack ?? error}`);
      }
      return write(ctx, failure);
    }
    if (foreign()) return;
    if ((ctx.status === 404 || ctx.status === 405) && ctx.body == null) {
      const allowed = ctx.status === 405 ? ctx.response.get('Allow') : '';
      const next = allowed ? `This path accepts ${allowed}.` : 'See docs/api.md for the list of routes.';
      return write(ctx, toFailure(new ApiError('not-found', `There is no route ${ctx.method} ${ctx.path}.`, next)));
    }
    const translated = fromStrapiErrorBody(ctx.status, ctx.body);
    if (translated) write(ctx, translated);
  };
}
