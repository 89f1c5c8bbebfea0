import type { Core } from '@strapi/strapi';

/** Query parameters that carry a credential: taken out of the URL before anything logs it. */
const SECRET_PARAMS = new Set(['api_key']);

const decode = (value: string) => {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
};

/**
 * Global middleware placed before 'strapi::logger' (which logs ctx.url after the request):
 * removes `api_key` from the query string, in every spelling of its name's case, and keeps its
 * values in ctx.state.queryCredentials, where the authenticator (kernel/auth) reads them. The other
 * parameters stay exactly as sent.
 */
export default (_config: unknown, _ctx: { strapi: Core.Strapi }) => {
  return async (ctx, next) => {
    const query: string = ctx.querystring;
    if (query && /api_key/i.test(decode(query))) {
      const kept: string[] = [];
      const values: string[] = [];
      for (const part of query.split('&')) {
        const eq = part.indexOf('=');
        const name = decode(eq === -1 ? part : part.slice(0, eq));
        if (SECRET_PARAMS.has(name.toLowerCase())) {
          if (name === 'api_key') values.push(eq === -1 ? '' : decode(part.slice(eq + 1)));
        } else {
          kept.push(part);
        }
      }
      ctx.state.queryCredentials = values;
      ctx.querystring = kept.join('&');
      ctx.originalUrl = ctx.url;
      ctx.request.originalUrl = ctx.url;
    }
    return next();
  };
};
