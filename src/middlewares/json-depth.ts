/**
 * `global::json-depth` (config/middlewares.ts), right after the body parser: a JSON body nested
 * deeper than kernel/json-depth's bound answers 400 before any route walks it. Under /api (and
 * our other prefixes) the envelope turns the error into ours; elsewhere (the admin API) Strapi
 * answers its own 400 with the same message.
 */
import type { Core } from '@strapi/strapi';
import { isOurPath } from '../kernel/envelope';
import { jsonValueTooDeep, tooDeep } from '../kernel/json-depth';

export default (_config: unknown, { strapi }: { strapi: Core.Strapi }) => {
  return async (ctx, next) => {
    const body = ctx.request.body;
    if (body !== null && typeof body === 'object' && jsonValueTooDeep(body)) {
      const error = tooDeep();
      if (isOurPath(strapi, ctx.path) || ctx.path.startsWith('/api/')) throw error;
      ctx.throw(400, error.message);
    }
    return next();
  };
};
