/**
 * How fast one document connection may send (issue 32, finding 4): a token bucket of
 * `messagesPerSecond`, holding at most `messageBurst`. A person typing sends a few messages a
 * second (an update per keystroke, an awareness change per caret move); 20,000 one-character
 * updates in 2 s made Hocuspocus merge them all in one `Y.mergeUpdates` and stalled the
 * process for seconds. Past the bucket, the connection is told why and closed.
 *
 * Hocuspocus handles a connection's queued messages in one loop of promise continuations, which
 * never lets the event loop take other sockets' or HTTP requests' data until the queue is
 * empty: the hook also yields to it (setImmediate) once a connection has held it for
 * `YIELD_MS`, so a burst delays others by that much at a time, not by the whole burst.
 */
import type { Connection, Extension, beforeHandleMessagePayload } from '@hocuspocus/server';
import type { LiveLimits } from './limit-settings';
import { refusal } from './ports';

/** Close code of a connection that sent too fast. */
export const RATE_CLOSE_CODE = 4429;

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.at = now();
  }

  /** Takes one token; false when there is none. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** How long one connection's messages may hold the event loop before the next waits a turn. */
export const YIELD_MS = 10;

export class RateLimit implements Extension {
  /** First among the message hooks: a flood is cut before anything decodes it. */
  priority = 300;
  private readonly buckets = new WeakMap<Connection, TokenBucket>();
  private readonly turns = new WeakMap<Connection, number>();

  constructor(private readonly limits: Pick<LiveLimits, 'messagesPerSecond' | 'messageBurst'>) {}

  async beforeHandleMessage({ connection }: beforeHandleMessagePayload) {
    let bucket = this.buckets.get(connection);
    if (!bucket) {
      bucket = new TokenBucket(this.limits.messagesPerSecond, this.limits.messageBurst);
      this.buckets.set(connection, bucket);
    }
    if (bucket.take()) {
      const now = performance.now();
      const since = this.turns.get(connection);
      if (since === undefined) this.turns.set(connection, now);
      else if (now - since >= YIELD_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        this.turns.set(connection, performance.now());
      }
      return;
    }
    const reason = `Too many changes at once (more than ${this.limits.messagesPerSecond} a second): the connection was closed and the last ones were not saved. Reload the article.`;
    connection.sendStateless(JSON.stringify({ type: 'refused', reason }));
    throw refusal(reason, RATE_CLOSE_CODE);
  }
}
