/** An instance's executions: the list, one with its attempts, replay; and the failures of every instance (the home widget). */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import type { AdminItem, AdminList } from '#kernel/admin-ui/types';
import { useAdminGet } from '#kernel/admin-ui/use-admin-get';
import type { AdminExecution, AdminExecutionDetail, AdminFailedExecution, AdminReplayed } from '../api';
import { instanceUrl } from './instances';

export const useExecutionList = (instanceId: string, query: Record<string, unknown>) => useAdminGet<AdminList<AdminExecution>>(instanceUrl(instanceId, '/executions'), query);
export const useExecution = (instanceId: string, executionId: string) =>
  useAdminGet<AdminItem<AdminExecutionDetail>>(instanceUrl(instanceId, `/executions/${encodeURIComponent(executionId)}`));
export const useFailedExecutions = (limit = 5) => useAdminGet<{ data: AdminFailedExecution[] }>('/triggers/executions/failed', { limit });

export function useExecutionsApi(instanceId: string) {
  const client = useClient();
  return {
    replay: (executionId: string) => dataOf<AdminReplayed>(client.post(instanceUrl(instanceId, `/executions/${encodeURIComponent(executionId)}/replay`))),
  };
}
