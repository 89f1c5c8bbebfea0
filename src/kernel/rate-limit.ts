/**
 * Named rate limits, and the IETF httpapi rate-limit headers that tell callers where they stand.
 *
 * Counters live in Redis when a client is given (so every process shares them) and in memory
 * otherwise. Every consume or check leaves the limiter's real state on the request being served
 * (Strapi's request context): the answer carries
 *
 *   RateLimit-Policy: "sign-in";q=10;w=60        the policy: quota q per window of w seconds
 *   RateLimit: "sign-in";r=7;t=41                what is left of it (r) and seconds until reset (t)
 *
 * (draft-ietf-httpapi-ratelimit-headers, structured-field lists: a request that passed two
 * limiters lists both), and a 429 adds Retry-After.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type Redis from 'ioredis';
import type { Core } from '@strapi/strapi';
import { rateLimited } from './errors';
import { appRedis } from './redis';

export interface LimitSpec {
  /** Requests allowed per window. */
  points: number;
  /** Window length in seconds. */
  durationSec: number;
  /** Once exhausted, refuse for this long (default: until the window ends). */
  blockDurationSec?: number;
}

/** Where one key of one policy stands. */
export interface LimitState {
  policy: string;
  /** The quota per window. */
  quota: number;
  windowSec: number;
  remaining: number;
  /** Seconds until the quota is whole again (or the block ends). */
  resetSec: number;
}

export interface RateLimitsOptions {
  /** The shared store, or null for in-process counters. */
  redis: () => Redis | null;
  /** Key namespace in Redis. */
  prefix: () => string;
  /** The request being served (its answer gets the headers), if any. */
  current: () => { set(name: string, value: string): void; state: Record<string, unknown> } | undefined;
}

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/** The two header values for the states a request met (in the order it met them). */
export function rateLimitHeaders(states: readonly LimitState[]): Record<string, string> {
  return {
    'RateLimit-Policy': states.map((s) => `"${s.policy}";q=${s.quota};w=${s.windowSec}`).join(', '),
    RateLimit: states.map((s) => `"${s.policy}";r=${s.remaining};t=${s.resetSec}`).join(', '),
  };
}

function stateOf(policy: string, spec: LimitSpec, res: RateLimiterRes | null): LimitState {
  const consumed = res?.consumedPoints ?? 0;
  return {
    policy,
    quota: spec.points,
    windowSec: spec.durationSec,
    remaining: Math.max(0, spec.points - consumed),
    resetSec: res ? seconds(res.msBeforeNext) : 0,
  };
}

export function createRateLimits(options: RateLimitsOptions) {
  const limiters = new Map<string, RateLimiterAbstract>();

  function limiter(name: string, spec: LimitSpec): RateLimiterAbstract {
    const id = `${name}:${spec.points}:${spec.durationSec}:${spec.blockDurationSec ?? 0}`;
    let found = limiters.get(id);
    if (!found) {
      const settings = { keyPrefix: `${options.prefix()}rl:${name}`, points: spec.points, duration: spec.durationSec, blockDuration: spec.blockDurationSec ?? 0 };
      const redis = options.redis();
      // If Redis fails, each process counts on its own for a while rather than refusing everyone.
      found = redis ? new RateLimiterRedis({ ...settings, storeClient: redis, insuranceLimiter: new RateLimiterMemory(settings) }) : new RateLimiterMemory(settings);
      limiters.set(id, found);
    }
    return found;
  }

  /** Leaves the state on the current answer, beside those of other limits it met. */
  function report(state: LimitState): Record<string, string> {
    const ctx = options.current();
    const seen: LimitState[] = (ctx?.state.rateLimits as LimitState[] | undefined) ?? [];
    const at = seen.findIndex((s) => s.policy === state.policy);
    const all = at < 0 ? [...seen, state] : seen.map((s, i) => (i === at ? state : s));
    const headers = rateLimitHeaders(all);
    if (ctx) {
      ctx.state.rateLimits = all;
      for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
    }
    return headers;
  }

  const retryAfter = (res: RateLimiterRes) => Math.max(1, seconds(res.msBeforeNext));

  return {
    /** Counts one request (or `cost` points) for `key`; throws 429 `rate-limited` (Retry-After) when over. */
    async consume(name: string, key: string, spec: LimitSpec, cost = 1, message?: string): Promise<LimitState> {
      try {
        const state = stateOf(name, spec, await limiter(name, spec).consume(key, cost));
        report(state);
        return state;
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const headers = report(stateOf(name, spec, error));
        const refusal = rateLimited(retryAfter(error), message);
        Object.assign(refusal.headers, headers);
        throw refusal;
      }
    },

    /** Seconds until `key` may try again, or 0 when it is not over the limit (counts nothing). */
    async blockedFor(name: string, key: string, spec: LimitSpec): Promise<number> {
      const res = await limiter(name, spec).get(key);
      report(stateOf(name, spec, res));
      return res && res.consumedPoints > spec.points ? retryAfter(res) : 0;
    },

    /** Forgets `key` (after a successful login, say). */
    async reset(name: string, key: string, spec: LimitSpec): Promise<void> {
      await limiter(name, spec).delete(key);
      report(stateOf(name, spec, null));
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

/** The headers of a rate-limited route's answers, for its declaration (OpenAPI). */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': 'The limit of this route: "<name>";q=<requests>;w=<seconds> (IETF httpapi rate-limit headers).',
  RateLimit: 'What is left: "<name>";r=<requests remaining>;t=<seconds until the quota is whole again>.',
} as const;

const limitsByApp = new WeakMap<object, RateLimits>();

/**
 * The app's named rate limits: shared across processes through the app's Redis (REDIS_URL),
 * in memory otherwise; the headers go on the request being served. Every plugin counts here,
 * so two doors to one thing (a webhook and a skill call) can share a counter by its name.
 */
export function appRateLimits(strapi: Core.Strapi): RateLimits {
  let limits = limitsByApp.get(strapi);
  if (!limits) {
    const redis = appRedis(strapi);
    limits = createRateLimits({ redis: () => redis.client(), prefix: () => redis.prefix(), current: () => strapi.requestContext?.get() as never });
    limitsByApp.set(strapi, limits);
  }
  return limits;
}
