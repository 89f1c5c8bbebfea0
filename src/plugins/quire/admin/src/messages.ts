/** The plugin's words (`m('key', 'Default text', values)`, defaults as in translations/en.json) and toasts: the kernel's hook with Quire's ids. */
import { useMessages as useKernelMessages } from '#kernel/admin-ui/use-messages';
import { t } from './pluginId';

export const useMessages = () => useKernelMessages(t);
