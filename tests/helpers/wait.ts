/**
 * Waiting in tests, one way: on a condition with a deadline, never a fixed sleep (the machine
 * may be loaded; a sleep is either too short there or wasted time everywhere else). Where the
 * code has its own hook for "everything started has finished" (`settled()` of the event bus,
 * of the live channel), await that first and check once; poll only what has no such hook.
 */

export interface WaitOptions {
  /** How long to keep trying, in ms (10 s unless said). */
  timeout?: number;
  /** Pause between tries, in ms (25 unless said). */
  interval?: number;
  /** What is waited for, for the message when it does not come. */
  what?: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function poll<T>(attempt: () => Promise<{ done: true; value: T } | { done: false; error?: unknown }>, options: WaitOptions): Promise<T> {
  const { timeout = 10_000, interval = 25, what = 'condition' } = options;
  const deadline = Date.now() + timeout;
  for (;;) {
    const outcome = await attempt();
    if (outcome.done) return outcome.value;
    if (Date.now() > deadline) {
      const last = outcome.error instanceof Error ? `: ${outcome.error.message}` : '';
      throw new Error(`${what} not met within ${timeout} ms${last}`);
    }
    await pause(interval);
  }
}

/**
 * Tries `condition` until it returns a truthy value, and returns that value. A try that throws
 * counts as not yet (its error is named if the deadline passes).
 */
export function waitFor<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  return poll(async () => {
    try {
      const value = await condition();
      return value ? { done: true as const, value: value as NonNullable<T> } : { done: false as const };
    } catch (error) {
      return { done: false as const, error };
    }
  }, options);
}

/**
 * Runs `assertion` (Jest's `expect`s) until it passes; past the deadline its last failure is
 * thrown as it is, so the report shows the expected and received values.
 */
export async function eventually<T>(assertion: () => T | Promise<T>, options: WaitOptions = {}): Promise<T> {
  let lastError: unknown;
  try {
    return await poll(async () => {
      try {
        return { done: true as const, value: await assertion() };
      } catch (error) {
        lastError = error;
        return { done: false as const, error };
      }
    }, options);
  } catch (timedOut) {
    throw lastError ?? timedOut;
  }
}
