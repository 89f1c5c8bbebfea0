import type { Core } from '@strapi/strapi';
import { createHash, randomUUID } from 'node:crypto';
import { executionRecord, type ExecutionRecord, type ExecutionStatus } from '../domain/records';
import type { TriggerWorkflow } from './workflows';

/**
 * Executions and accepted webhook ids, through Knex: the trigger path inserts and the runner
 * claims with conditional UPDATEs (a claim succeeds for one process only), which the query
 * engine does not express. Tables and columns are those of the content types.
 */
export const EXECUTIONS = 'triggers_executions';
export const DELIVERIES = 'triggers_webhook_deliveries';

const STATUS_COLUMNS = ['document_id', 'workflow_id', 'status', 'created_at', 'started_at', 'finished_at', 'attempts', 'output', 'error'];
const CLAIM_COLUMNS = ['id', 'document_id', 'instance_id', 'workflow_id', 'user_id', 'action', 'config', 'input', 'attempts', 'max_attempts'];
/** A retry may be claimed slightly early: timers of other processes are not perfectly in step. */
const EARLY_CLAIM_MS = 2_000;

export interface ClaimedExecution {
  id: number;
  document_id: string;
  instance_id: string;
  workflow_id: string;
  user_id: number;
  action: string;
  config: string;
  input: string;
  attempts: number;
  max_attempts: number;
}

export interface CreatedExecution {
  executionId: string;
  status: ExecutionStatus;
  duplicate: boolean;
}

export interface ListFilters {
  workflowId?: string;
  status?: ExecutionStatus;
  limit: number;
  /** Internal id to continue below (from the opaque cursor). */
  before?: number;
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '');
};

