/**
 * The unfurl of a host that does not resolve is an expected failure (issue 36 point 6): the
 * caller gets its 500 with the reason, and the log gets one warning line naming the host, not
 * an error-level stack trace per call. Through the content API (agents) and the admin route
 * (the canvas's link cards).
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let key: string;
let token: string;

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', UNFURL_RATE_LIMIT: '1000', UNFURL_TIMEOUT_MS: '3000' });
  key = await createKey(app, await registerUser(app, 'ada'));
  token = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
});
afterAll(() => app?.close());

/** What the server logs at each level while `work` runs. */
async function logged(work: () => Promise<void>): Promise<Record<'error' | 'warn', string[]>> {
  const lines = { error: [] as string[], warn: [] as string[] };
  const log = app.strapi.log as unknown as Record<'error' | 'warn', (...args: unknown[]) => void>;
  const originals = { error: log.error, warn: log.warn };
  for (const level of ['error', 'warn'] as const) {
    log[level] = (...args: unknown[]) => {
      lines[level].push(args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(' '));
    };
  }
  try {
    await work();
  } finally {
    Object.assign(log, originals);
  }
  return lines;
}

it.each([
  ['the content API', () => app.http.get('/api/unfurl').set(bearer(key)).query({ url: 'http://no-such-host.invalid/page' })],
  ['the admin route', () => app.http.get('/quire/unfurl').set(adminBearer(token)).query({ url: 'http://no-such-host.invalid/page' })],
])('%s: a host without DNS answer is one warning line, no stack', async (_door, call) => {
  const lines = await logged(async () => {
    const res = await call();
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).toContain('The server could not reach no-such-host.invalid: no DNS answer.');
  });
  expect(lines.error).toEqual([]);
  expect(lines.warn).toHaveLength(1);
  expect(lines.warn[0]).toContain('no-such-host.invalid');
  expect(lines.warn[0]).not.toMatch(/\n\s+at /);
});
