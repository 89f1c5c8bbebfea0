/**
 * The executions table, through Knex (kernel/db: the open transaction's handle, schema-qualified
 * table name). The trigger path inserts and the runner and the callbacks claim with conditional
 * UPDATEs (a claim succeeds for one process only), which the query engine does not express.
 * The table and columns are those of the execution content type.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { repositoryOf, tableName } from '#kernel/db';
import { executionRecord } from './records';
import type { ExecutionRecord } from '../schemas/records';
import { INSTANCES } from './instances';
import { WORKFLOWS } from './workflows';

export const EXECUTIONS = 'triggers_executions';

const STATUS_COLUMNS = [
  'document_id', 'workflow_id', 'status', 'created_at', 'started_at', 'finished_at', 'attempts', 'output', 'error',
  'callback_status', 'callback_attempts', 'callback_last_error',
];
const CLAIM_COLUMNS = ['id', 'document_id', 'instance_id', 'workflow_id', 'user_id', 'action', 'config', 'input', 'attempts', 'max_attempts', 'callback_status'];
const SUMMARY_COLUMNS = ['document_id', 'workflow_id', 'status', 'created_at', 'started_at', 'finished_at', 'attempts', 'max_attempts'];

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
  /** 'pending' when the workflow had a callback URL when triggered. */
  callback_status: string | null;
}

/** An execution as its first request recorded it (the answer to a repeat). */
export interface FirstExecution {
  id: number;
  document_id: string;
  status: string;
  created_at: unknown;
  body_hash?: string | null;
}

export interface ListFilters {
  workflowId?: string;
  status?: string;
  limit: number;
  /** Internal id to continue below. */
  before?: number;
}

export interface ClaimedCallback {
  id: number;
  document_id: string;
  instance_id: string;
  workflow_id: string;
  callback_attempts: number;
}

