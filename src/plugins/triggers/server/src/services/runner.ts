import type { Core } from '@strapi/strapi';
import { EventEmitter } from 'node:events';
import { Queue, Worker } from 'bullmq';
import { ApiError } from '../../../../quire/server/src/domain/errors';
import { ActionError } from '../domain/action-error';
import { retryDelayMs } from '../domain/backoff';
import { isFinal, type ExecutionRecord } from '../domain/records';
import type { TriggersConfig } from '../config';
import type { ClaimedExecution } from './executions';

/**
 * Runs executions. Without REDIS_URL, in this process (a small concurrency-limited queue);
 * with it, through a BullMQ queue that every process works on. In both modes a run starts
 * with a conditional claim in the database, so an execution runs once however many times
 * it is dispatched; a periodic sweep re-dispatches what a dead process left behind.
 */

interface Failure {
  code: string;
  message: string;
  retryable: boolean;
}

const POLL_INTERVAL_MS = 250;
const STOP_GRACE_MS = 5_000;
const QUEUE_ADD_TIMEOUT_MS = 2_000;

/** By name as well as class: a plugin may hold its own copy of these modules. */
const isNamed = (error: unknown, name: string): error is { code: string; message: string; retryable?: boolean } =>
  typeof error === 'object' && error !== null && (error as Error).name === name && typeof (error as { code?: unknown }).code === 'string';

