import type { Core } from '@strapi/strapi';
import { createRateLimits } from '../../../../../kernel/rate-limit';

export type { LimitSpec } from '../../../../../kernel/rate-limit';

/**
 * The app's named rate limits (kernel/rate-limit.ts): shared across processes through Redis
 * when REDIS_URL is set, in memory otherwise. Each use leaves RateLimit-Policy and RateLimit
 * headers on the answer being served; `consume` throws 429 `rate-limited` with Retry-After.
 * The triggers plugin uses this service too.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const redis = () => strapi.plugin('quire').service('redis');
  return createRateLimits({
    redis: () => redis().client(),
    prefix: () => redis().prefix(),
    current: () => strapi.requestContext?.get() as never,
  });
};
