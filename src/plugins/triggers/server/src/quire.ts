import type { Core } from '@strapi/strapi';
import type { QuireServices } from '../../../quire/server/src/public-types';

/**
 * A service of the quire plugin, typed by that plugin's public types module: the only file of
 * another plugin this plugin imports, and only its types (tests/unit/boundaries.test.ts).
 */
export function quireService<K extends keyof QuireServices>(strapi: Core.Strapi, name: K): QuireServices[K] {
  return strapi.plugin('quire').service(name) as QuireServices[K];
}
