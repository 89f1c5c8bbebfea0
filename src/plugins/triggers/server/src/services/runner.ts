import type { Core } from '@strapi/strapi';
import { EventEmitter } from 'node:events';
import { appRedis } from '#kernel/redis';
import { Queue, Worker } from 'bullmq';
import { ApiError, notFound } from '#kernel/errors';
import { publicUrl } from '#kernel/config';
import { ActionError } from '../domain/action-error';
import { retryDelayMs } from '../domain/backoff';
import { isFinal } from '../domain/execution-status';
import type { ExecutionRecord } from '../schemas/records';
import { triggersConfig, type TriggersConfig } from '../config';
import type { ClaimedExecution } from './executions';
import { getService } from './get-service';

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
const LOADED_POLL_MS = 50;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const setting = <K extends keyof TriggersConfig>(key: K): TriggersConfig[K] => triggersConfig(strapi)[key];
  const executions = () => getService(strapi, 'executions');
  const actions = () => getService(strapi, 'actions');
  const callbacks = () => getService(strapi, 'callbacks');

  const finished = new EventEmitter();
  finished.setMaxListeners(0);

  let mode: 'inline' | 'queue' | 'stopped' = 'stopped';
  let queue: Queue | null = null;
  let worker: Worker | null = null;
  // Callbacks have their own queue and workers: a slow or dead receiver never holds up runs.
  let callbackQueue: Queue | null = null;
  let callbackWorker: Worker | null = null;
  const waitingCallbacks: string[] = [];
  let activeCallbacks = 0;
  let sweepTimer: NodeJS.Timeout | null = null;
  let loadedTimer: NodeJS.Timeout | null = null;
  const timers = new Set<NodeJS.Timeout>();
  const waiting: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let active = 0;

  /** One attempt of one execution, if this process wins the claim. */
  async function execute(executionId: string): Promise<void> {
    const claimed: ClaimedExecution | null = await executions().claim(executionId, setting('leaseMs'));
    if (!claimed) return;
    const outcome = await attempt(claimed);
    let recorded = false;
    if (outcome.ok) {
      recorded = await executions().finish(claimed, { status: 'success', output: outcome.output });
    } else if (outcome.failure.retryable && claimed.attempts < claimed.max_attempts && mode !== 'stopped') {
      const delay = retryDelayMs(setting('retryBaseMs'), claimed.attempts);
      const { code, message } = outcome.failure;
      if (await executions().retryLater(claimed, { code, message }, new Date(Date.now() + delay))) {
        await dispatch(executionId, { delayMs: delay, jobId: `${executionId}-retry-${claimed.attempts}` });
      }
      return;
    } else {
      const { code, message } = outcome.failure;
      recorded = await executions().finish(claimed, { status: 'failed', error: { code, message } });
    }
    finished.emit(executionId);
    if (recorded && claimed.callback_status === 'pending') {
      await dispatchCallback(executionId).catch((error) => strapi.log.warn(`triggers: could not dispatch the callback of ${executionId}: ${error?.message ?? error}`));
    }
  }

  /** One attempt at an execution's callback; schedules the next one when it fails. */
  async function announce(executionId: string): Promise<void> {
    const result = await callbacks().deliver(executionId);
    if (result.outcome === 'retry' && mode !== 'stopped') {
      await dispatchCallback(executionId, { delayMs: result.retryInMs, jobId: `${executionId}-callback-${result.attempts}` });
    }
  }

  function pumpCallbacks() {
    while (mode === 'inline' && waitingCallbacks.length && activeCallbacks < setting('callbackConcurrency')) {
      const id = waitingCallbacks.shift()!;
      activeCallbacks += 1;
      const work = announce(id)
        .catch((error) => {
          strapi.log.warn(`triggers: the callback of ${id} failed: ${error?.message ?? error}`);
        })
        .finally(() => {
          activeCallbacks -= 1;
          pumpCallbacks();
        });
      track(work);
    }
  }

  /** Asks for an attempt at an execution's callback, now or after a delay. */
  async function dispatchCallback(executionId: string, options: { delayMs?: number; jobId?: string } = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    if (mode === 'queue' && callbackQueue) {
      await withDeadline(callbackQueue.add('callback', { executionId }, { jobId: options.jobId ?? `${executionId}-callback`, delay: delayMs || undefined }));
      return;
    }
    if (mode !== 'inline') return;
    const enqueue = () => {
      waitingCallbacks.push(executionId);
      pumpCallbacks();
    };
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        enqueue();
      }, delayMs);
      timers.add(timer);
      return;
    }
    enqueue();
  }

  /** Never hold a caller on an unreachable Redis: what is recorded is dispatched by the sweep later. */
  async function withDeadline<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const unreachable = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the queue did not take the job within ${QUEUE_ADD_TIMEOUT_MS} ms`)), QUEUE_ADD_TIMEOUT_MS);
    });
    try {
      return await Promise.race([work, unreachable]);
    } finally {
      clearTimeout(timer);
    }
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
      // The execution is recorded: if the queue is unreachable, the sweep dispatches it later.
      await withDeadline(queue.add('run', { executionId }, { jobId: options.jobId ?? executionId, delay: delayMs || undefined }));
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

  /**
   * Re-dispatches executions and callbacks whose process died (or whose dispatch was lost),
   * forgets webhook ids and idempotency keys past their window, and deletes executions past
   * the retention period.
   */
  async function sweep(): Promise<number> {
    const stranded = await executions().stranded(setting('leaseMs'));
    for (const { id, attempts } of stranded) await dispatch(id, { jobId: `${id}-sweep-${attempts}` });
    // A grace period, so a callback just scheduled by its own process is left to it.
    const late = await callbacks().due(Math.min(setting('leaseMs'), 30_000));
    for (const { id, attempts } of late) await dispatchCallback(id, { jobId: `${id}-callback-sweep-${attempts}` });
    await executions().purgeDeliveries();
    await executions().prune(setting('retentionDays'));
    return stranded.length + late.length;
  }

  return {
    mode: () => mode,

    async start() {
      const redisUrl = appRedis(strapi).url();
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
        worker = new Worker(name, async (job) => execute(job.data.executionId), { connection, concurrency: setting('concurrency'), autorun: false });
        worker.on('error', (error) => strapi.log.warn(`triggers: queue worker: ${error.message}`));
        queue.on('error', (error) => strapi.log.warn(`triggers: queue: ${error.message}`));
        callbackQueue = new Queue(`${name}-callbacks`, {
          connection,
          defaultJobOptions: { removeOnComplete: true, removeOnFail: 1000, attempts: 5, backoff: { type: 'exponential', delay: 1000 } },
        });
        callbackWorker = new Worker(`${name}-callbacks`, async (job) => announce(job.data.executionId), {
          connection,
          concurrency: setting('callbackConcurrency'),
          autorun: false,
        });
        callbackWorker.on('error', (error) => strapi.log.warn(`triggers: callback worker: ${error.message}`));
        callbackQueue.on('error', (error) => strapi.log.warn(`triggers: callback queue: ${error.message}`));
        mode = 'queue';
      } else {
        mode = 'inline';
      }
      // Plugins and the app register their actions in their register or bootstrap, some after
      // this one: a process that took jobs before Strapi finished loading would fail runs of
      // actions it does not know yet. So work starts once loading is over.
      const startWork = () => {
        loadedTimer = null;
        if (mode === 'stopped') return;
        if (!strapi.isLoaded) {
          loadedTimer = setTimeout(startWork, LOADED_POLL_MS);
          return;
        }
        for (const w of [worker, callbackWorker]) {
          w?.run().catch((error) => strapi.log.warn(`triggers: queue worker stopped: ${error?.message ?? error}`));
        }
        const interval = setting('sweepIntervalMs');
        if (interval > 0) {
          sweepTimer = setInterval(() => {
            sweep().catch((error) => strapi.log.warn(`triggers: sweep failed: ${error?.message ?? error}`));
          }, interval);
          sweepTimer.unref();
        }
      };
      startWork();
    },

    async stop() {
      const wasQueue = mode === 'queue';
      mode = 'stopped';
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      if (loadedTimer) clearTimeout(loadedTimer);
      loadedTimer = null;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      waiting.length = 0;
      waitingCallbacks.length = 0;
      if (wasQueue) {
        await Promise.all([worker?.close().catch(() => {}), callbackWorker?.close().catch(() => {})]);
        await Promise.all([queue?.close().catch(() => {}), callbackQueue?.close().catch(() => {})]);
        worker = null;
        queue = null;
        callbackWorker = null;
        callbackQueue = null;
      }
      // Let running attempts record their outcome; one cut off is re-run after its lease.
      await Promise.race([Promise.allSettled([...inFlight]), sleep(STOP_GRACE_MS)]);
    },

    dispatch,
    dispatchCallback,
    execute,
    announce,
    sweep,

    /** A new execution of the same workflow with the same input (POST .../executions/{eid}/replay). */
    async replay(instanceId: string, executionId: string) {
      const source = await executions().source(instanceId, executionId);
      if (!source) {
        throw notFound(`No execution with id ${executionId} in this process instance.`, `Call GET /api/process-instances/${instanceId}/executions.`);
      }
      const workflow = await getService(strapi, 'workflows').findForTrigger(instanceId, source.workflowId);
      if (!workflow) {
        throw notFound(`The workflow ${source.workflowId} of this execution no longer exists.`, `Call GET /api/process-instances/${instanceId}/workflows.`);
      }
      // As for a trigger: a disabled workflow runs nothing.
      if (!workflow.enabled) {
        throw notFound(`The workflow ${source.workflowId} is disabled.`, `Enable it with PATCH /api/process-instances/${instanceId}/workflows/${source.workflowId} {"enabled": true}.`);
      }
      const maxAttempts = actions().maxAttempts(workflow.action, JSON.parse(workflow.config));
      const created = await executions().create(workflow, source.input, maxAttempts, { replayOf: executionId, startedWith: 'replay' });
      await dispatch(created.executionId).catch((error) => strapi.log.warn(`triggers: could not dispatch ${created.executionId}: ${error?.message ?? error}`));
      return {
        executionId: created.executionId,
        status: created.status,
        statusUrl: `${publicUrl(strapi)}/status/${instanceId}/${created.executionId}`,
        replayOf: executionId,
      };
    },

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