function describeFailure(error: unknown): Failure {
  if (error instanceof ActionError || isNamed(error, 'ActionError')) {
    return { code: error.code, message: error.message, retryable: Boolean(error.retryable) };
  }
  if (error instanceof ApiError || isNamed(error, 'ApiError')) return { code: error.code, message: error.message, retryable: false };
  return { code: 'action-failed', message: 'The action failed.', retryable: false };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const config = () => strapi.plugin('triggers').config as unknown as <K extends keyof TriggersConfig>(key: K) => TriggersConfig[K];
  const setting = <K extends keyof TriggersConfig>(key: K): TriggersConfig[K] => config()(key);
  const executions = () => strapi.plugin('triggers').service('executions');
  const actions = () => strapi.plugin('triggers').service('actions');

  const finished = new EventEmitter();
  finished.setMaxListeners(0);

  let mode: 'inline' | 'queue' | 'stopped' = 'stopped';
  let queue: Queue | null = null;
  let worker: Worker | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  const timers = new Set<NodeJS.Timeout>();
  const waiting: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let active = 0;

  /** One attempt of one execution, if this process wins the claim. */
  async function execute(executionId: string): Promise<void> {
    const claimed: ClaimedExecution | null = await executions().claim(executionId, setting('leaseMs'));
    if (!claimed) return;
    const outcome = await attempt(claimed);
    if (outcome.ok) {
      await executions().finish(claimed, { status: 'success', output: outcome.output });
    } else if (outcome.failure.retryable && claimed.attempts < claimed.max_attempts && mode !== 'stopped') {
      const delay = retryDelayMs(setting('retryBaseMs'), claimed.attempts);
      const { code, message } = outcome.failure;
      if (await executions().retryLater(claimed, { code, message }, new Date(Date.now() + delay))) {
        await dispatch(executionId, { delayMs: delay, jobId: `${executionId}-retry-${claimed.attempts}` });
      }
      return;
    } else {
      const { code, message } = outcome.failure;
      await executions().finish(claimed, { status: 'failed', error: { code, message } });
    }
    finished.emit(executionId);
  }

  async function attempt(claimed: ClaimedExecution): Promise<{ ok: true; output: unknown } | { ok: false; failure: Failure }> {
    const action = actions().get(claimed.action);
    if (!action) {
      return { ok: false, failure: { code: 'unknown-action', message: `The action "${claimed.action}" is not registered.`, retryable: false } };
    }
    const controller = new AbortController();
    const timeoutMs = setting('actionTimeoutMs');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new ActionError('timeout', `The action did not finish within ${timeoutMs} ms.`, { retryable: true });
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      const output = await Promise.race([
        Promise.resolve().then(() =>
          action.run(JSON.parse(claimed.input), {
            strapi,
            executionId: claimed.document_id,
            workflowId: claimed.workflow_id,
            instanceId: claimed.instance_id,
            userId: claimed.user_id,
            attempt: claimed.attempts,
            maxAttempts: claimed.max_attempts,
            config: JSON.parse(claimed.config),
            signal: controller.signal,
          }),
        ),
        timedOut,
      ]);
      return { ok: true, output: output === undefined ? null : output };
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.code === 'action-failed') {
        strapi.log.error(`triggers: execution ${claimed.document_id} (${claimed.action}) failed: ${(error as Error)?.stack ?? error}`);
      }
      return { ok: false, failure };
    } finally {
      clearTimeout(timer);
    }
  }

  function track(work: Promise<void>) {
    inFlight.add(work);
    work.finally(() => inFlight.delete(work)).catch(() => {});
  }

  /** The in-process queue: at most `concurrency` executions at once. */
  function pump() {
    while (mode === 'inline' && waiting.length && active < setting('concurrency')) {
      const id = waiting.shift()!;
      active += 1;
      const work = execute(id)
        .catch((error) => {
          strapi.log.error(`triggers: running ${id} failed: ${error?.stack ?? error}`);
        })
        .finally(() => {
          active -= 1;
          pump();
        });
      track(work);
    }
  }

  /** Asks for a run of the execution, now or after a delay. */
  async function dispatch(executionId: string, options: { delayMs?: number; jobId?: string } = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    if (mode === 'queue' && queue) {
      // Never hold a trigger request on an unreachable Redis: the execution is recorded, and
      // the sweep dispatches it once the queue is back.
      let timer: NodeJS.Timeout | undefined;
      const unreachable = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the queue did not take the job within ${QUEUE_ADD_TIMEOUT_MS} ms`)), QUEUE_ADD_TIMEOUT_MS);
      });
      try {
        await Promise.race([queue.add('run', { executionId }, { jobId: options.jobId ?? executionId, delay: delayMs || undefined }), unreachable]);
      } finally {
        clearTimeout(timer);
      }
      return;
    }
    if (mode !== 'inline') return;
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        waiting.push(executionId);
        pump();
      }, delayMs);
      timers.add(timer);
      return;
    }
    waiting.push(executionId);
    pump();
  }

  /** Re-dispatches executions whose process died, and forgets old webhook ids. */
  async function sweep(): Promise<number> {
    const stranded = await executions().stranded(setting('leaseMs'));
    for (const { id, attempts } of stranded) await dispatch(id, { jobId: `${id}-sweep-${attempts}` });
    await executions().purgeDeliveries();
    return stranded.length;
  }

  return {
    mode: () => mode,

    async start() {
      const redisUrl = strapi.plugin('quire').service('redis').url();
      if (redisUrl) {
        // BullMQ needs its own connections (the worker's is blocking) with retries left to it.
        const connection = { url: redisUrl, maxRetriesPerRequest: null };
        const name = setting('queueName');
        queue = new Queue(name, {
          connection,
          defaultJobOptions: {
            removeOnComplete: true,
            removeOnFail: 1000,
            // Infrastructure failures (database unreachable) are retried; action failures are recorded, not thrown.
            attempts: 5,
            backoff: { type: 'exponential', delay: 1000 },
          },
        });
        worker = new Worker(name, async (job) => execute(job.data.executionId), { connection, concurrency: setting('concurrency') });
        worker.on('error', (error) => strapi.log.warn(`triggers: queue worker: ${error.message}`));
        queue.on('error', (error) => strapi.log.warn(`triggers: queue: ${error.message}`));
        mode = 'queue';
      } else {
        mode = 'inline';
      }
      const interval = setting('sweepIntervalMs');
      if (interval > 0) {
        sweepTimer = setInterval(() => {
          sweep().catch((error) => strapi.log.warn(`triggers: sweep failed: ${error?.message ?? error}`));
        }, interval);
        sweepTimer.unref();
      }
    },

    async stop() {
      const wasQueue = mode === 'queue';
      mode = 'stopped';
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      waiting.length = 0;
      if (wasQueue) {
        await worker?.close().catch(() => {});
        await queue?.close().catch(() => {});
        worker = null;
        queue = null;
      }
      // Let running attempts record their outcome; one cut off is re-run after its lease.
      await Promise.race([Promise.allSettled([...inFlight]), sleep(STOP_GRACE_MS)]);
    },

    dispatch,
    execute,
    sweep,

    /**
     * The execution once it is finished, or as it is when `waitMs` runs out. Polls the database
     * (no connection is held in between) and wakes early when this process finishes it.
     */
    async waitFor(instanceId: string, executionId: string, waitMs: number): Promise<ExecutionRecord | null> {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const record: ExecutionRecord | null = await executions().get(instanceId, executionId);
        const left = deadline - Date.now();
        if (!record || isFinal(record.status) || left <= 0) return record;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            finished.off(executionId, done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(POLL_INTERVAL_MS, left));
          finished.on(executionId, done);
        });
      }
    },
  };
};
