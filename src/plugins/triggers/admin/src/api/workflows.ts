/** An instance's workflows: list, create, change, delete, their signing and callback secrets, and the panel's call of the trigger route. */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import type { AdminItem } from '#kernel/admin-ui/types';
import { useAdminGet } from '#kernel/admin-ui/use-admin-get';
import type { AdminSecretAdded, AdminWorkflow, AdminWorkflowIssued, CreateWorkflowInput, UpdateWorkflowInput } from '../api';
import { instanceUrl } from './instances';

export const useWorkflowList = (instanceId: string | undefined) => useAdminGet<AdminItem<AdminWorkflow[]>>(instanceId ? instanceUrl(instanceId, '/workflows') : null);

export function useWorkflowsApi(instanceId: string) {
  const client = useClient();
  const url = (rest = '') => instanceUrl(instanceId, `/workflows${rest}`);
  const workflowUrl = (id: string, rest = '') => url(`/${encodeURIComponent(id)}${rest}`);
  return {
    create: (input: CreateWorkflowInput) => dataOf<AdminWorkflowIssued>(client.post(url(), input)),
    update: (id: string, input: UpdateWorkflowInput) => dataOf<AdminWorkflowIssued>(client.put(workflowUrl(id), input)),
    remove: (id: string) => dataOf<{ id: string }>(client.del(workflowUrl(id))),
    rotateCallbackSecret: (id: string) => dataOf<AdminWorkflowIssued>(client.post(workflowUrl(id, '/rotate-callback-secret'))),
    addSecret: (id: string, secret?: string) => dataOf<AdminSecretAdded>(client.post(workflowUrl(id, '/secrets'), secret ? { secret } : {})),
    removeSecret: (id: string, secretId: string) => dataOf<AdminWorkflow>(client.del(workflowUrl(id, `/secrets/${encodeURIComponent(secretId)}`))),
  };
}

/**
 * Calls the real trigger route from the browser, as any caller would, with the instance key
 * (Send test, and a skill's try-it form): its status and envelope, or null for a body that is not JSON.
 */
export async function triggerFromPanel(instanceId: string, workflowId: string, key: string, payload: unknown) {
  const response = await fetch(`/webhook/${encodeURIComponent(instanceId)}/${encodeURIComponent(workflowId)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
    body: JSON.stringify({ payload }),
    credentials: 'omit',
  });
  const body = (await response.json().catch(() => null)) as { data?: { executionId: string }; error?: { message?: string } } | null;
  return { status: response.status, body };
}
