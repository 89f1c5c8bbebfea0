/** Row → API record mappers: pure, shared by services. */

export const iso = (value: unknown): string | null => {
  if (value == null) return null;
  const date = value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** JSON stored in a text column; null stays null. */
export const fromJson = (value: unknown): unknown => (value == null ? null : JSON.parse(String(value)));

export interface OrganizationRecord {
  id: string;
  name: string;
  createdAt: string;
}

export const organizationRecord = (row): OrganizationRecord => ({
  id: row.documentId,
  name: row.name,
  createdAt: iso(row.createdAt)!,
});

export interface OrganizationKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export const organizationKeyRecord = (row): OrganizationKeyRecord => ({
  id: row.documentId,
  name: row.name,
  prefix: row.prefix,
  createdAt: iso(row.createdAt)!,
  lastUsedAt: iso(row.lastUsedAt),
});

export interface InstanceRecord {
  id: string;
  organizationId: string;
  name: string;
  apiKey: string;
  createdAt: string;
}

export interface WorkflowRecord {
  id: string;
  name: string;
  action: string;
  config: Record<string, unknown>;
  triggerUrl: string;
  signing: boolean;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export const workflowRecord = (row, publicUrl: string): WorkflowRecord => ({
  id: row.documentId,
  name: row.name,
  action: row.action,
  config: fromJson(row.config) as Record<string, unknown>,
  triggerUrl: `${publicUrl}/webhook/${row.instanceId}/${row.documentId}`,
  signing: Number(row.secretCount) > 0,
  enabled: Boolean(row.enabled),
  createdAt: iso(row.createdAt)!,
  updatedAt: iso(row.updatedAt)!,
});

export type ExecutionStatus = 'pending' | 'running' | 'success' | 'failed';
export const EXECUTION_STATUSES: ExecutionStatus[] = ['pending', 'running', 'success', 'failed'];
export const isFinal = (status: string) => status === 'success' || status === 'failed';

export interface ExecutionRecord {
  executionId: string;
  workflowId: string;
  status: ExecutionStatus;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  attempts: number;
  output: unknown;
  error: { code: string; message: string } | null;
}

/** From a raw (snake_case) executions row. */
export const executionRecord = (row): ExecutionRecord => ({
  executionId: row.document_id,
  workflowId: row.workflow_id,
  // A retry waiting for its turn is still pending to the caller.
  status: row.status,
  createdAt: iso(row.created_at)!,
  startedAt: iso(row.started_at),
  finishedAt: iso(row.finished_at),
  attempts: Number(row.attempts),
  output: fromJson(row.output),
  error: fromJson(row.error) as ExecutionRecord['error'],
});
