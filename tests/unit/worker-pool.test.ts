/**
 * kernel/worker-pool: a fixed number of threads, a bounded queue, a deadline and a heap cap per
 * task; a thread past a limit is replaced. Tasks come from tests/fixtures/pool-tasks.js (which
 * compiles kernel/worker-task.ts itself: the fast tier runs before `npm run compile`).
 */
import path from 'node:path';
import { createWorkerPool, PoolBusyError, TaskLimitError, type WorkerPool, type WorkerPoolOptions } from '../../src/kernel/worker-pool';
import { serializeError, workerTask } from '../../src/kernel/worker-task';

const filename = path.join(__dirname, '..', 'fixtures', 'pool-tasks.js');
const pools: WorkerPool[] = [];
const pool = (options: Partial<WorkerPoolOptions> = {}) => {
  const created = createWorkerPool({ filename, threads: 1, maxQueue: 4, timeoutMs: 5_000, maxMemoryMb: 64, ...options });
  pools.push(created);
  return created;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

describe('worker pool', () => {
  it('runs tasks on its threads, or on the calling thread when asked to', async () => {
    const p = pool({ threads: 2 });
    expect(await p.run('echo', { a: [1, 'two'] })).toEqual({ a: [1, 'two'] });
    expect(await p.run('threadId', null)).toBeGreaterThan(0);
    expect(await p.run('threadId', null, { inline: true })).toBe(0);
    expect(p.stats()).toMatchObject({ threads: 2, running: 0, queued: 0, completed: 2, stopped: 0, refused: 0 });
  });

  it('stops a task at its deadline, replaces its thread and keeps serving', async () => {
    const p = pool({ timeoutMs: 300 });
    const before = await p.run<number>('threadId', null);
    const error = (await rejection(p.run('spin', -1))) as TaskLimitError;
    expect(error).toBeInstanceOf(TaskLimitError);
    expect({ limit: error.limit, message: error.message }).toEqual({ limit: 'timeout', message: 'The task did not finish within 300 ms.' });
    const after = await p.run<number>('threadId', null);
    expect(after).not.toBe(before);
    expect(await p.run('spin', 10, { timeoutMs: 2_000 })).toBe(10);
    expect(p.stats().stopped).toBe(1);
  });

  it("counts the deadline from when a thread starts the task, not the thread's start-up", async () => {
    const p = pool({ filename: path.join(__dirname, '..', 'fixtures', 'slow-start-tasks.js'), timeoutMs: 300 });
    expect(await p.run('echo', 'after a slow start')).toBe('after a slow start');
    expect(((await rejection(p.run('spin', -1))) as TaskLimitError).limit).toBe('timeout');
    // The replacement thread loads slowly too: its first task is still served.
    expect(await p.run('echo', 'again')).toBe('again');
  });

  it('stops a task past its heap cap and keeps serving', async () => {
    const p = pool({ maxMemoryMb: 32 });
    const error = (await rejection(p.run('hog', null))) as TaskLimitError;
    expect({ limit: error.limit, message: error.message }).toEqual({ limit: 'memory', message: 'The task needed more than 32 MB of memory.' });
    expect(await p.run('echo', 'still here')).toBe('still here');
  });

  it('tells a stack overflow apart, and rebuilds the errors tasks throw', async () => {
    const revived: unknown[] = [];
    const p = pool({ reviveError: (e) => (revived.push(e), new Error(`revived: ${e.message}`)) });
    expect(((await rejection(p.run('deep', null))) as TaskLimitError).limit).toBe('too-deep');
    expect(((await rejection(p.run('fail', null))) as Error).message).toBe('revived: Not like this.');
    expect(revived).toEqual([{ name: 'ApiError', message: 'Not like this.', tooDeep: false, code: 'invalid-argument', status: 400, nextAction: 'Try that.' }]);
  });

  it('refuses at once when every thread is busy and the queue is full', async () => {
    const p = pool({ threads: 1, maxQueue: 1 });
    const first = p.run('spin', 400);
    const second = p.run('spin', 10);
    const third = (await rejection(p.run('echo', 3))) as PoolBusyError;
    expect(third).toBeInstanceOf(PoolBusyError);
    expect(third.retryAfterSec).toBeGreaterThanOrEqual(1);
    expect(p.stats()).toMatchObject({ running: 1, queued: 1, refused: 1 });
    expect(await Promise.all([first, second])).toEqual([400, 10]);
    expect(await p.run('echo', 4)).toBe(4);
  });

  it('refuses a task that waited for a thread longer than the queue allows', async () => {
    const p = pool({ threads: 1, maxQueue: 4, queueTimeoutMs: 100 });
    const busy = p.run('spin', 600);
    expect(await rejection(p.run('echo', 'late'))).toBeInstanceOf(PoolBusyError);
    expect(await busy).toBe(600);
  });

  it('rejects what waits when closed, and runs nothing after', async () => {
    const p = pool({ threads: 1, maxQueue: 4 });
    const running = p.run('spin', 300);
    const waiting = p.run('echo', 'never');
    await p.close();
    expect(((await rejection(waiting)) as Error).message).toBe('The worker pool is closed.');
    await running.catch(() => undefined); // piscina may let it finish or end it
    expect(((await rejection(p.run('echo', 1))) as Error).message).toBe('The worker pool is closed.');
  });
});

describe('worker tasks', () => {
  it('return values and errors as plain data, keeping an API error code, status and next action', async () => {
    const apiError = Object.assign(new Error('Bad.'), { name: 'ApiError', code: 'invalid-argument', status: 400, nextAction: 'Fix it.', headers: {} });
    expect(await workerTask((x: number) => x * 2)({ input: 21 })).toEqual({ ok: true, value: 42 });
    expect(await workerTask(() => {
      throw apiError;
    })({ input: null })).toEqual({ ok: false, error: { name: 'ApiError', message: 'Bad.', tooDeep: false, code: 'invalid-argument', status: 400, nextAction: 'Fix it.', headers: {} } });
    const overflow = (() => {
      const down = (n: number): number => down(n + 1) + 1;
      try {
        down(0);
      } catch (error) {
        return error;
      }
    })();
    expect(serializeError(overflow)).toMatchObject({ name: 'RangeError', tooDeep: true });
    expect(serializeError('text')).toEqual({ name: 'Error', message: 'text', tooDeep: false });
  });
});
