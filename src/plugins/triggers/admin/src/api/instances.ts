/** Process instances: one instance, its key (revealed, regenerated), and the actions a workflow can run. */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import type { AdminItem } from '#kernel/admin-ui/types';
import { useAdminGet } from '#kernel/admin-ui/use-admin-get';
import type { AdminAction, AdminInstanceKey, AdminInstanceSummary } from '../api';

export const instanceUrl = (id: string, rest = '') => `/triggers/instances/${encodeURIComponent(id)}${rest}`;

export const useInstance = (id: string | undefined) => useAdminGet<AdminItem<AdminInstanceSummary>>(id ? instanceUrl(id) : null);
export const useActions = () => useAdminGet<AdminItem<AdminAction[]>>('/triggers/actions');

export function useInstancesApi() {
  const client = useClient();
  return {
    /** The instance key (needs plugin::triggers.manage). */
    key: (id: string) => dataOf<AdminInstanceKey>(client.get(instanceUrl(id, '/key'))),
    regenerateKey: (id: string) => dataOf<AdminInstanceSummary>(client.post(instanceUrl(id, '/regenerate-key'))),
  };
}
