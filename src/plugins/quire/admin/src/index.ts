/**
 * The Quire plugin's admin panel entry (built by `strapi build` through the package's
 * `./strapi-admin` export): the Quire menu link, shown to admins holding plugin::quire.read,
 * the admin home's widgets, Strapi's guided tour marked skipped (guided-tour.ts), and the
 * plugin's translations.
 */
import { Book, Clock, Sparkle } from '@strapi/icons';
import { registerTranslations } from '#kernel/admin-ui/translations';
import { skipStrapiGuidedTour } from './guided-tour';
import { PERMISSIONS } from './permissions';
import { PLUGIN_ID, t } from './pluginId';

/**
 * Strapi's stock home widgets that count or list Content Manager entries. Quire's articles are
 * not such entries, so on a Quire deployment they counted the users-permissions users: "Entries"
 * (chart-entries) and "Project statistics" (key-statistics) showed one entry beside dozens of
 * articles, "Last edited entries" listed user accounts, and "Last published entries" said "No
 * published entries" beside a published article. Quire's widgets take their place; the
 * Content Manager itself stays in the menu.
 */
export const MISCOUNTING_WIDGETS: Array<[pluginId: string, id: string]> = [
  ['content-manager', 'chart-entries'],
  ['content-manager', 'last-edited-entries'],
  ['content-manager', 'last-published-entries'],
  ['admin', 'key-statistics'],
];

export default {
  register(app: any) {
    // Before the panel renders (Strapi renders after every plugin's register and bootstrap).
    skipStrapiGuidedTour();
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: Book,
      intlLabel: { id: t('plugin.name'), defaultMessage: 'Quire' },
      permissions: PERMISSIONS.read,
      Component: () => import('./pages/App'),
    });
    app.registerPlugin({ id: PLUGIN_ID, name: 'Quire' });
    // The admin home's widgets (Strapi 5's homepage widget API), first on the page; Strapi's
    // stock widgets that count or list Content Manager entries give way (MISCOUNTING_WIDGETS).
    // (Plugins register after the admin's own widgets and the Content Manager's.)
    app.widgets?.register((widgets: any[]) => [
      {
        id: 'agent-changes',
        pluginId: PLUGIN_ID,
        icon: Sparkle,
        title: { id: t('widget.agentChanges.title'), defaultMessage: 'Articles agents changed' },
        link: { label: { id: t('widget.open'), defaultMessage: 'Open Quire' }, href: `/plugins/${PLUGIN_ID}` },
        component: async () => (await import('./components/HomeWidgets')).AgentChangesWidget,
        permissions: PERMISSIONS.read,
      },
      {
        id: 'pending-suggestions',
        pluginId: PLUGIN_ID,
        icon: Clock,
        title: { id: t('widget.suggestions.title'), defaultMessage: 'Suggestions waiting' },
        component: async () => (await import('./components/HomeWidgets')).PendingSuggestionsWidget,
        permissions: PERMISSIONS.read,
      },
      ...widgets.filter((widget) => !MISCOUNTING_WIDGETS.some(([pluginId, id]) => widget.pluginId === pluginId && widget.id === id)),
    ]);
  },

  bootstrap() {},

  registerTrads: registerTranslations(PLUGIN_ID, (locale) => import(`./translations/${locale}.json`)),
};
