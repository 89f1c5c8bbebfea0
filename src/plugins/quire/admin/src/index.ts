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
    // The admin home's widgets (Strapi 5's homepage widget API), first on the page. The Content
    // Manager's "Last published entries" never lists Quire's articles (they are not its
    // entries), so beside a published article it said "No published entries": it gives way.
    // (Plugins register after the Content Manager, whose widgets are there by now.)
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
      ...widgets.filter((widget) => !(widget.pluginId === 'content-manager' && widget.id === 'last-published-entries')),
    ]);
  },

  bootstrap() {},

  registerTrads: registerTranslations(PLUGIN_ID, (locale) => import(`./translations/${locale}.json`)),
};
