/** How much one POST /api/mcp may ask for (its route declaration documents them; mcp/server.ts applies them). */

/** JSON-RPC batches: the most messages one POST may carry (where the protocol has batches at all). */
export const MAX_BATCH_MESSAGES = 10;
/** How many messages of one batch run at once. */
export const BATCH_CONCURRENCY = 4;
/** The first protocol version without JSON-RPC batching (2025-03-26 had it; 2025-06-18 removed it). */
export const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';

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
