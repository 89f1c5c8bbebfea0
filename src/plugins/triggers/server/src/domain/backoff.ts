/** Delay before retry number `attempt` (1 = the first retry): base, 2x base, 4x base..., at most 5 minutes. */
export function retryDelayMs(baseMs: number, attempt: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 5 * 60_000);
}
