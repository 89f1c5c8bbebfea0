export interface RouteOptions {
  /** false for the few routes that are how a credential is obtained. */
  authenticated?: boolean;
}

/**
 * A content-api route of ours, served at /api<path> (a `prefix` key in the config skips the
 * plugin's own /quire prefix). Strapi's auth is off: our authenticate middleware answers 401
 * in our envelope instead of Strapi's body.
 */
export function route(method: string, path: string, handler: string, options: RouteOptions = {}) {
  return {
    method,
    path,
    handler,
    config: {
      prefix: '',
      auth: false as const,
      middlewares: options.authenticated === false ? [] : ['plugin::quire.authenticate'],
    },
  };
}
