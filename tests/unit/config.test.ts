/**
 * Configuration: the kernel's parsing helpers and the plugins' config modules. A bad value is
 * one line naming the variable, the value and what is accepted; nothing falls back silently.
 */
import os from 'node:os';
import {
  bool,
  ConfigError,
  duration,
  hostList,
  int,
  list,
  oneOf,
  publicUrl,
  readSetting,
  readSettings,
  text,
  url,
} from '../../src/kernel/config';
import { redisSettings } from '../../src/kernel/redis';
import { readQuireConfig } from '../../src/plugins/quire/server/src/config';
import { readTriggersConfig } from '../../src/plugins/triggers/server/src/config';

/** The error `read` throws (fails when it does not throw). */
function errorOf(read: () => unknown): ConfigError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('setting helpers', () => {
  const limit = int('UNFURL_RATE_LIMIT', { min: 1, max: 10_000, default: 30 });

  it('take the default when the variable is unset or blank, and trim values', () => {
    expect(readSetting(limit, {})).toBe(30);
    expect(readSetting(limit, { UNFURL_RATE_LIMIT: '  ' })).toBe(30);
    expect(readSetting(limit, { UNFURL_RATE_LIMIT: ' 12 ' })).toBe(12);
  });

  it('refuse a bad value in one line naming the variable, the value and the accepted range', () => {
    for (const raw of ['abc', '0', '10001', '1.5', '12abc', '-3']) {
      const error = errorOf(() => readSetting(limit, { UNFURL_RATE_LIMIT: raw }));
      expect(error.message).toBe(`UNFURL_RATE_LIMIT="${raw}" is not valid: expected a whole number from 1 to 10000`);
      expect(error.message).not.toContain('\n');
      expect(error.stack).toBe('');
    }
  });

  it('read a function source like Strapi\'s env() of config files', () => {
    const env = (name: string) => ({ PORT: '8080' })[name];
    expect(readSetting(int('PORT', { min: 1, max: 65_535, default: 1337 }), env)).toBe(8080);
  });

  it('parse booleans, durations, enumerations, URLs, lists and host lists', () => {
    const flag = bool('TRUST_PROXY', { default: false });
    expect(['true', 'TRUE', '1', 'yes', 'on'].map((v) => readSetting(flag, { TRUST_PROXY: v }))).toEqual([true, true, true, true, true]);
    expect(['false', '0', 'No', 'off'].map((v) => readSetting(flag, { TRUST_PROXY: v }))).toEqual([false, false, false, false]);
    expect(errorOf(() => readSetting(flag, { TRUST_PROXY: 'maybe' })).message).toBe('TRUST_PROXY="maybe" is not valid: expected true or false');

    const timeout = duration('UNFURL_TIMEOUT_MS', { min: 100, max: 120_000, default: 8_000 });
    expect(readSetting(timeout, { UNFURL_TIMEOUT_MS: '250' })).toBe(250);
    expect(errorOf(() => readSetting(timeout, { UNFURL_TIMEOUT_MS: '5s' })).message).toBe(
      'UNFURL_TIMEOUT_MS="5s" is not valid: expected a duration in milliseconds from 100 to 120000',
    );

    const provider = oneOf('UPLOAD_PROVIDER', ['local', 'aws-s3'], { default: 'local' });
    expect(readSetting(provider, { UPLOAD_PROVIDER: 'AWS-S3' })).toBe('aws-s3');
    expect(errorOf(() => readSetting(provider, { UPLOAD_PROVIDER: 's3' })).message).toBe('UPLOAD_PROVIDER="s3" is not valid: expected "local" or "aws-s3"');

    const base = url('PUBLIC_URL', { optional: true });
    expect(readSetting(base, {})).toBeUndefined();
    expect(readSetting(base, { PUBLIC_URL: 'https://example.com/quire/' })).toBe('https://example.com/quire/');
    for (const raw of ['example.com', 'ftp://example.com', 'https://']) {
      expect(errorOf(() => readSetting(base, { PUBLIC_URL: raw })).message).toBe(`PUBLIC_URL="${raw}" is not valid: expected an absolute http or https URL`);
    }

    expect(readSetting(list('APP_KEYS', { optional: true }), { APP_KEYS: 'a, b,,c' })).toEqual(['a', 'b', 'c']);
    const hosts = hostList('UNFURL_ALLOWED_PRIVATE_HOSTS');
    expect(readSetting(hosts, {})).toEqual([]);
    expect(readSetting(hosts, { UNFURL_ALLOWED_PRIVATE_HOSTS: 'wiki.corp, 127.0.0.1:8080' })).toEqual(['wiki.corp', '127.0.0.1:8080']);
    expect(errorOf(() => readSetting(hosts, { UNFURL_ALLOWED_PRIVATE_HOSTS: 'wiki:abc' })).message).toBe(
      'UNFURL_ALLOWED_PRIVATE_HOSTS="wiki:abc" is not valid: expected comma-separated host or host:port entries',
    );
  });

  it('refuse a required setting that is unset, and check text against its pattern', () => {
    expect(errorOf(() => readSetting(text('S3_BUCKET'), {})).message).toBe('S3_BUCKET is not set: expected a text');
    const queue = text('TRIGGER_QUEUE', { default: 'q', pattern: /^[a-z]+$/, expected: 'lower-case letters' });
    expect(errorOf(() => readSetting(queue, { TRIGGER_QUEUE: 'a:b' })).message).toBe('TRIGGER_QUEUE="a:b" is not valid: expected lower-case letters');
  });

  it('read a declaration into a frozen object, stopping at the first bad value', () => {
    const settings = { port: int('PORT', { min: 1, max: 65_535, default: 1337 }), host: text('HOST', { default: '127.0.0.1' }) };
    const config = readSettings(settings, { HOST: '0.0.0.0' });
    expect(config).toEqual({ port: 1337, host: '0.0.0.0' });
    expect(Object.isFrozen(config)).toBe(true);
    expect(errorOf(() => readSettings(settings, { PORT: '70000' })).message).toMatch(/^PORT="70000"/);
  });

  it('give the public URL without trailing slashes', () => {
    expect(publicUrl({ config: { get: () => 'https://example.com/quire//' } })).toBe('https://example.com/quire');
  });
});

