/**
 * The triggers plugin's configuration: every environment variable it reads, checked once at
 * boot (Strapi calls `default` when it loads the plugin). A bad value stops the boot with one
 * line (src/kernel/config.ts). Services read the result with `triggersConfig(strapi)`.
 */
import type { Core } from '@strapi/strapi';
import { duration, hostList, int, readSettings, text, type EnvSource } from '#kernel/config';

export const settings = {
  /** Accepted triggers per minute per process instance. */
  rateLimitPerMinute: int('TRIGGER_RATE_LIMIT', { min: 1, max: 1_000_000_000, default: 600 }),
  /** Executions run at once per process (in-process runner or BullMQ worker). */
  concurrency: int('TRIGGER_CONCURRENCY', { min: 1, max: 1_000, default: 8 }),
  /** How long one attempt of an action may take before it is aborted. */
  actionTimeoutMs: duration('TRIGGER_ACTION_TIMEOUT_MS', { min: 100, max: 3_600_000, default: 30_000 }),
  /** A `running` execution whose lease ran out (its process died) is run again. Default: the action timeout + 30 s. */
  leaseMs: duration('TRIGGER_LEASE_MS', { min: 1, max: 86_400_000, optional: true }),
  /** How often each process looks for expired leases and stranded pending executions (0: never). */
  sweepIntervalMs: duration('TRIGGER_SWEEP_INTERVAL_MS', { min: 0, max: 86_400_000, default: 15_000 }),
  /** First retry delay of the http action; doubles each attempt. */
  retryBaseMs: duration('TRIGGER_RETRY_BASE_MS', { min: 0, max: 3_600_000, default: 1_000 }),
  /** Completion callbacks: attempts before a callback is given up as `failed` (at least 5 by default's spirit: 8). */
  callbackMaxAttempts: int('TRIGGER_CALLBACK_MAX_ATTEMPTS', { min: 1, max: 50, default: 8 }),
  /** Delay before the first callback retry; doubles each attempt, ±20% jitter (default 60 s: 8 attempts span about 2 hours). */
  callbackRetryBaseMs: duration('TRIGGER_CALLBACK_RETRY_BASE_MS', { min: 0, max: 86_400_000, default: 60_000 }),
  /** How long one callback POST may take. */
  callbackTimeoutMs: duration('TRIGGER_CALLBACK_TIMEOUT_MS', { min: 100, max: 60_000, default: 15_000 }),
  /** Callbacks delivered at once per process, apart from executions (a slow receiver never holds up runs). */
  callbackConcurrency: int('TRIGGER_CALLBACK_CONCURRENCY', { min: 1, max: 1_000, default: 4 }),
  /** Executions older than this many days are deleted (with their webhook ids and idempotency keys). */
  retentionDays: int('TRIGGER_RETENTION_DAYS', { min: 1, max: 36_500, default: 30 }),
  /** BullMQ queue name (Redis mode): processes sharing it share the work. */
  queueName: text('TRIGGER_QUEUE', {
    default: 'quire-triggers',
    pattern: /^[A-Za-z0-9._-]{1,100}$/,
    expected: 'a name of letters, digits, ".", "_" or "-" (at most 100)',
  }),
  /**
   * `host` or `host:port` entries the `http` action may reach although private. Its own setting:
   * opening an intranet host to link previews must not let every workflow POST to it.
   */
  allowedPrivateHosts: hostList('HTTP_ACTION_ALLOWED_PRIVATE_HOSTS'),
};

export interface TriggersConfig {
  readonly rateLimitPerMinute: number;
  readonly concurrency: number;
  readonly actionTimeoutMs: number;
  readonly leaseMs: number;
  readonly sweepIntervalMs: number;
  readonly retryBaseMs: number;
  readonly callbackMaxAttempts: number;
  readonly callbackRetryBaseMs: number;
  readonly callbackTimeoutMs: number;
  readonly callbackConcurrency: number;
  readonly retentionDays: number;
  readonly queueName: string;
  readonly allowedPrivateHosts: string[];
  /** Accepted webhook ids are remembered this long. */
  readonly dedupeWindowMs: number;
}

export function readTriggersConfig(env: EnvSource): TriggersConfig {
  const read = readSettings(settings, env);
  return Object.freeze({
    ...read,
    leaseMs: read.leaseMs ?? read.actionTimeoutMs + 30_000,
    dedupeWindowMs: 24 * 60 * 60 * 1000,
  });
}

/** The configuration read at boot. */
export const triggersConfig = (strapi: Core.Strapi): TriggersConfig => strapi.config.get('plugin::triggers') as TriggersConfig;

export default {
  default: ({ env }: { env: EnvSource }) => readTriggersConfig(env),
  validator() {},
};
