/**
 * Translations of a plugin's admin pages: `translations/<locale>.json` holds its messages
 * unprefixed ("articles.title"), and `global.plugins.<id>[.description]` for the Plugins page.
 */
export const translationId = (pluginId: string, id: string) => `${pluginId}.${id}`;

/** Our messages prefixed with the plugin id; `global.*` keys as they are. */
export function prefixTranslations(pluginId: string, data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key.startsWith('global.') ? key : translationId(pluginId, key), value]));
}

/**
 * A plugin's `registerTrads`: `load(locale)` imports `./translations/<locale>.json` (a dynamic
 * import written in the plugin, so that the bundler sees the folder); a missing locale gives
 * no messages, and the pages' English defaults show.
 */
export function registerTranslations(pluginId: string, load: (locale: string) => Promise<{ default: Record<string, string> }>) {
  return ({ locales }: { locales: string[] }) =>
    Promise.all(
      locales.map(async (locale) => {
        try {
          return { data: prefixTranslations(pluginId, (await load(locale)).default), locale };
        } catch {
          return { data: {}, locale };
        }
      }),
    );
}
