/**
 * The per-user unfurl limit shared through Redis (REDIS_URL): points consumed by another
 * process count here. Keys live under a prefix unique to this run.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';
import { startUnfurlSite } from '../helpers/unfurl-site';
import { startServer, type TestServer } from '../helpers/servers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `quire-test-${randomBytes(6).toString('hex')}:`;
let app: TestApp;
let site: TestServer;
let trap: TestServer;
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  trap = await startServer();
  site = await startUnfurlSite(trap.port);
  app = await startApp({
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    UNFURL_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${site.port}`,
    UNFURL_RATE_LIMIT: '4',
  });
});
afterAll(async () => {
  await app?.close();
  await site?.close();
  await trap?.close();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
});

it('counts in Redis, so previews made through another process use up the same limit', async () => {
  expect(app.strapi.plugin('quire').service('redis').client()).not.toBeNull();
  const user = await registerUser(app, 'alice');
  const key = await createKey(app, user);
  const url = `${site.origin}/og`;

  expect((await app.http.get('/api/unfurl').set(bearer(key)).query({ url })).status).toBe(200);
  const stored = `${prefix}rl:unfurl:${user.id}`;
  expect(await redis.get(stored)).toBe('1');

  // another Strapi process with the same configuration spends two of the four points
  const elsewhere = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}rl:unfurl`, points: 4, duration: 60 });
  await elsewhere.consume(String(user.id), 2);

  const second = await app.http.get('/api/unfurl').set(bearer(key)).query({ url });
  expect(second.status).toBe(200);
  // The headers tell the shared state: 1 here + 2 elsewhere + this one = 4 of 4.
  expect(second.headers['ratelimit-policy']).toBe('"unfurl";q=4;w=60');
  expect(second.headers.ratelimit).toMatch(/^"unfurl";r=0;t=([1-9]|[1-5][0-9]|60)$/);
  const limited = await app.http.get('/api/unfurl').set(bearer(key)).query({ url });
  expectFailure(limited, 429, 'rate-limited');
  expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(limited.headers['ratelimit-policy']).toBe('"unfurl";q=4;w=60');
  expect(limited.headers.ratelimit).toBe(`"unfurl";r=0;t=${limited.headers['retry-after']}`);
  expect(Number(await redis.get(stored))).toBe(5);
});
