/**
 * The app's Redis: one shared client when REDIS_URL is set (rate limits, and whatever else
 * every process of a deployment must share), none otherwise; callers then keep their state in
 * process. App-level, not a plugin's: the app's config (config/server.ts `redis`) reads the
 * settings declared here, with the app's default key namespace.
 */
import type { Core } from '@strapi/strapi';
import Redis from 'ioredis';
import { text, url } from './config';

/** The settings of the app's Redis, with the app's default namespace of its keys. */
export const redisSettings = (defaultKeyPrefix: string) => ({
  /** Redis for shared rate limits, queues and events; unset keeps them in-process. */
  url: url('REDIS_URL', { protocols: ['redis', 'rediss'], optional: true }),
  /** Namespace of our Redis keys, for deployments or test runs sharing one Redis. */
  keyPrefix: text('REDIS_KEY_PREFIX', { default: defaultKeyPrefix }),
});

export interface RedisConfig {
  readonly url?: string;
  readonly keyPrefix: string;
}

/** The app's Redis settings as read at boot (config/server.ts). */
export const redisConfig = (strapi: Core.Strapi): RedisConfig => (strapi.config.get('server.redis') as RedisConfig | undefined) ?? { keyPrefix: '' };

export interface AppRedis {
  /** Where Redis is (REDIS_URL), or null. */
  url(): string | null;
  /** Namespace of our Redis keys (REDIS_KEY_PREFIX). */
  prefix(): string;
  /** The shared client, or null without REDIS_URL. */
  client(): Redis | null;
  /**
   * Connects now (at boot) rather than on the first limited request: the client queues no
   * command before it is ready, so a request in that window would count in process memory.
   * Waits at most `timeoutMs`; a Redis that is down is logged and retried by the client.
   */
  connect(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const byApp = new WeakMap<object, AppRedis>();

/** The app's one Redis (made on first use). */
export function appRedis(strapi: Core.Strapi): AppRedis {
  let found = byApp.get(strapi);
  if (found) return found;
  let client: Redis | null = null;
  found = {
    url: () => redisConfig(strapi).url ?? null,
    prefix: () => redisConfig(strapi).keyPrefix,
    client() {
      const where = this.url();
      if (!where) return null;
      if (!client) {
        client = new Redis(where, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
        client.on('error', (error) => strapi.log.warn(`redis: ${error.message}`));
      }
      return client;
    },
    async connect(timeoutMs = 2_000) {
      const redis = this.client();
      if (!redis || redis.status === 'ready') return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => redis.once('ready', () => resolve())),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    },
    async close() {
      if (client) await client.quit().catch(() => client?.disconnect());
      client = null;
    },
  };
  byApp.set(strapi, found);
  return found;
}
