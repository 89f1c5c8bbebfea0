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
    async close() {
      if (client) await client.quit().catch(() => client?.disconnect());
      client = null;
    },
  };
};
