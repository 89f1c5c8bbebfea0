import type { Core } from '@strapi/strapi';
import { ApiError, fromStrapiErrorBody, toFailure, type Failure } from '../domain/errors';

/** Path prefixes that belong to Quire: everything under them answers in our envelope. */
const OUR_PREFIXES = [
  '/api/articles',
  '/api/keys',
  '/api/auth/me',
  '/api/upload',
  '/api/unfurl',
  '/api/cli',
  '/api/organizations',
  '/api/process-instances',
  '/webhook',
  '/status',
];

export const isOurPath = (path: string) =>
  OUR_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix + '/'));

function write(ctx, failure: Failure) {
  ctx.status = failure.status;
  for (const [name, value] of Object.entries(failure.headers)) ctx.set(name, value);
  ctx.body = failure.body;
}

/**
 * The one place where errors become the failure envelope. It sits before the body parser,
 * so malformed JSON, unknown routes and anything thrown by our routes come out in our shape.
 * Other plugins' routes (users-permissions' /api/auth/local...) keep Strapi's own shape.
 */
export default (_config: unknown, { strapi }: { strapi: Core.Strapi }) => {
  return async (ctx, next) => {
    const ours = isOurPath(ctx.path);
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
};
