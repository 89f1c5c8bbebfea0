import type { Core } from '@strapi/strapi';
import { createHash, randomUUID } from 'node:crypto';
import { isUniqueViolation } from '#kernel/db';
import { executionsRepository, type ClaimedExecution, type ListFilters } from '../repositories/executions';
import { ApiError } from '#kernel/errors';
import { triggersConfig } from '../config';
import type { ExecutionRecord, ExecutionStatus, StartedWith } from '../schemas/records';
import type { TriggerWorkflow } from './workflows';

/**
 * Executions: recording a trigger (with its delivery keys), claims, outcomes and the sweep's
 * housekeeping. The SQL is repositories/executions.
 *
 * Accepted webhook ids live on the executions they started: `dedupe_key` (workflow id and a
 * hash of the webhook-id) has a unique index, so one INSERT both records the execution and
 * claims the id, atomically, across requests and processes. After the dedupe window the key
 * is cleared and the id may be used again.
 */
export { EXECUTIONS, type ClaimedExecution, type ListFilters } from '../repositories/executions';

/** A retry may be claimed slightly early: timers of other processes are not perfectly in step. */
const EARLY_CLAIM_MS = 2_000;

export interface CreatedExecution {
  executionId: string;
  status: ExecutionStatus;
  duplicate: boolean;
}

/** Fixed length whatever the id's length; the workflow id keeps ids of different workflows apart. */
export const dedupeKey = (workflowId: string, webhookId: string) =>
  `${workflowId}:${createHash('sha256').update(webhookId, 'utf8').digest('base64url')}`;
/** The same for Idempotency-Key values, apart from webhook ids (a sender may use one value for both). */
export const idempotencyKeyOf = (workflowId: string, key: string) =>
  `${workflowId}:${createHash('sha256').update(key, 'utf8').digest('base64url')}`;
/** What identifies a request body: its exact bytes. */
export const bodyHash = (raw: Buffer) => createHash('sha256').update(raw).digest('base64url');

