import type { Core } from '@strapi/strapi';
import { appRedis } from '#kernel/redis';

/**
 * The app's Redis (kernel/redis.ts: REDIS_URL, REDIS_KEY_PREFIX), as this plugin's services
 * reach it. Callers fall back to in-process state when `client()` is null.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => appRedis(strapi);