export const webhookIdHash = (webhookId: string) => createHash('sha256').update(webhookId, 'utf8').digest('hex');

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const knex = () => strapi.db.connection;
  const dedupeWindowMs = () => strapi.plugin('triggers').config('dedupeWindowMs') as number;

  function executionRow(id: string, workflow: TriggerWorkflow, input: unknown, maxAttempts: number, now: Date) {
    return {
      document_id: id,
      instance_id: workflow.instanceId,
      workflow_id: workflow.documentId,
      user_id: workflow.userId,
      action: workflow.action,
      config: workflow.config,
      input: JSON.stringify(input ?? null),
      status: 'pending',
      attempts: 0,
      max_attempts: maxAttempts,
      created_at: now,
      updated_at: now,
    };
  }

  /** The execution a remembered webhook id led to, if it is still within the window. */
  async function remembered(workflowId: string, idHash: string, now: Date) {
    const row = await knex()(DELIVERIES)
      .where({ workflow_id: workflowId, id_hash: idHash })
      .first('id', 'execution_id', 'created_at');
    if (!row) return { found: false as const };
    const createdAt = row.created_at instanceof Date ? row.created_at : new Date(Number(row.created_at));
    if (createdAt.getTime() >= now.getTime() - dedupeWindowMs()) return { found: true as const, executionId: row.execution_id as string };
    // Older than the window: forget it (only that row, only if still old) and accept the id again.
    await knex()(DELIVERIES).where({ id: row.id }).andWhere('created_at', '<', new Date(now.getTime() - dedupeWindowMs())).del();
    return { found: false as const };
  }

  const service = {
    /**
     * Records a pending execution. With a webhook id, the id and the execution are written in one
     * transaction guarded by the unique index on (workflow_id, id_hash): of concurrent deliveries
     * of one id, in one process or several, exactly one inserts; the others read its execution.
     */
    async create(workflow: TriggerWorkflow, input: unknown, maxAttempts: number, webhookId?: string): Promise<CreatedExecution> {
      const now = new Date();
      const executionId = randomUUID();
      if (webhookId === undefined) {
        await knex()(EXECUTIONS).insert(executionRow(executionId, workflow, input, maxAttempts, now));
        return { executionId, status: 'pending', duplicate: false };
      }
      const idHash = webhookIdHash(webhookId);
      for (let round = 0; round < 3; round += 1) {
        try {
          await knex().transaction(async (trx) => {
            await trx(DELIVERIES).insert({
              document_id: randomUUID(),
              workflow_id: workflow.documentId,
              id_hash: idHash,
              webhook_id: webhookId,
              execution_id: executionId,
              created_at: now,
              updated_at: now,
            });
            await trx(EXECUTIONS).insert(executionRow(executionId, workflow, input, maxAttempts, now));
          });
          return { executionId, status: 'pending', duplicate: false };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          const previous = await remembered(workflow.documentId, idHash, now);
          if (previous.found) {
            const first = await knex()(EXECUTIONS).where({ document_id: previous.executionId }).first('status');
            return { executionId: previous.executionId, status: (first?.status ?? 'pending') as ExecutionStatus, duplicate: true };
          }
        }
      }
      throw new Error('Could not record the webhook delivery after three attempts.');
    },

    async get(instanceId: string, executionId: string): Promise<ExecutionRecord | null> {
      const row = await knex()(EXECUTIONS).where({ document_id: executionId, instance_id: instanceId }).first(STATUS_COLUMNS);
      return row ? executionRecord(row) : null;
    },

    /** Newest first, and the internal id of the last row when there may be more. */
    async list(instanceId: string, filters: ListFilters): Promise<{ executions: ExecutionRecord[]; last: number | null }> {
      const q = knex()(EXECUTIONS).where({ instance_id: instanceId });
      if (filters.workflowId) q.andWhere({ workflow_id: filters.workflowId });
      if (filters.status) q.andWhere({ status: filters.status });
      if (filters.before !== undefined) q.andWhere('id', '<', filters.before);
      const rows = await q.orderBy('id', 'desc').limit(filters.limit + 1).select(['id', ...STATUS_COLUMNS]);
      const more = rows.length > filters.limit;
      const page = rows.slice(0, filters.limit);
      return { executions: page.map(executionRecord), last: more ? Number(page[page.length - 1].id) : null };
    },

    /**
     * Takes an execution for one attempt, or returns null when another worker has it, it is
     * finished, or its retry is not due. The condition makes this safe across processes.
     */
    async claim(executionId: string, leaseMs: number): Promise<ClaimedExecution | null> {
      const now = new Date();
      const k = knex();
      const rows = await k(EXECUTIONS)
        .where({ document_id: executionId })
        .andWhere((w) =>
          w
            .where((p) =>
              p.where({ status: 'pending' }).andWhere((r) => r.whereNull('run_after').orWhere('run_after', '<=', new Date(now.getTime() + EARLY_CLAIM_MS))),
            )
            .orWhere((r) => r.where({ status: 'running' }).andWhere('lease_until', '<', now)),
        )
        .update(
          {
            status: 'running',
            attempts: k.raw('?? + 1', ['attempts']),
            lease_until: new Date(now.getTime() + leaseMs),
            started_at: k.raw('COALESCE(??, ?)', ['started_at', now]),
            run_after: null,
            updated_at: now,
          },
          CLAIM_COLUMNS,
        );
      if (!rows.length) return null;
      const row = rows[0];
      return { ...row, id: Number(row.id), user_id: Number(row.user_id), attempts: Number(row.attempts), max_attempts: Number(row.max_attempts) };
    },

    /**
     * Records the outcome of attempt `attempt`. Only the holder of that attempt writes: if the
     * lease ran out and another worker took the execution, this is a no-op (false).
     */
    async finish(claimed: ClaimedExecution, outcome: { status: 'success'; output: unknown } | { status: 'failed'; error: { code: string; message: string } }): Promise<boolean> {
      const now = new Date();
      const data =
        outcome.status === 'success'
          ? { status: 'success', output: JSON.stringify(outcome.output ?? null), error: null }
          : { status: 'failed', error: JSON.stringify(outcome.error) };
      const count = await knex()(EXECUTIONS)
        .where({ id: claimed.id, status: 'running', attempts: claimed.attempts })
        .update({ ...data, finished_at: now, lease_until: null, updated_at: now });
      return count > 0;
    },

    /** Puts a failed attempt back to pending until `runAfter` (the retry's time). */
    async retryLater(claimed: ClaimedExecution, error: { code: string; message: string }, runAfter: Date): Promise<boolean> {
      const count = await knex()(EXECUTIONS)
        .where({ id: claimed.id, status: 'running', attempts: claimed.attempts })
        .update({ status: 'pending', error: JSON.stringify(error), run_after: runAfter, lease_until: null, updated_at: new Date() });
      return count > 0;
    },

    /**
     * Executions nobody is working on: `running` past their lease (the process died) and
     * `pending` ones due for longer than `graceMs` (their process died before running them).
     */
    async stranded(graceMs: number, limit = 500): Promise<Array<{ id: string; attempts: number }>> {
      const now = new Date();
      const due = new Date(now.getTime() - graceMs);
      const rows = await knex()(EXECUTIONS)
        .where((w) => w.where({ status: 'running' }).andWhere('lease_until', '<', now))
        .orWhere((w) =>
          w
            .where({ status: 'pending' })
            .andWhere((r) => r.where('run_after', '<', due).orWhere((n) => n.whereNull('run_after').andWhere('created_at', '<', due))),
        )
        .orderBy('id', 'asc')
        .limit(limit)
        .select(['document_id', 'attempts']);
      return rows.map((row) => ({ id: row.document_id, attempts: Number(row.attempts) }));
    },

    /** Forgets webhook ids older than the dedupe window. */
    async purgeDeliveries(): Promise<number> {
      return knex()(DELIVERIES).where('created_at', '<', new Date(Date.now() - dedupeWindowMs())).del();
    },
  };
  return service;
};