export const executionsRepository = (strapi: Core.Strapi) => {
  const table = () => tableName(strapi, EXECUTIONS);
  const filtered = (k: Knex, instanceId: string, filters: { workflowId?: string; status?: string }) => {
    const q = k(table()).where({ instance_id: instanceId });
    if (filters.workflowId) q.andWhere({ workflow_id: filters.workflowId });
    if (filters.status) q.andWhere({ status: filters.status });
    return q;
  };

  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** Inserts a row; a unique index (dedupe or idempotency key) refusing it throws. */
    async insert(k: Knex, row: Record<string, unknown>): Promise<void> {
      await k(table()).insert(row);
    },

    async firstByIdempotencyKey(k: Knex, key: string): Promise<FirstExecution | undefined> {
      return k(table()).where({ idempotency_key: key }).first('id', 'document_id', 'status', 'created_at', 'body_hash');
    },

    async firstByDedupeKey(k: Knex, key: string): Promise<FirstExecution | undefined> {
      return k(table()).where({ dedupe_key: key }).first('id', 'document_id', 'status', 'created_at');
    },

    /** Clears a key column of a row, only if it was created before `cutoff` (still old). */
    async releaseKey(k: Knex, id: number, column: 'idempotency_key' | 'dedupe_key', cutoff: Date): Promise<void> {
      await k(table()).where({ id }).andWhere('created_at', '<', cutoff).update({ [column]: null });
    },

    async source(k: Knex, instanceId: string, executionId: string): Promise<{ workflow_id: string; input: string } | undefined> {
      return k(table()).where({ document_id: executionId, instance_id: instanceId }).first('workflow_id', 'input');
    },

    async get(k: Knex, instanceId: string, executionId: string): Promise<ExecutionRecord | null> {
      const row = await k(table()).where({ document_id: executionId, instance_id: instanceId }).first(STATUS_COLUMNS);
      return row ? executionRecord(row) : null;
    },

    /** Newest first, and the internal id of the last row when there may be more. */
    async list(k: Knex, instanceId: string, filters: ListFilters): Promise<{ executions: ExecutionRecord[]; last: number | null }> {
      const q = filtered(k, instanceId, filters);
      if (filters.before !== undefined) q.andWhere('id', '<', filters.before);
      const found = await q.orderBy('id', 'desc').limit(filters.limit + 1).select(['id', ...STATUS_COLUMNS]);
      const more = found.length > filters.limit;
      const page = found.slice(0, filters.limit);
      return { executions: page.map(executionRecord), last: more ? Number(page[page.length - 1].id) : null };
    },

    /** Takes a due pending execution (or one whose lease ran out) for one attempt; null when the condition fails. */
    async claim(k: Knex, executionId: string, now: Date, dueBefore: Date, leaseMs: number): Promise<ClaimedExecution | null> {
      const q = k(table());
      const claimed = await q
        .where({ document_id: executionId })
        .andWhere((w) =>
          w
            .where((p) => p.where({ status: 'pending' }).andWhere((r) => r.whereNull('run_after').orWhere('run_after', '<=', dueBefore)))
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
      if (!claimed.length) return null;
      const row = claimed[0];
      return { ...row, id: Number(row.id), user_id: Number(row.user_id), attempts: Number(row.attempts), max_attempts: Number(row.max_attempts) };
    },

    /** Writes `data` when attempt `attempts` still holds the running execution; false otherwise. */
    async settleAttempt(k: Knex, id: number, attempts: number, data: Record<string, unknown>): Promise<boolean> {
      const count = await k(table()).where({ id, status: 'running', attempts }).update(data);
      return count > 0;
    },

    /** `running` past their lease, and `pending` ones due before `due`. */
    async stranded(k: Knex, now: Date, due: Date, limit: number): Promise<Array<{ id: string; attempts: number }>> {
      const found = await k(table())
        .where((w) => w.where({ status: 'running' }).andWhere('lease_until', '<', now))
        .orWhere((w) =>
          w.where({ status: 'pending' }).andWhere((r) => r.where('run_after', '<', due).orWhere((n) => n.whereNull('run_after').andWhere('created_at', '<', due))),
        )
        .orderBy('id', 'asc')
        .limit(limit)
        .select(['document_id', 'attempts']);
      return found.map((row) => ({ id: row.document_id, attempts: Number(row.attempts) }));
    },

    /** Deletes up to `batch` finished executions created before `before` whose callback is settled; how many. */
    async pruneBatch(k: Knex, before: Date, batch: number): Promise<{ found: number; deleted: number }> {
      const ids = await k(table())
        .where('created_at', '<', before)
        .whereIn('status', ['success', 'failed'])
        .andWhere((w) => w.whereNull('callback_status').orWhereNot('callback_status', 'pending'))
        .orderBy('id', 'asc')
        .limit(batch)
        .pluck('id');
      if (!ids.length) return { found: 0, deleted: 0 };
      return { found: ids.length, deleted: await k(table()).whereIn('id', ids).del() };
    },

    /** Releases webhook ids and idempotency keys of executions created before `old`. */
    async releaseKeysBefore(k: Knex, old: Date): Promise<number> {
      const ids = await k(table()).whereNotNull('dedupe_key').andWhere('created_at', '<', old).update({ dedupe_key: null });
      const keys = await k(table()).whereNotNull('idempotency_key').andWhere('created_at', '<', old).update({ idempotency_key: null });
      return ids + keys;
    },

    /** Takes a finished execution's pending callback for one attempt, or null (not due, taken, or none). */
    async claimCallback(k: Knex, executionId: string, now: Date, dueBefore: Date, leaseUntil: Date): Promise<ClaimedCallback | null> {
      const q = k(table());
      const claimed = await q
        .where({ document_id: executionId, callback_status: 'pending' })
        .whereIn('status', ['success', 'failed'])
        .andWhere((w) => w.whereNull('callback_next_at').orWhere('callback_next_at', '<=', dueBefore))
        .andWhere((w) => w.whereNull('callback_lease_until').orWhere('callback_lease_until', '<', now))
        .update(
          {
            // Rows written before callbacks existed hold null.
            callback_attempts: k.raw('COALESCE(??, 0) + 1', ['callback_attempts']),
            callback_lease_until: leaseUntil,
            updated_at: now,
          },
          ['id', 'document_id', 'instance_id', 'workflow_id', 'callback_attempts'],
        );
      if (!claimed.length) return null;
      return { ...claimed[0], id: Number(claimed[0].id), callback_attempts: Number(claimed[0].callback_attempts) };
    },

    /** Records a callback attempt's outcome, only if this attempt still holds the callback. */
    async settleCallback(k: Knex, id: number, attempt: number, data: Record<string, unknown>): Promise<boolean> {
      const count = await k(table())
        .where({ id, callback_status: 'pending', callback_attempts: attempt })
        .update({ ...data, callback_lease_until: null, updated_at: new Date() });
      return count > 0;
    },

    /** Pending callbacks of finished executions, due before `due` and finished before it, not held by a live attempt. */
    async callbacksDue(k: Knex, now: Date, due: Date, limit: number): Promise<Array<{ id: string; attempts: number }>> {
      const found = await k(table())
        .where({ callback_status: 'pending' })
        .whereIn('status', ['success', 'failed'])
        .andWhere((w) => w.whereNull('callback_next_at').orWhere('callback_next_at', '<=', due))
        .andWhere((w) => w.whereNull('callback_lease_until').orWhere('callback_lease_until', '<', now))
        .andWhere('finished_at', '<', due)
        .orderBy('id', 'asc')
        .limit(limit)
        .select(['document_id', 'callback_attempts']);
      return found.map((row) => ({ id: row.document_id, attempts: Number(row.callback_attempts) }));
    },

    /** A page of an instance's executions for the admin panel, newest first, and how many match. */
    async page(k: Knex, instanceId: string, query: { page: number; pageSize: number; workflowId?: string; status?: string }) {
      const [{ total }] = await filtered(k, instanceId, query).count({ total: '*' });
      const found = await filtered(k, instanceId, query)
        .orderBy('id', 'desc')
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .select(SUMMARY_COLUMNS);
      return { rows: found as Array<Record<string, any>>, total: Number(total) };
    },

    /** The newest failed executions of every instance, with their instance's and workflow's names (the home widget). */
    async failedWithNames(k: Knex, limit: number): Promise<Array<Record<string, any>>> {
      return k(tableName(strapi, EXECUTIONS, 'e'))
        .leftJoin(tableName(strapi, INSTANCES, 'i'), 'i.document_id', 'e.instance_id')
        .leftJoin(tableName(strapi, WORKFLOWS, 'w'), 'w.document_id', 'e.workflow_id')
        .where('e.status', 'failed')
        .orderBy('e.id', 'desc')
        .limit(limit)
        .select('e.document_id', 'e.instance_id', 'e.workflow_id', 'e.finished_at', 'e.updated_at', 'e.error', { instance_name: 'i.name', workflow_name: 'w.name' });
    },

    /** Every column of one execution of the instance (the admin panel's detail), or undefined. */
    async row(k: Knex, instanceId: string, executionId: string): Promise<Record<string, any> | undefined> {
      return k(table()).where({ instance_id: instanceId, document_id: executionId }).first();
    },
  });
};

export type ExecutionsRepository = ReturnType<typeof executionsRepository>;
