/** The registry: every declared route of every plugin (the OpenAPI document, the app's permissions, tests). */
import type { Core } from '@strapi/strapi';
import type { AnyRoute } from './declare';

const routesByApp = new WeakMap<object, Map<string, readonly AnyRoute[]>>();

/** Declares a plugin's routes (in its register): they are described in /api/openapi.json. */
export function declareRoutes(strapi: Core.Strapi, owner: string, routes: readonly AnyRoute[]): void {
  let owners = routesByApp.get(strapi);
  if (!owners) routesByApp.set(strapi, (owners = new Map()));
  owners.set(owner, [...routes]);
}

/** Every declared route, by declaring owner order; or only `owner`'s. */
export function declaredRoutes(strapi: Core.Strapi, owner?: string): AnyRoute[] {
  const owners = routesByApp.get(strapi);
  if (owner !== undefined) return [...(owners?.get(owner) ?? [])];
  return [...(owners?.values() ?? [])].flat();
}
