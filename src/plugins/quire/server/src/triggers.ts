import type { Core } from '@strapi/strapi';
import type { TriggersServices } from '../../../../contracts/plugin-services';

/**
 * A service of the triggers plugin, typed by the contract the kernel keeps between the plugins
 * (contracts/plugin-services.ts): this plugin imports no file of the triggers plugin. The MCP
 * server reaches an organization's skills through it.
 */
export function triggersService<K extends keyof TriggersServices>(strapi: Core.Strapi, name: K): TriggersServices[K] {
  return strapi.plugin('triggers').service(name) as TriggersServices[K];
}
