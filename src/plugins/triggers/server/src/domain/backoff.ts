/** Delay before retry number `attempt` (1 = the first retry): base, 2x base, 4x base..., at most 5 minutes. */
export function retryDelayMs(baseMs: number, attempt: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 5 * 60_000);
}

/**
 * Delay before callback attempt `attempt + 1`: base, 2x, 4x... (at most 6 hours), each spread by
 * ±20% (`random` in [0, 1)) so receivers that come back are not hit by every sender at once.
 */
export function callbackDelayMs(baseMs: number, attempt: number, random: number = Math.random()): number {
  const nominal = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 6 * 3_600_000);
  return Math.round(nominal * (0.8 + 0.4 * random));
}
