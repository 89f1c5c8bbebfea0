/**
 * How fast one document connection may send (issue 32, finding 4): a token bucket of
 * `messagesPerSecond`, holding at most `messageBurst`. A person typing sends a few messages a
 * second (an update per keystroke, an awareness change per caret move); 20,000 one-character
 * updates in 2 s made Hocuspocus merge them all in one `Y.mergeUpdates` and stalled the
 * process for seconds. Past the bucket, the connection is told why and closed.
 */
import type { Connection, Extension, beforeHandleMessagePayload } from '@hocuspocus/server';
import type { LiveLimits } from './limits';
import { liveRefusal } from './limits';

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

export class RateLimit implements Extension {
  /** First among the message hooks: a flood is cut before anything decodes it. */
  priority = 300;
  private readonly buckets = new WeakMap<Connection, TokenBucket>();

  constructor(private readonly limits: Pick<LiveLimits, 'messagesPerSecond' | 'messageBurst'>) {}

  async beforeHandleMessage({ connection }: beforeHandleMessagePayload) {
    let bucket = this.buckets.get(connection);
    if (!bucket) {
      bucket = new TokenBucket(this.limits.messagesPerSecond, this.limits.messageBurst);
      this.buckets.set(connection, bucket);
    }
    if (bucket.take()) return;
    const reason = `Too many changes at once (more than ${this.limits.messagesPerSecond} a second): the connection was closed and the last ones were not saved. Reload the article.`;
    connection.sendStateless(JSON.stringify({ type: 'refused', reason }));
    throw liveRefusal(reason, RATE_CLOSE_CODE);
  }
}
