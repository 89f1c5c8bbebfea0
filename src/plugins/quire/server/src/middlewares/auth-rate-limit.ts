import type { Core } from '@strapi/strapi';
import { quireConfig } from '../config';
import { getService } from '../services/get-service';

/**
 * The rate limit of users-permissions' credential routes (sign-in, registration, password reset,
 * email confirmation, provider sign-in), counted by the kernel limiter rather than the plugin's
 * own koa2-ratelimit (switched off in config/plugins.ts): per client address and route,
 * AUTH_RATELIMIT_MAX requests per AUTH_RATELIMIT_INTERVAL_MS, in Redis when REDIS_URL is set, and
 * told in RateLimit-Policy / RateLimit headers like every other limit (CONTRACT §17). Past it,
 * 429 `rate-limited` in our envelope, with Retry-After.
 *
 * An app-level middleware (config/middlewares.ts) so it runs before the router: the plugin's
 * routes are its own and take no route middleware of ours.
 */
export const AUTH_POLICY = 'auth';

/** The routes users-permissions limited itself (its content-api routes with its rateLimit middleware). */
const LIMITED: ReadonlyArray<[method: string, path: RegExp]> = [
  ['POST', /^\/auth\/local$/],
  ['POST', /^\/auth\/local\/register$/],
  ['POST', /^\/auth\/forgot-password$/],
  ['POST', /^\/auth\/reset-password$/],
  ['POST', /^\/auth\/send-email-confirmation$/],
  ['POST', /^\/auth\/change-password$/],
  ['GET', /^\/connect\/.+$/],
];

/** The route `path` is, under the content API prefix, or null when it is none of LIMITED. */
export function limitedRoute(method: string, path: string, prefix = '/api'): string | null {
  // The router matches regardless of case and trailing slashes: so does the count, one bucket
  // for every spelling (`/api/Auth/Local/` must not be a way around the limit).
  const spelled = path.toLowerCase();
  if (!spelled.startsWith(prefix.toLowerCase() + '/')) return null;
  const route = spelled.slice(prefix.length).replace(/\/+$/, '');
  const hit = LIMITED.find(([m, pattern]) => m === method && pattern.test(route));
  // Each path its own bucket, as the plugin counted: a provider sign-in's start and its callback
  // (/connect/github, /connect/github/callback) are two.
  return hit ? route : null;
}

export default (_config: unknown, { strapi }: { strapi: Core.Strapi }) => {
  const prefix = () => (strapi.config.get('api.rest.prefix') as string | undefined) ?? '/api';
  return async (ctx, next) => {
    const config = quireConfig(strapi);
    if (!config.authRateLimitEnabled) return next();
    const route = limitedRoute(ctx.method, ctx.path, prefix());
    if (!route) return next();
    const spec = { points: config.authRateLimitMax, durationSec: Math.ceil(config.authRateLimitIntervalMs / 1000) };
    await getService(strapi, 'rateLimit')
      .consume(AUTH_POLICY, `${route}:${ctx.request.ip}`, spec, 1, 'Too many sign-in or account requests from this address.');
    return next();
  };
};
