/** Row → API record mappers, shared by the repositories and services. The records' shapes are schemas/records.ts. */
import { iso } from '#kernel/db';
import type { ExecutionRecord, OrganizationKeyRecord, OrganizationRecord, WorkflowRecord } from '../schemas/records';


/** JSON stored in a text column; null stays null. */
export const fromJson = (value: unknown): unknown => (value == null ? null : JSON.parse(String(value)));

export const organizationRecord = (row): OrganizationRecord => ({
  id: row.documentId,
  name: row.name,
  createdAt: iso(row.createdAt)!,
});

export const organizationKeyRecord = (row): OrganizationKeyRecord => ({
  id: row.documentId,
  name: row.name,
  prefix: row.prefix,
  createdAt: iso(row.createdAt)!,
  lastUsedAt: iso(row.lastUsedAt),
});

export const workflowRecord = (row, publicUrl: string): WorkflowRecord => ({
  id: row.documentId,
  name: row.name,
  action: row.action,
  description: row.description ?? null,
  inputSchema: fromJson(row.inputSchema) as Record<string, unknown> | null,
  config: fromJson(row.config) as Record<string, unknown>,
  triggerUrl: `${publicUrl}/webhook/${row.instanceId}/${row.documentId}`,
  signing: Number(row.secretCount) > 0,
  callbackUrl: row.callbackUrl ?? null,
  enabled: Boolean(row.enabled),
  createdAt: iso(row.createdAt)!,
  updatedAt: iso(row.updatedAt)!,
});

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
  callback: row.callback_status
    ? { status: row.callback_status, attempts: Number(row.callback_attempts ?? 0), lastError: row.callback_last_error ?? null }
    : null,
});
