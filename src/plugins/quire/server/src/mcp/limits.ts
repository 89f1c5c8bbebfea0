/** How much one POST /api/mcp may ask for (its route declaration documents them; mcp/server.ts applies them). */

export { FIRST_VERSION_WITHOUT_BATCHES, MAX_BATCH_MESSAGES } from '../domain/mcp-limits';

/** How many messages of one batch run at once. */
export const BATCH_CONCURRENCY = 4;

/** Runs tasks with at most `limit` at once. */
export function limiter(limit: number) {
  let running = 0;
  const queue: Array<() => void> = [];
  return <T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const run = () => {
        running += 1;
        task()
          .then(resolve, reject)
          .finally(() => {
            running -= 1;
            queue.shift()?.();
          });
      };
      if (running < limit) run();
      else queue.push(run);
    });
}
