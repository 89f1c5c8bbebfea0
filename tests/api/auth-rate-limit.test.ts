/**
 * users-permissions' sign-in and account routes are limited by the kernel limiter (per address
 * and route, AUTH_RATELIMIT_*), with RateLimit-Policy / RateLimit headers (CONTRACT §17) and a
 * 429 in our envelope; the plugin's own koa2-ratelimit is off (no X-RateLimit-* headers).
 */
import { expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let alice: TestUser;

beforeAll(async () => {
  app = await startApp({ TRUST_PROXY: 'true', AUTH_RATELIMIT_MAX: '3', AUTH_RATELIMIT_INTERVAL_MS: '60000' });
  alice = await registerUser(app, 'alice');
});
afterAll(() => app?.close());

const POLICY = '"auth";q=3;w=60';
const login = (from: string, password: string, path = '/api/auth/local') =>
  app.http.post(path).set('X-Forwarded-For', from).send({ identifier: alice.email, password });

describe('POST /api/auth/local', () => {
  it('tells the limit on every answer, then answers 429 rate-limited with Retry-After, for that address only', async () => {
    const from = '198.51.100.20';
    for (let i = 0; i < 3; i += 1) {
      const wrong = await login(from, 'not the password');
      expect(wrong.status).toBe(400);
      expect(wrong.headers['ratelimit-policy']).toBe(POLICY);
      expect(wrong.headers.ratelimit).toMatch(new RegExp(`^"auth";r=${2 - i};t=([1-9]|[1-5][0-9]|60)$`));
      // One limiter: users-permissions' own (X-RateLimit-*) is off.
      expect(wrong.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const over = await login(from, 'correct horse battery');
    expectFailure(over, 429, 'rate-limited');
    expect(over.body.error.nextAction).toMatch(/^Retry after \d+ seconds\.$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.headers['ratelimit-policy']).toBe(POLICY);
    expect(over.headers.ratelimit).toBe(`"auth";r=0;t=${over.headers['retry-after']}`);
    // The same route spelled as the router still matches it (trailing slash, another case) is the same bucket.
    expectFailure(await login(from, 'correct horse battery', '/api/auth/local/'), 429, 'rate-limited');
    expectFailure(await login(from, 'correct horse battery', '/api/Auth/LOCAL'), 429, 'rate-limited');

    // Another address signs in; its answer keeps Strapi's shape, with the headers.
    const elsewhere = await login('198.51.100.21', 'correct horse battery');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.user.id).toBe(alice.id);
    expect(elsewhere.headers['ratelimit-policy']).toBe(POLICY);
    expect(elsewhere.headers.ratelimit).toMatch(/^"auth";r=2;t=\d+$/);
  });
});

describe('POST /api/auth/local/register', () => {
  it('is counted apart from sign-in, per address', async () => {
    const from = '198.51.100.30';
    // Sign-in attempts from this address do not use up its registrations.
    for (let i = 0; i < 3; i += 1) expect((await login(from, 'nope')).status).toBe(400);
    const register = (n: number) =>
      app.http.post('/api/auth/local/register').set('X-Forwarded-For', from).send({ username: `reg${n}`, email: `reg${n}@example.test`, password: 'correct horse battery' });
    for (let n = 0; n < 3; n += 1) {
      const res = await register(n);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe(POLICY);
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"auth";r=${2 - n};t=\\d+$`));
    }
    const over = await register(3);
    expectFailure(over, 429, 'rate-limited');
    expect(over.headers['ratelimit-policy']).toBe(POLICY);
    expect(await app.strapi.db.query('plugin::users-permissions.user').count({ where: { username: 'reg3' } })).toBe(0);
  });
});

describe('the other routes users-permissions limited', () => {
  it('forgot-password is limited the same way', async () => {
    const from = '198.51.100.40';
    const forgot = () => app.http.post('/api/auth/forgot-password').set('X-Forwarded-For', from).send({ email: 'nobody@example.test' });
    for (let i = 0; i < 3; i += 1) expect((await forgot()).headers['ratelimit-policy']).toBe(POLICY);
    expectFailure(await forgot(), 429, 'rate-limited');
  });

  it('a provider sign-in counts its start and its callback apart, as the plugin did', async () => {
    const from = '198.51.100.41';
    const connect = (path: string) => app.http.get(`/api/connect/${path}`).set('X-Forwarded-For', from).redirects(0);
    for (const path of ['github', 'github/callback']) {
      const res = await connect(path);
      expect(res.headers['ratelimit-policy']).toBe(POLICY);
      expect(res.headers.ratelimit).toMatch(/^"auth";r=2;t=\d+$/);
    }
  });
});
