import type { Core } from '@strapi/strapi';
import type { QuireServices } from '../../../../contracts/plugin-services';

/**
 * A service of the quire plugin, typed by the contract the kernel keeps between the plugins
 * (contracts/plugin-services.ts): this plugin imports no file of the quire plugin.
 */
export function quireService<K extends keyof QuireServices>(strapi: Core.Strapi, name: K): QuireServices[K] {
  return strapi.plugin('quire').service(name) as QuireServices[K];
}
