/** Environment variables read at boot (documented in README.md and docs/api.md). */
const int = (name: string, fallback: number, min = 0) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min} (got "${raw}").`);
  return value;
};

export interface TriggersConfig {
  /** Accepted triggers per minute per process instance. */
  rateLimitPerMinute: number;
  /** Executions run at once per process (in-process runner or BullMQ worker). */
  concurrency: number;
  /** How long one attempt of an action may take before it is aborted. */
  actionTimeoutMs: number;
  /** A `running` execution whose lease ran out (its process died) is run again. */
  leaseMs: number;
  /** How often each process looks for expired leases and stranded pending executions. */
  sweepIntervalMs: number;
  /** First retry delay of the http action; doubles each attempt. */
  retryBaseMs: number;
  /** BullMQ queue name (Redis mode): processes sharing it share the work. */
  queueName: string;
  /** Accepted webhook ids are remembered this long. */
  dedupeWindowMs: number;
}

export default {
  default: (): TriggersConfig => {
    const actionTimeoutMs = int('TRIGGER_ACTION_TIMEOUT_MS', 30_000, 100);
    return {
      rateLimitPerMinute: int('TRIGGER_RATE_LIMIT', 600, 1),
      concurrency: int('TRIGGER_CONCURRENCY', 8, 1),
      actionTimeoutMs,
      leaseMs: int('TRIGGER_LEASE_MS', actionTimeoutMs + 30_000, 1),
      sweepIntervalMs: int('TRIGGER_SWEEP_INTERVAL_MS', 15_000, 0),
      retryBaseMs: int('TRIGGER_RETRY_BASE_MS', 1_000, 0),
      queueName: process.env.TRIGGER_QUEUE || 'quire-triggers',
      dedupeWindowMs: 24 * 60 * 60 * 1000,
    };
  },
  validator() {},
};
