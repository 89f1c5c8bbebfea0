/** The per-user unfurl limit, kept in memory (no REDIS_URL). */
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';
import { startUnfurlSite } from '../helpers/unfurl-site';
import { startServer, type TestServer } from '../helpers/servers';

let app: TestApp;
let site: TestServer;
let trap: TestServer;

beforeAll(async () => {
  trap = await startServer();
  site = await startUnfurlSite(trap.port);
  delete process.env.REDIS_URL;
  app = await startApp({ UNFURL_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${site.port}`, UNFURL_RATE_LIMIT: '3' });
});
afterAll(async () => {
  await app?.close();
  await site?.close();
  await trap?.close();
});

it('allows UNFURL_RATE_LIMIT previews a minute per user, then answers 429 with Retry-After', async () => {
  expect(app.strapi.plugin('quire').service('redis').client()).toBeNull();
  const alice = await createKey(app, await registerUser(app, 'alice'));
  const bob = await createKey(app, await registerUser(app, 'bob'));
  const url = `${site.origin}/og`;
  for (let i = 0; i < 3; i += 1) {
    const res = await app.http.get('/api/unfurl').set(bearer(alice)).query({ url });
    expect(res.status).toBe(200);
    // IETF httpapi rate-limit headers, from the limiter's state: 3 a minute, 2 - i left.
    expect(res.headers['ratelimit-policy']).toBe('"unfurl";q=3;w=60');
    expect(res.headers.ratelimit).toMatch(new RegExp(`^"unfurl";r=${2 - i};t=([1-9]|[1-5][0-9]|60)$`));
  }
  const hits = site.hits;
  const limited = await app.http.get('/api/unfurl').set(bearer(alice)).query({ url });
  const error = expectFailure(limited, 429, 'rate-limited');
  expect(error.message).toMatch(/at most 3 a minute/);
  const retryAfter = Number(limited.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(error.nextAction).toBe(`Retry after ${retryAfter} seconds.`);
  expect(limited.headers.ratelimit).toBe(`"unfurl";r=0;t=${retryAfter}`);
  expect(site.hits).toBe(hits); // a limited request fetches nothing
  // the limit is per user
  expect((await app.http.get('/api/unfurl').set(bearer(bob)).query({ url })).status).toBe(200);
});
