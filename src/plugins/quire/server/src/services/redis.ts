import type { Core } from '@strapi/strapi';
import Redis from 'ioredis';
import { quireConfig } from '../config';

/**
 * One shared Redis client when REDIS_URL is set (rate limits shared across processes),
 * none otherwise. Callers fall back to in-process state when this returns null.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let client: Redis | null = null;
  return {
    url(): string | null {
      return quireConfig(strapi).redisUrl ?? null;
    },
    /** Namespace of our Redis keys (REDIS_KEY_PREFIX, default "quire:"), for deployments or test runs sharing one Redis. */
    prefix(): string {
      return quireConfig(strapi).redisKeyPrefix;
    },
    client(): Redis | null {
      const url = this.url();
      if (!url) return null;
      if (!client) {
        client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
        client.on('error', (error) => strapi.log.warn(`redis: ${error.message}`));
      }
      return client;
    },
    /**
     * Connects now (at boot) rather than on the first limited request: the client queues no
     * command before it is ready, so a request in that window would count in process memory.
     * Waits at most `timeoutMs`; a Redis that is down is logged and retried by the client.
     */
    async connect(timeoutMs = 2_000): Promise<void> {
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
};
