/**
 * Which process stores a live document (several processes, REDIS_URL): one Redis key per
 * document, `SET NX PX` with a token of this process, renewed while the document is open
 * here. Only the holder stores the document and merges article events into it; the other
 * processes relay editors' updates (Hocuspocus' Redis extension) and take over when the key
 * expires (the holder died) or is released (its last editor left).
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

/** How long a holder that stops renewing (killed) keeps the document: the takeover delay. */
export const OWNER_TTL_MS = 5_000;
/** How often holders renew and the others try to take over. */
export const OWNER_TICK_MS = 1_000;

const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export interface DocumentOwnership {
  /** Takes the document if nobody holds it (true), or confirms and renews this process's hold. */
  claim(name: string): Promise<boolean>;
  /** Confirms and renews this process's hold; never takes a document (taking over is the tick's, with `onTakeover`). */
  confirm(name: string): Promise<boolean>;
  /** True while this process holds the document (as of its last claim or renewal). */
  holds(name: string): boolean;
  /** Gives the document up (after its last store here). */
  release(name: string): Promise<void>;
  close(): Promise<void>;
}

export function documentOwnership(options: {
  url: string;
  prefix: string;
  /** Documents loaded here: held ones are renewed, the others taken over when free. */
  candidates: () => Iterable<string>;
  /** Whether a document is open (or being opened) here: a held one that is not is released. */
  inUse: (name: string) => boolean;
  /** Called when this process took over a document it has open (its holder is gone). */
  onTakeover: (name: string) => void;
  log: { warn: (message: string) => void };
}): DocumentOwnership {
  const token = `${process.pid}:${randomUUID()}`;
  const client = new Redis(options.url, { maxRetriesPerRequest: 1 });
  client.on('error', (error) => options.log.warn(`live ownership: redis: ${error.message}`));
  const held = new Set<string>();
  const key = (name: string) => `${options.prefix}live:owner:${name}`;

  async function claim(name: string): Promise<boolean> {
    try {
      if (held.has(name)) {
        if (Number(await client.eval(RENEW, 1, key(name), token, OWNER_TTL_MS)) === 1) return true;
        held.delete(name);
        options.log.warn(`live ${name}: another process stores it now (this one missed its renewal)`);
        return false;
      }
      if ((await client.set(key(name), token, 'PX', OWNER_TTL_MS, 'NX')) !== 'OK') return false;
      held.add(name);
      return true;
    } catch (error) {
      // Redis unreachable: not the holder (another process may be); its editors are relayed when it returns.
      options.log.warn(`live ${name}: cannot claim: ${(error as Error).message}`);
      held.delete(name);
      return false;
    }
  }

  let ticking = false;
  const timer = setInterval(async () => {
    if (ticking) return;
    ticking = true;
    try {
      for (const name of [...options.candidates()]) {
        const had = held.has(name);
        if ((await claim(name)) && !had) options.onTakeover(name);
      }
      for (const name of [...held]) if (!options.inUse(name)) await release(name);
    } finally {
      ticking = false;
    }
  }, OWNER_TICK_MS);
  timer.unref();

  async function release(name: string): Promise<void> {
    if (!held.delete(name)) return;
    await client.eval(RELEASE, 1, key(name), token).catch(() => undefined);
  }

  return {
    claim,
    confirm: async (name) => held.has(name) && (await claim(name)),
    holds: (name) => held.has(name),
    release,
    async close() {
      clearInterval(timer);
      for (const name of [...held]) await release(name);
      await client.quit().catch(() => client.disconnect());
    },
  };
}