describe('plugin configuration', () => {
  it('quire: defaults with nothing set, and every variable checked', () => {
    expect(readQuireConfig({})).toEqual({
      unfurlRateLimit: 30,
      unfurlTimeoutMs: 8_000,
      allowedPrivateHosts: [],
      importRateLimit: 10,
      importDocumentRateLimit: 60,
      importTimeoutMs: 20_000,
      workerThreads: Math.max(1, os.availableParallelism() - 1),
      workerQueue: 64,
      workerTimeoutMs: 10_000,
      workerMemoryMb: 512,
      workerInlineMaxChars: 1_000,
      uploadMaxPixels: 40_000_000,
      outlineCacheSections: 50_000,
      revisionsKeep: 100,
      keepHistory: true,
      liveAuthTimeoutMs: 10_000,
      liveDocuments: 2_000,
      liveDocumentsPerAdmin: 32,
      liveDocumentsPerSocket: 16,
      liveFailedAuths: 5,
      liveIdleTimeoutMs: 60_000,
      liveMaxDocumentMb: 32,
      liveMessageBurst: 400,
      liveMessagesPerSecond: 100,
      livePreAuthBytes: 16_384,
      liveSocketsPerAddress: 64,
      historyCoalesceSeconds: 60,
      suggestionsPendingPerArticle: 100,
      suggestionsPendingPerCredential: 50,
      cliLoginInterval: 5,
      authRateLimitEnabled: true,
      authRateLimitMax: 10,
      authRateLimitIntervalMs: 60_000,
    });
    // users-permissions' routes, limited by our middleware (its own limiter is off).
    expect(errorOf(() => readQuireConfig({ AUTH_RATELIMIT_INTERVAL_MS: '500' })).message).toMatch(/^AUTH_RATELIMIT_INTERVAL_MS="500" is not valid/);
    expect(readQuireConfig({ AUTH_RATELIMIT_ENABLED: 'false', AUTH_RATELIMIT_MAX: '3' })).toMatchObject({ authRateLimitEnabled: false, authRateLimitMax: 3 });
    // Once silently replaced by 5, now refused.
    expect(errorOf(() => readQuireConfig({ CLI_LOGIN_INTERVAL: '90' })).message).toBe('CLI_LOGIN_INTERVAL="90" is not valid: expected a whole number from 1 to 60');
    expect(errorOf(() => readQuireConfig({ QUIRE_OUTLINE_CACHE_SECTIONS: 'lots' })).message).toMatch(/^QUIRE_OUTLINE_CACHE_SECTIONS="lots" is not valid/);
    // REDIS_URL is the app's, declared once (kernel/redis.ts), not the plugin's.
    const appRedisSettings = (env: Record<string, string>) => readSettings(redisSettings('quire:'), env);
    expect(errorOf(() => appRedisSettings({ REDIS_URL: 'http://127.0.0.1:6379' })).message).toBe(
      'REDIS_URL="http://127.0.0.1:6379" is not valid: expected an absolute redis or rediss URL',
    );
    expect(appRedisSettings({})).toEqual({ url: undefined, keyPrefix: 'quire:' });
    expect(readQuireConfig({})).not.toHaveProperty('redisUrl');
    // At least the last 100 revisions of each section are kept (CONTRACT section 12).
    expect(errorOf(() => readQuireConfig({ QUIRE_REVISIONS_KEEP: '10' })).message).toMatch(/^QUIRE_REVISIONS_KEEP="10" is not valid: expected a whole number from 100/);
    // Pending suggestions are capped (issue 25 point 10); a cap of 0 would refuse every suggestion.
    expect(errorOf(() => readQuireConfig({ QUIRE_SUGGESTIONS_PER_ARTICLE: '0' })).message).toMatch(/^QUIRE_SUGGESTIONS_PER_ARTICLE="0" is not valid: expected a whole number from 1/);
    expect(readQuireConfig({ QUIRE_SUGGESTIONS_PER_KEY: '7' })).toMatchObject({ suggestionsPendingPerCredential: 7 });
    expect(readQuireConfig({ QUIRE_HISTORY: 'false', QUIRE_REVISIONS_KEEP: '500' })).toMatchObject({ keepHistory: false, revisionsKeep: 500 });
    expect(errorOf(() => readQuireConfig({ WORKER_THREADS: '0' })).message).toBe('WORKER_THREADS="0" is not valid: expected a whole number from 1 to 256');
    expect(readQuireConfig({ WORKER_INLINE_MAX_CHARS: '0', WORKER_QUEUE: '0' })).toMatchObject({ workerInlineMaxChars: 0, workerQueue: 0 });
    expect(readQuireConfig({ QUIRE_OUTLINE_CACHE_SECTIONS: '0' })).toMatchObject({ outlineCacheSections: 0 });
    expect(appRedisSettings({ REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({ url: 'redis://127.0.0.1:6379' });
  });

  it('triggers: the lease defaults to the action timeout plus 30 s', () => {
    expect(readTriggersConfig({})).toMatchObject({ actionTimeoutMs: 30_000, leaseMs: 60_000, queueName: 'quire-triggers', sweepIntervalMs: 15_000 });
    expect(readTriggersConfig({ TRIGGER_ACTION_TIMEOUT_MS: '1000' }).leaseMs).toBe(31_000);
    expect(readTriggersConfig({ TRIGGER_LEASE_MS: '5000' }).leaseMs).toBe(5_000);
    expect(errorOf(() => readTriggersConfig({ TRIGGER_CONCURRENCY: '0' })).message).toBe('TRIGGER_CONCURRENCY="0" is not valid: expected a whole number from 1 to 1000');
  });
});
