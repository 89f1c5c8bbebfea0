/**
 * A bounded pool of worker threads for CPU-heavy work (parsing, converting, sanitising), so
 * that no request keeps the event loop busy: the main thread only hands inputs over and reads
 * results back.
 *
 * - A fixed number of threads (piscina keeps them and replaces the ones that die).
 * - A bounded queue of tasks waiting for a thread: past it, or past a wait of `queueTimeoutMs`,
 *   a task is refused at once with PoolBusyError (the caller answers 429 with Retry-After)
 *   instead of piling up memory and latency.
 * - A deadline per task, counted from when it starts running (not from a thread's start-up),
 *   and a heap cap per thread: a
 *   task past either ends with TaskLimitError and its thread is terminated and replaced, so a
 *   hostile input costs one thread for at most the deadline, never a hang.
 *
 * Tasks are named exports of one module (`filename`, a .js file), wrapped with `workerTask`
 * from kernel/worker-task.
 */
import Piscina from 'piscina';
import { TASK_STARTED, type SerializedError, type TaskEnvelope, type TaskOutcome } from './worker-task';

export interface WorkerPoolOptions {
  /** Absolute path of the compiled (.js) module whose exports are the tasks. */
  filename: string;
  /** Threads that run tasks. */
  threads: number;
  /** Tasks that may wait for a thread; more are refused with PoolBusyError. */
  maxQueue: number;
  /** Deadline of one task, from when a thread starts it (overridable per run). */
  timeoutMs: number;
  /** Old-generation heap of each thread, in MB. */
  maxMemoryMb: number;
  /** Longest wait for a thread before a queued task is refused as busy (default: timeoutMs). */
  queueTimeoutMs?: number;
  /** Rebuilds an error the task threw (its code, status... kept), e.g. as the API's error type. */
  reviveError?: (error: SerializedError) => Error;
}

/** The pool is full (all threads busy, the queue at its limit) or a task waited too long. */
export class PoolBusyError extends Error {
  readonly retryAfterSec: number;
  constructor(retryAfterSec: number) {
    super('All workers are busy.');
    this.name = 'PoolBusyError';
    this.retryAfterSec = retryAfterSec;
  }
}

export type TaskLimit = 'timeout' | 'memory' | 'too-deep';

/** A task went past its deadline or its thread's heap, or recursed past the stack. */
export class TaskLimitError extends Error {
  readonly limit: TaskLimit;
  readonly timeoutMs: number;
  readonly maxMemoryMb: number;
  constructor(limit: TaskLimit, timeoutMs: number, maxMemoryMb: number) {
    super(
      limit === 'timeout'
        ? `The task did not finish within ${timeoutMs} ms.`
        : limit === 'memory'
          ? `The task needed more than ${maxMemoryMb} MB of memory.`
          : 'The input is nested too deeply.',
    );
    this.name = 'TaskLimitError';
    this.limit = limit;
    this.timeoutMs = timeoutMs;
    this.maxMemoryMb = maxMemoryMb;
  }
}

export interface WorkerPoolStats {
  threads: number;
  running: number;
  queued: number;
  completed: number;
  /** Tasks ended by their deadline or their heap cap (their threads were replaced). */
  stopped: number;
  refused: number;
}

export interface WorkerPool {
  /**
   * Runs the task exported as `task` on `input`; see the error classes above. `inline` runs it
   * on the calling thread instead (for inputs known to be cheap), with the same results and
   * errors but no deadline.
   */
  run<T>(task: string, input: unknown, options?: { timeoutMs?: number; inline?: boolean }): Promise<T>;
  stats(): WorkerPoolStats;
  /** Rejects the tasks waiting for a thread, and terminates the threads. */
  close(): Promise<void>;
}

interface Waiter {
  grant: () => void;
  refuse: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** How long a thread may take to start a task it was given (loading its modules), beyond the deadline. */
const THREAD_START_ALLOWANCE_MS = 30_000;

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const { threads, maxQueue, maxMemoryMb } = options;
  const queueTimeoutMs = options.queueTimeoutMs ?? options.timeoutMs;
  let piscina: Piscina | undefined;
  let closed = false;
  let running = 0;
  const waiting: Waiter[] = [];
  const counts = { completed: 0, stopped: 0, refused: 0 };
  let local: Record<string, (envelope: TaskEnvelope<unknown>) => Promise<TaskOutcome<unknown>>> | undefined;
  // Tasks posted to a thread, by id: what to do when the thread says it started one.
  const onStart = new Map<number, () => void>();
  let nextTaskId = 0;
  // Recent run time, to say when a refused caller may retry.
  let averageRunMs = 100;

