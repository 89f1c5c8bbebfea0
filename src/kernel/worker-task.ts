/**
 * The worker side of the worker pool (kernel/worker-pool): a task is a function of one
 * structured-cloneable argument, exported by name from the pool's module and wrapped with
 * `workerTask`. Its result, or the error it throws, crosses back to the main thread as a plain
 * value, so an error keeps its code, status and next action (a thread boundary keeps only an
 * Error's message otherwise).
 */
import { parentPort } from 'node:worker_threads';

/** An error as it crosses the thread boundary. */
export interface SerializedError {
  name: string;
  message: string;
  /** The parsers recursed past the stack: the input nests too deeply. */
  tooDeep: boolean;
  /** Present for the API's own errors (ApiError): rebuilt as such by the pool's owner. */
  code?: string;
  status?: number;
  nextAction?: string;
  headers?: Record<string, string>;
}

export type TaskOutcome<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

export const isStackOverflow = (error: unknown) => error instanceof RangeError && /call stack/i.test(error.message);

export function serializeError(error: unknown): SerializedError {
  const e = error as { name?: unknown; message?: unknown; code?: unknown; status?: unknown; nextAction?: unknown; headers?: unknown };
  const out: SerializedError = {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(error),
    tooDeep: isStackOverflow(error),
  };
  if (typeof e?.code === 'string' && typeof e?.status === 'number') {
    out.code = e.code;
    out.status = e.status;
    if (typeof e.nextAction === 'string') out.nextAction = e.nextAction;
    if (e.headers && typeof e.headers === 'object') out.headers = e.headers as Record<string, string>;
  }
  return out;
}

/** What the pool sends a task: its input, and an id when it runs in a worker. */
export interface TaskEnvelope<I> {
  input: I;
  taskId?: number;
}

/** The key of the message a task posts to the pool when it starts, so that its deadline starts then. */
export const TASK_STARTED = 'quireTaskStarted';

/** Wraps a task for export from a pool module. */
export function workerTask<I, O>(fn: (input: I) => O | Promise<O>): (envelope: TaskEnvelope<I>) => Promise<TaskOutcome<O>> {
  return async ({ input, taskId }: TaskEnvelope<I>) => {
    // Not counted against the deadline: waiting for the thread, and the thread's start-up.
    if (taskId !== undefined) parentPort?.postMessage({ [TASK_STARTED]: taskId });
    try {
      return { ok: true, value: await fn(input) };
    } catch (error) {
      return { ok: false, error: serializeError(error) };
    }
  };
}
