import type { Core } from '@strapi/strapi';

/**
 * Makes every route of the app case-sensitive, as URLs are. Koa's router matches
 * case-insensitively by default, while the middleware that guards a path prefix (a webhook
 * route's raw body and its size cap, the error envelope, the upload headers) compares it
 * exactly: a path in other capitals reached a controller without any of them. With
 * case-sensitive routes the router and every prefix check agree. Applied when the server mounts
 * its router (Strapi builds one Router per API without options, so it cannot be asked earlier).
 */
export function caseSensitiveRoutes(strapi: Core.Strapi): void {
  const server = strapi.server as unknown as { mount(...args: unknown[]): unknown; router: { stack: RouterLayer[] } };
  const mount = server.mount;
  server.mount = function mountCaseSensitive(this: unknown, ...args: unknown[]) {
    const result = mount.apply(this, args);
    for (const layer of server.router.stack) makeCaseSensitive(layer);
    return result;
  };
}

interface RouterLayer {
  regexp: RegExp;
  opts: { sensitive?: boolean };
}

function makeCaseSensitive(layer: RouterLayer): void {
  layer.opts.sensitive = true;
  if (layer.regexp.flags.includes('i')) layer.regexp = new RegExp(layer.regexp.source, layer.regexp.flags.replace('i', ''));
}
