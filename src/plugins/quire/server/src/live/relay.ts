/**
 * Several processes (REDIS_URL): Hocuspocus' Redis extension relays every update and awareness
 * change between the processes that have a document open, and a process opening a document
 * another has open asks it for its state first.
 *
 * Its store lock is left out: the extension takes a Redis lock around each store and, when
 * another process holds it, skips this process's store hooks (SkipFurtherHooksError), so that
 * store never runs and its typing waits for the next keystroke. It has no option to turn the
 * lock off, and our stores need none: each merges into the stored state under the article's
 * database lock (services/live-state), so two processes storing the same typing write it once.
 * So the relay is the extension's own hooks, all but onStoreDocument and afterStoreDocument.
 */
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import type { Extension } from '@hocuspocus/server';
import IORedis from 'ioredis';
import type { LiveLog } from './ports';

/** The Redis extension's hooks that relay (everything but its store lock). */
const RELAY_HOOKS = ['onConfigure', 'afterLoadDocument', 'onAwarenessUpdate', 'onChange', 'beforeUnloadDocument', 'afterUnloadDocument', 'beforeBroadcastStateless', 'onDestroy'] as const;

export function redisRelay(options: { url: string; prefix: string; log: LiveLog }): Extension {
  const extension = new RedisExtension({
    prefix: `${options.prefix}live`,
    createClient: () => {
      const client = new IORedis(options.url, { maxRetriesPerRequest: 1 });
      client.on('error', (error) => options.log.warn(`live relay: redis: ${error.message}`));
      return client as any;
    },
  });
  const relay: Extension = { extensionName: 'quire-redis-relay', priority: extension.priority };
  for (const hook of RELAY_HOOKS) (relay as any)[hook] = (payload: any) => (extension as any)[hook](payload);
  return relay;
}
