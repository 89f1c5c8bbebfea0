/**
 * The quire plugin's configuration: every environment variable it reads, checked once at boot
 * (Strapi calls `default` when it loads the plugin). A bad value stops the boot with one line
 * (src/kernel/config.ts). Services read the result with `quireConfig(strapi)`.
 */
import os from 'node:os';
import type { Core } from '@strapi/strapi';
import { bool, duration, hostList, int, readSetting, readSettings, type ConfigOf, type EnvSource } from '#kernel/config';
import { DEFAULT_POLL_INTERVAL_SECONDS, MAX_POLL_INTERVAL_SECONDS } from './domain/device-login';
import { DEFAULT_MAX_PIXELS } from './domain/upload-file';

export const settings = {
  /** Link previews (GET /api/unfurl) per user per minute. */
  unfurlRateLimit: int('UNFURL_RATE_LIMIT', { min: 1, max: 1_000_000_000, default: 30 }),
  /** Deadline of one outbound fetch of a page (previews, imports from a URL). */
  unfurlTimeoutMs: duration('UNFURL_TIMEOUT_MS', { min: 100, max: 120_000, default: 8_000 }),
  /** `host` or `host:port` entries the guarded fetcher may reach although private. */
  allowedPrivateHosts: hostList('UNFURL_ALLOWED_PRIVATE_HOSTS'),
  /** Imports from URLs per user per minute. */
  importRateLimit: int('IMPORT_RATE_LIMIT', { min: 1, max: 1_000_000_000, default: 10 }),
  /** Imports of Markdown or HTML documents per user per minute (counted apart from URLs). */
  importDocumentRateLimit: int('IMPORT_DOCUMENT_RATE_LIMIT', { min: 1, max: 1_000_000_000, default: 60 }),
  /** Deadline of each step of an import in the worker pool (conversion, front matter, split). */
  importTimeoutMs: duration('IMPORT_TIMEOUT_MS', { min: 100, max: 600_000, default: 20_000 }),
  /** Worker threads for CPU-heavy parsing (services/workers); one core stays with the event loop. */
  workerThreads: int('WORKER_THREADS', { min: 1, max: 256, default: Math.max(1, os.availableParallelism() - 1) }),
  /** Tasks that may wait for a worker thread before requests are answered 429. */
  workerQueue: int('WORKER_QUEUE', { min: 0, max: 100_000, default: 64 }),
  /** Deadline of one task in a worker thread. */
  workerTimeoutMs: duration('WORKER_TIMEOUT_MS', { min: 100, max: 600_000, default: 10_000 }),
  /** Heap cap of each worker thread, in MB. */
  workerMemoryMb: int('WORKER_MEMORY_MB', { min: 16, max: 65_536, default: 512 }),
  /** Inputs up to this many characters are parsed on the main thread (0: none). */
  workerInlineMaxChars: int('WORKER_INLINE_MAX_CHARS', { min: 0, max: 2_000_000, default: 1_000 }),
  /** Largest image accepted, in pixels (all frames counted), for every upload. */
  uploadMaxPixels: int('UPLOAD_MAX_PIXELS', { min: 1, max: 1_000_000_000, default: DEFAULT_MAX_PIXELS }),
  /** Sections of cached outlines held per process (0: no cache). */
  outlineCacheSections: int('QUIRE_OUTLINE_CACHE_SECTIONS', { min: 0, max: 100_000_000, default: 50_000 }),
  /** Previous versions kept per section (CONTRACT section 12: at least the last 100). */
  revisionsKeep: int('QUIRE_REVISIONS_KEEP', { min: 100, max: 1_000_000, default: 100 }),
  /** Pending suggestions an article holds, and one credential may have across articles; past either, 429 until some are decided. */
  suggestionsPendingPerArticle: int('QUIRE_SUGGESTIONS_PER_ARTICLE', { min: 1, max: 1_000_000, default: 100 }),
  suggestionsPendingPerCredential: int('QUIRE_SUGGESTIONS_PER_KEY', { min: 1, max: 1_000_000, default: 50 }),
  /** The live canvas: one editor's stores to one section less than this many seconds apart are one revision (CONTRACT 19). */
  historyCoalesceSeconds: int('QUIRE_HISTORY_COALESCE_S', { min: 0, max: 86_400, default: 60 }),
  /** The live channel's limits (live/limit-settings.ts; docs/operations.md "Live canvas limits"). */
  liveMaxDocumentMb: int('QUIRE_LIVE_MAX_DOCUMENT_MB', { min: 1, max: 4_096, default: 32 }),
  livePreAuthBytes: int('QUIRE_LIVE_PREAUTH_BYTES', { min: 1_024, max: 1_048_576, default: 16_384 }),
  liveAuthTimeoutMs: duration('QUIRE_LIVE_AUTH_TIMEOUT_MS', { min: 500, max: 600_000, default: 10_000 }),
  liveIdleTimeoutMs: duration('QUIRE_LIVE_IDLE_TIMEOUT_MS', { min: 5_000, max: 3_600_000, default: 60_000 }),
  liveSocketsPerAddress: int('QUIRE_LIVE_SOCKETS_PER_ADDRESS', { min: 1, max: 1_000_000, default: 64 }),
  liveFailedAuths: int('QUIRE_LIVE_FAILED_AUTHS', { min: 1, max: 1_000, default: 5 }),
  liveDocumentsPerSocket: int('QUIRE_LIVE_DOCUMENTS_PER_SOCKET', { min: 1, max: 10_000, default: 16 }),
  liveDocumentsPerAdmin: int('QUIRE_LIVE_DOCUMENTS_PER_ADMIN', { min: 1, max: 100_000, default: 32 }),
  liveDocuments: int('QUIRE_LIVE_DOCUMENTS', { min: 1, max: 1_000_000, default: 2_000 }),
  liveMessagesPerSecond: int('QUIRE_LIVE_MESSAGES_PER_S', { min: 1, max: 1_000_000, default: 100 }),
  liveMessageBurst: int('QUIRE_LIVE_MESSAGE_BURST', { min: 1, max: 1_000_000, default: 400 }),
  /** Keep section history at all (false only to measure what it costs: bench/revisions.js). */
  keepHistory: bool('QUIRE_HISTORY', { default: true }),
  /** Seconds a device polling for its CLI login is asked to wait between polls. */
  cliLoginInterval: int('CLI_LOGIN_INTERVAL', { min: 1, max: MAX_POLL_INTERVAL_SECONDS, default: DEFAULT_POLL_INTERVAL_SECONDS }),
  /** users-permissions' credential routes (sign-in, registration...) limited per address (middlewares/auth-rate-limit). */
  authRateLimitEnabled: bool('AUTH_RATELIMIT_ENABLED', { default: true }),
  authRateLimitMax: int('AUTH_RATELIMIT_MAX', { min: 1, max: 1_000_000_000, default: 10 }),
  authRateLimitIntervalMs: duration('AUTH_RATELIMIT_INTERVAL_MS', { min: 1_000, max: 86_400_000, default: 60_000 }),
  // REDIS_URL and REDIS_KEY_PREFIX are the app's (kernel/redis.ts `redisSettings`, read by config/server.ts).
};

export type QuireConfig = ConfigOf<typeof settings>;

/** UNFURL_ALLOWED_PRIVATE_HOSTS alone (comma-separated `host` or `host:port`); a malformed entry is a ConfigError. */
export const allowedPrivateHostsFromEnv = (env: EnvSource): string[] => readSetting(settings.allowedPrivateHosts, env);

export const readQuireConfig = (env: EnvSource): QuireConfig => readSettings(settings, env);

/** The configuration read at boot. */
export const quireConfig = (strapi: Core.Strapi): QuireConfig => strapi.config.get('plugin::quire') as QuireConfig;

export default {
  default: ({ env }: { env: EnvSource }) => readQuireConfig(env),
  validator() {},
};
