import type { Core } from '@strapi/strapi';
import { appRateLimits } from '#kernel/rate-limit';

export type { LimitSpec } from '#kernel/rate-limit';

/**
 * The app's named rate limits (kernel/rate-limit.ts appRateLimits), as this plugin's services
 * reach them: shared across processes through Redis when REDIS_URL is set, in memory otherwise.
 * Each use leaves RateLimit-Policy and RateLimit headers on the answer being served; `consume`
 * throws 429 `rate-limited` with Retry-After.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => appRateLimits(strapi);
