import type { Core } from '@strapi/strapi';

/** Our plugins must be loaded: Strapi would otherwise skip a plugin with no entry silently. */
const REQUIRED_PLUGINS = ['quire', 'triggers', 'users-permissions', 'upload'];

export default {
  register({ strapi }: { strapi: Core.Strapi }) {
    const missing = REQUIRED_PLUGINS.filter((name) => !strapi.plugin(name));
    if (missing.length) throw new Error(`Required plugins are not loaded: ${missing.join(', ')}. Run "npm run build".`);
  },
  bootstrap() {},
};
