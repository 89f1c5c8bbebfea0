/**
 * With REDIS_URL, OAuth client registrations are counted in Redis (the kernel limiter): those
 * made through another process use up the same quota of an address. Keys live under a prefix
 * unique to this run.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { REDIRECT_URI } from '../helpers/oauth';
import { startApp, type TestApp } from '../helpers/strapi';

jest.setTimeout(180_000);

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `quire-test-${randomBytes(6).toString('hex')}:`;
let app: TestApp;
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  app = await startApp({ REDIS_URL, REDIS_KEY_PREFIX: prefix, TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await app?.close();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
});

it('counts registrations per address in Redis, so those made through another process count here', async () => {
  const from = '198.51.100.90';
  const register = () => app.http.post('/oauth/register').set('X-Forwarded-For', from).send({ client_name: 'Agent', redirect_uris: [REDIRECT_URI] });
  const first = await register();
  expect(first.status).toBe(201);
  expect(first.headers['ratelimit-policy']).toBe('"oauth-register";q=30;w=3600');
  const stored = `${prefix}rl:oauth-register:${from}`;
  expect(await redis.get(stored)).toBe('1');

  // Another Strapi process with the same configuration spends 28 more.
  const elsewhere = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}rl:oauth-register`, points: 30, duration: 3600 });
  await elsewhere.consume(from, 28);

  const last = await register();
  expect(last.status).toBe(201);
  expect(last.headers.ratelimit).toMatch(/^"oauth-register";r=0;t=\d+$/);
  const limited = await register();
  expect(limited.status).toBe(429);
  expect(limited.body.error).toBe('too_many_requests');
  expect(limited.headers.ratelimit).toBe(`"oauth-register";r=0;t=${limited.headers['retry-after']}`);
});
