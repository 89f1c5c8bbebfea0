/**
 * The Triggers plugin's admin panel entry (built by `strapi build` through the package's
 * `./strapi-admin` export): the Triggers menu link, shown to admins holding
 * plugin::triggers.read, and the plugin's translations.
 */
import { Lightning, WarningCircle } from '@strapi/icons';
import { registerTranslations } from '#kernel/admin-ui/translations';
import { PERMISSIONS } from './permissions';
import { PLUGIN_ID, t } from './pluginId';

export default {
  register(app: any) {
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: Lightning,
      intlLabel: { id: t('plugin.name'), defaultMessage: 'Triggers' },
      permissions: PERMISSIONS.read,
      Component: () => import('./pages/App'),
    });
    app.registerPlugin({ id: PLUGIN_ID, name: 'Triggers' });
    // The admin home's widget (Strapi 5's homepage widget API): failed executions.
    app.widgets?.register({
      id: 'failed-executions',
      pluginId: PLUGIN_ID,
      icon: WarningCircle,
      title: { id: t('widget.failed.title'), defaultMessage: 'Failed executions' },
      link: { label: { id: t('widget.open'), defaultMessage: 'Open Triggers' }, href: `/plugins/${PLUGIN_ID}` },
      component: async () => (await import('./components/FailedExecutionsWidget')).FailedExecutionsWidget,
      permissions: PERMISSIONS.read,
    });
  },

  bootstrap() {},

  registerTrads: registerTranslations(PLUGIN_ID, (locale) => import(`./translations/${locale}.json`)),
};
