/**
 * The Quire plugin's admin panel entry (built by `strapi build` through the package's
 * `./strapi-admin` export): the Quire menu link, shown to admins holding plugin::quire.read,
 * and the plugin's translations.
 */
import { Book, Clock, Sparkle } from '@strapi/icons';
import { registerTranslations } from '../../../../kernel/admin-ui/translations';
import { PERMISSIONS } from './permissions';
import { PLUGIN_ID, t } from './pluginId';

export default {
  register(app: any) {
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: Book,
      intlLabel: { id: t('plugin.name'), defaultMessage: 'Quire' },
      permissions: PERMISSIONS.read,
      Component: () => import('./pages/App'),
    });
    app.registerPlugin({ id: PLUGIN_ID, name: 'Quire' });
    // The admin home's widgets (Strapi 5's homepage widget API), first on the page.
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
      ...widgets,
    ]);
  },

  bootstrap(app: any) {
    // The Content Manager's "Last edited / Last published entries" never list Quire's articles
    // (its types are hidden from the Content Manager), so beside a published article they said
    // "No published entries": they give way to Quire's own widgets.
    app.widgets?.register((widgets: any[]) =>
      widgets.filter((widget) => !(widget.pluginId === 'content-manager' && ['last-edited-entries', 'last-published-entries'].includes(widget.id))),
    );
  },

  registerTrads: registerTranslations(PLUGIN_ID, (locale) => import(`./translations/${locale}.json`)),
};
