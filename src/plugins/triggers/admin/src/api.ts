/** What the plugin's admin routes answer (the server's own types, type-only imports erased from the bundle), and the panel's call of the trigger route. */
export type { AdminOrganization } from '../../server/src/services/admin-organizations';
export type {
  AdminAction,
  AdminExecution,
  AdminExecutionDetail,
  AdminInstanceSummary,
  AdminOrganizationDetail,
  AdminOrganizationKey,
  AdminUser,
  AdminWorkflow,
} from '../../server/src/schemas/admin';

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
