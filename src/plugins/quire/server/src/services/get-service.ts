import type { Core } from '@strapi/strapi';
import type services from '.';

/** Every service of this plugin by name, with its type (as strapi-plugin-navigation's getService). */
export type QuireServiceMap = { [K in keyof typeof services]: ReturnType<(typeof services)[K]> };

/** A service of this plugin, typed: a reader and the compiler follow a call to its code. */
export function getService<K extends keyof QuireServiceMap>(strapi: Core.Strapi, name: K): QuireServiceMap[K] {
  return strapi.plugin('quire').service(name) as QuireServiceMap[K];
}
