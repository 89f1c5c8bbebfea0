import type { Core } from '@strapi/strapi';
import { bootstrapAdminAccess, registerAdminAccess } from './admin-access';
import { API_INFO } from './api-info';
import { registerPrefixes } from './kernel/envelope';
import { DOCS_PATH, mountApiDescription } from './kernel/openapi';
import { grantByDefault } from './kernel/permissions';
import { appRedis } from './kernel/redis';
import { caseSensitiveRoutes, declaredRoutes } from './kernel/routes';

/** Our plugins must be loaded: Strapi would otherwise skip a plugin with no entry silently. */
const REQUIRED_PLUGINS = ['quire', 'triggers', 'users-permissions', 'upload'];

export default {
  register({ strapi }: { strapi: Core.Strapi }) {
    const missing = REQUIRED_PLUGINS.filter((name) => !strapi.plugin(name));
    if (missing.length) throw new Error(`Required plugins are not loaded: ${missing.join(', ')}. Run "npm run build".`);
    registerAdminAccess(strapi);
    registerPrefixes(strapi, 'app', ['/api/openapi.json', DOCS_PATH]);
    // Every route of the app, so that the prefix checks of middleware agree with the router.
    caseSensitiveRoutes(strapi);
  },

  async bootstrap({ strapi }: { strapi: Core.Strapi }) {
    await bootstrapAdminAccess(strapi);

    // GET /api/openapi.json and /api/docs: the description of every route the plugins declared.
    mountApiDescription(strapi, API_INFO);

    // After every plugin's bootstrap, so users-permissions has made its roles on a fresh database.
    const actionsByPlugin = new Map<string, string[]>();
    for (const route of declaredRoutes(strapi)) {
      if (route.action) actionsByPlugin.set(route.plugin, [...(actionsByPlugin.get(route.plugin) ?? []), route.action]);
    }
    for (const [plugin, actions] of actionsByPlugin) {
      const granted = await grantByDefault(strapi, plugin, actions);
      if (granted.length) strapi.log.info(`${plugin}: the Authenticated role may now call ${granted.length} new route(s) (Users & Permissions).`);
    }
  },

  async destroy({ strapi }: { strapi: Core.Strapi }) {
    // The app's shared Redis client (rate limits), after the plugins stopped using it.
    await appRedis(strapi).close();
  },
};
