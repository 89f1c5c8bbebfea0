import { useIntl } from 'react-intl';
import { t } from '../pluginId';

/**
 * `m('key', 'Default text', values)`: a message of this plugin (translations/en.json holds the
 * same defaults; a test keeps them in step).
 */
export function useMessages() {
  const { formatMessage } = useIntl();
  return (id: string, defaultMessage: string, values?: Record<string, any>): string =>
    formatMessage({ id: t(id), defaultMessage }, values) as string;
}