  // Threads start with the first task, not at boot: a process that never parses pays nothing.
  const pool = () => {
    if (!piscina) {
      piscina = new Piscina({
        filename: options.filename,
        minThreads: 1,
        maxThreads: threads,
        idleTimeout: 60_000,
        resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
      });
      piscina.on('message', (message: Record<string, unknown> | null) => {
        const id = message?.[TASK_STARTED];
        if (typeof id === 'number') onStart.get(id)?.();
      });
    }
    return piscina;
  };

  const retryAfter = () =>
    Math.min(60, Math.max(1, Math.ceil((averageRunMs * (waiting.length + running)) / threads / 1000)));

  function busy(): PoolBusyError {
    counts.refused += 1;
    return new PoolBusyError(retryAfter());
  }

  /** Waits for a free thread (or refuses at once when the queue is full). */
  function acquire(): Promise<void> {
    if (running < threads) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= maxQueue) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        refuse: reject,
        timer: setTimeout(() => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          reject(busy());
        }, queueTimeoutMs),
      };
      waiting.push(waiter);
    });
  }

  function release() {
    const next = waiting.shift();
    if (next) next.grant(); // the slot passes on: `running` stays the same
    else running -= 1;
  }

  async function runInWorker<T>(task: string, input: unknown, timeoutMs: number): Promise<TaskOutcome<T>> {
    await acquire();
    const started = performance.now();
    const taskId = nextTaskId++;
    const controller = new AbortController();
    let begun = false;
    // Until the thread starts the task (a replaced thread loads its modules first), a generous
    // allowance; from then on, the deadline.
    let timer = setTimeout(() => controller.abort(), timeoutMs + THREAD_START_ALLOWANCE_MS);
    onStart.set(taskId, () => {
      begun = true;
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), timeoutMs);
    });
    try {
      const envelope: TaskEnvelope<unknown> = { input, taskId };
      const outcome = (await pool().run(envelope, { name: task, signal: controller.signal })) as TaskOutcome<T>;
      counts.completed += 1;
      return outcome;
    } catch (error) {
      const e = error as { name?: string; code?: string };
      if (e?.name === 'AbortError' && !begun) throw new Error(`No worker thread started the task within ${timeoutMs + THREAD_START_ALLOWANCE_MS} ms.`);
      if (e?.name === 'AbortError') {
        counts.stopped += 1;
        throw new TaskLimitError('timeout', timeoutMs, maxMemoryMb);
      }
      if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        counts.stopped += 1;
        throw new TaskLimitError('memory', timeoutMs, maxMemoryMb);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      onStart.delete(taskId);
      averageRunMs = averageRunMs * 0.8 + (performance.now() - started) * 0.2;
      release();
    }
  }

  return {
    async run<T>(task: string, input: unknown, runOptions: { timeoutMs?: number; inline?: boolean } = {}): Promise<T> {
      const timeoutMs = runOptions.timeoutMs ?? options.timeoutMs;
      if (closed) throw new Error('The worker pool is closed.');
      let outcome: TaskOutcome<T>;
      if (runOptions.inline) {
        local ??= require(options.filename);
        outcome = (await local![task]({ input })) as TaskOutcome<T>;
      } else {
        outcome = await runInWorker<T>(task, input, timeoutMs);
      }
      if (outcome.ok) return outcome.value;
      if (outcome.error.tooDeep) throw new TaskLimitError('too-deep', timeoutMs, maxMemoryMb);
      if (options.reviveError) throw options.reviveError(outcome.error);
      throw Object.assign(new Error(outcome.error.message), { name: outcome.error.name });
    },

    stats() {
      return { threads, running, queued: waiting.length, ...counts };
    },

    async close() {
      closed = true;
      for (const waiter of waiting.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.refuse(new Error('The worker pool is closed.'));
      }
      const closing = piscina;
      piscina = undefined;
      await closing?.destroy();
    },
  };
}