/** The keys that make a trigger a repeat of an earlier one: only ever explicit, never derived from the body. */
export interface DeliveryKeys {
  webhookId?: string;
  idempotencyKey?: string;
  /** The body's hash, kept with an idempotency key (a repeat with another body is refused). */
  bodyHash?: string;
  /** The execution this one replays. */
  replayOf?: string;
  /** What started it: the credential of a trigger or skill call, or `replay` (STARTED_WITH). */
  startedWith?: StartedWith;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repo = executionsRepository(strapi);
  const dedupeWindowMs = () => triggersConfig(strapi).dedupeWindowMs;

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
      callback_attempts: 0,
      created_at: now,
      updated_at: now,
    };
  }

  const cutoff = (now: Date) => new Date(now.getTime() - dedupeWindowMs());
  const asDate = (value: unknown) => (value instanceof Date ? value : new Date(Number(value)));

  const service = {
    /**
     * Records a pending execution. A webhook id or an idempotency key already accepted for the
     * workflow within the window gives back the first execution (`duplicate: true`) instead; an
     * idempotency key first sent with another body is 422. The unique indexes decide, so this
     * holds for concurrent requests in any number of processes.
     */
    async create(workflow: TriggerWorkflow, input: unknown, maxAttempts: number, keys: DeliveryKeys = {}): Promise<CreatedExecution> {
      const now = new Date();
      const executionId = randomUUID();
      const row: Record<string, unknown> = executionRow(executionId, workflow, input, maxAttempts, now);
      if (keys.replayOf) row.replay_of = keys.replayOf;
      if (keys.startedWith) row.started_with = keys.startedWith;
      if (workflow.callbackUrl) row.callback_status = 'pending';
      const webhook = keys.webhookId === undefined ? null : dedupeKey(workflow.documentId, keys.webhookId);
      const idempotency = keys.idempotencyKey === undefined ? null : idempotencyKeyOf(workflow.documentId, keys.idempotencyKey);
      if (webhook) Object.assign(row, { webhook_id: keys.webhookId, dedupe_key: webhook });
      if (idempotency) Object.assign(row, { idempotency_key: idempotency, body_hash: keys.bodyHash ?? null });
      for (let round = 0; round < 3; round += 1) {
        try {
          await repo.insert(row);
          return { executionId, status: 'pending', duplicate: false };
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
        // A unique index refused it: another request with this key got in first (committed).
        if (idempotency) {
          const first = await repo.firstByIdempotencyKey(idempotency);
          if (first && asDate(first.created_at) >= cutoff(now)) {
            if (first.body_hash !== (keys.bodyHash ?? null)) {
              throw new ApiError(
                'unprocessable',
                'This Idempotency-Key was first used with another request body.',
                'Send a new Idempotency-Key for a different request; resend the very same body to get the first execution.',
              );
            }
            return { executionId: first.document_id, status: first.status as ExecutionStatus, duplicate: true };
          }
          // Older than the window (not yet swept): release the key, only if still old, and try again.
          if (first) await repo.releaseKey(first.id, 'idempotency_key', cutoff(now));
        }
        if (webhook) {
          const first = await repo.firstByDedupeKey(webhook);
          if (first && asDate(first.created_at) >= cutoff(now)) {
            return { executionId: first.document_id, status: first.status as ExecutionStatus, duplicate: true };
          }
          if (first) await repo.releaseKey(first.id, 'dedupe_key', cutoff(now));
        }
      }
      throw new Error('Could not record the webhook delivery after three attempts.');
    },

    /** The stored input and workflow of an execution (for a replay), or null. */
    async source(instanceId: string, executionId: string): Promise<{ workflowId: string; input: unknown } | null> {
      const row = await repo.source(instanceId, executionId);
      return row ? { workflowId: row.workflow_id, input: JSON.parse(row.input) } : null;
    },

    async get(instanceId: string, executionId: string): Promise<ExecutionRecord | null> {
      return repo.get(instanceId, executionId);
    },

    /** Newest first, and the internal id of the last row when there may be more. */
    async list(instanceId: string, filters: ListFilters): Promise<{ executions: ExecutionRecord[]; last: number | null }> {
      return repo.list(instanceId, filters);
    },

    /**
     * Takes an execution for one attempt, or returns null when another worker has it, it is
     * finished, or its retry is not due. The condition makes this safe across processes.
     */
    async claim(executionId: string, leaseMs: number): Promise<ClaimedExecution | null> {
      const now = new Date();
      return repo.claim(executionId, now, new Date(now.getTime() + EARLY_CLAIM_MS), leaseMs);
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
      return repo.settleAttempt(claimed.id, claimed.attempts, { ...data, finished_at: now, lease_until: null, updated_at: now });
    },

    /** Puts a failed attempt back to pending until `runAfter` (the retry's time). */
    async retryLater(claimed: ClaimedExecution, error: { code: string; message: string }, runAfter: Date): Promise<boolean> {
      return repo.settleAttempt(claimed.id, claimed.attempts, {
        status: 'pending',
        error: JSON.stringify(error),
        run_after: runAfter,
        lease_until: null,
        updated_at: new Date(),
      });
    },

    /**
     * Executions nobody is working on: `running` past their lease (the process died) and
     * `pending` ones due for longer than `graceMs` (their process died before running them).
     */
    async stranded(graceMs: number, limit = 500): Promise<Array<{ id: string; attempts: number }>> {
      const now = new Date();
      return repo.stranded(now, new Date(now.getTime() - graceMs), limit);
    },

    /**
     * Deletes executions created more than `days` days ago that are finished and whose callback
     * is settled; their webhook ids and idempotency keys go with them. In batches, oldest first.
     */
    async prune(days: number, batch = 1000): Promise<number> {
      const before = new Date(Date.now() - days * 86_400_000);
      let total = 0;
      for (;;) {
        const { found, deleted } = await repo.pruneBatch(before, batch);
        total += deleted;
        if (found < batch) return total;
      }
    },

    /** Releases webhook ids older than the dedupe window. */
    async purgeDeliveries(): Promise<number> {
      return repo.releaseKeysBefore(cutoff(new Date()));
    },
  };
  return service;
};
