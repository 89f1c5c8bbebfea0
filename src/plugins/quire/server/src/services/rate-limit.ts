import type { Core } from '@strapi/strapi';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited } from '../domain/errors';

export interface LimitSpec {
  /** Requests allowed per window. */
  points: number;
  /** Window length in seconds. */
  durationSec: number;
  /** Once exhausted, refuse for this long (default: until the window ends). */
  blockDurationSec?: number;
}

/**
 * Named rate limits, shared across processes through Redis when REDIS_URL is set and kept in
 * memory otherwise. `consume` throws 429 `rate-limited` with Retry-After when a key is over.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const limiters = new Map<string, RateLimiterAbstract>();

  function limiter(name: string, spec: LimitSpec): RateLimiterAbstract {
    const id = `${name}:${spec.points}:${spec.durationSec}:${spec.blockDurationSec ?? 0}`;
    let found = limiters.get(id);
    if (!found) {
      const redisService = strapi.plugin('quire').service('redis');
      const options = {
        keyPrefix: `${redisService.prefix()}rl:${name}`,
        points: spec.points,
        duration: spec.durationSec,
        blockDuration: spec.blockDurationSec ?? 0,
      };
      const redis = redisService.client();
      found = redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      limiters.set(id, found);
    }
    return found;
  }

  const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

  return {
    /** Counts one request (or `cost` points) for `key`; throws 429 when over the limit. */
    async consume(name: string, key: string, spec: LimitSpec, cost = 1, message?: string): Promise<void> {
      try {
        await limiter(name, spec).consume(key, cost);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw rateLimited(retryAfter(error), message);
        throw error;
      }
    },

    /** Seconds until `key` may try again, or 0 when it is not over the limit. */
    async blockedFor(name: string, key: string, spec: LimitSpec): Promise<number> {
      const res = await limiter(name, spec).get(key);
      return res && res.consumedPoints > spec.points ? retryAfter(res) : 0;
    },

    /** Forgets `key` (after a successful login, say). */
    async reset(name: string, key: string, spec: LimitSpec): Promise<void> {
      await limiter(name, spec).delete(key);
    },
  };
};
