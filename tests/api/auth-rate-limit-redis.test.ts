/**
 * With REDIS_URL, the sign-in limit (AUTH_RATELIMIT_*) counts in Redis: attempts made through
 * another process use up the same quota. Keys live under a prefix unique to this run.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { expectFailure, startApp, type TestApp } from '../helpers/strapi';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `quire-test-${randomBytes(6).toString('hex')}:`;
let app: TestApp;
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  app = await startApp({ REDIS_URL, REDIS_KEY_PREFIX: prefix, TRUST_PROXY: 'true', AUTH_RATELIMIT_MAX: '4', AUTH_RATELIMIT_INTERVAL_MS: '60000' });
});

it('connects to Redis at boot, so the first limited request already counts there', () => {
  expect((app.strapi.plugin('quire').service('redis').client() as Redis).status).toBe('ready');
});
afterAll(async () => {
  await app?.close();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
});

it('counts sign-in attempts in Redis, so those made through another process count here', async () => {
  const from = '198.51.100.60';
  const login = () => app.http.post('/api/auth/local').set('X-Forwarded-For', from).send({ identifier: 'nobody@example.test', password: 'wrong' });
  const first = await login();
  expect(first.status).toBe(400);
  expect(first.headers['ratelimit-policy']).toBe('"auth";q=4;w=60');
  const stored = `${prefix}rl:auth:/auth/local:${from}`;
  expect(await redis.keys(`${prefix}*`)).toEqual([stored]);
  expect(await redis.get(stored)).toBe('1');

  // Another Strapi process with the same configuration spends two of the four points.
  const elsewhere = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}rl:auth`, points: 4, duration: 60 });
  await elsewhere.consume(`/auth/local:${from}`, 2);

  const last = await login();
  expect(last.status).toBe(400);
  expect(last.headers.ratelimit).toMatch(/^"auth";r=0;t=\d+$/);
  const limited = await login();
  expectFailure(limited, 429, 'rate-limited');
  expect(limited.headers.ratelimit).toBe(`"auth";r=0;t=${limited.headers['retry-after']}`);
  expect(Number(await redis.get(stored))).toBe(5);
});
