/**
 * Who may reach the admin panel's API (CONTRACT 18): nobody makes themselves super admin of a
 * fresh server without the setup token printed at start; ADMIN_EMAIL/ADMIN_PASSWORD create the
 * first admin at boot; with the panel off, the admin API is off too.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminToken, captureLog, setupLinkIn } from '../helpers/admin';
import { freePort } from '../helpers/cli-login';
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

const firstAdmin = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.test', password: 'Analytical-Engine-1843' };

describe('a fresh server without ADMIN_EMAIL', () => {
  let app: TestApp;
  let token: string;
  let link: string;

  beforeAll(async () => {
    const { result, output } = await captureLog(() => startApp({ SERVE_ADMIN_PANEL: 'true', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' }));
    app = result;
    const printed = setupLinkIn(output);
    if (!printed) throw new Error(`no setup link in the log:\n${output}`);
    ({ token, url: link } = printed);
  });
  afterAll(() => app?.close());

  it('prints a link to the registration page carrying the setup token', () => {
    expect(new URL(link).pathname).toBe('/admin/auth/register-admin');
    expect(token.length).toBeGreaterThanOrEqual(40);
  });

  it('does not invite strangers: /admin/init says an admin exists', async () => {
    const res = await app.http.get('/admin/init');
    expect(res.status).toBe(200);
    expect(res.body.data.hasAdmin).toBe(true);
    // Other spellings either reach the same handler, rewritten the same way, or another page.
    for (const url of ['/admin/init/', '/admin/INIT', '/Admin/Init/']) {
      const other = await app.http.get(url);
      expect([url, other.body?.data?.hasAdmin]).not.toEqual([url, false]);
    }
  });

  it('refuses register-admin without the token, or with a wrong one', async () => {
    const refusals = [
      await app.http.post('/admin/register-admin').send(firstAdmin),
      await app.http.post('/admin/register-admin').set('X-Setup-Token', `${token.slice(0, -1)}x`).send(firstAdmin),
      await app.http.post(`/admin/register-admin?setupToken=nope`).send(firstAdmin),
      await app.http.post('/admin/register-admin').set('Cookie', 'quire_admin_setup=guess').send(firstAdmin),
      // Spellings Strapi's router routes to the same handler (it ignores case and a trailing slash).
      await app.http.post('/admin/register-admin/').send(firstAdmin),
      await app.http.post('/admin/Register-Admin').send(firstAdmin),
      await app.http.post('/ADMIN/register-admin//').send(firstAdmin),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual(expect.objectContaining({ status: 403, name: 'ForbiddenError' }));
      expect(res.body.error.message).toMatch(/setup token/);
    }
    expect(await app.strapi.service('admin::user').exists()).toBe(false);
  });

  it('opening the printed link sets the setup cookie and drops the token from the address', async () => {
    const res = await app.http.get(`/admin/auth/register-admin?setupToken=${token}&redirectTo=%2Fplugins%2Fquire`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/admin/auth/register-admin?redirectTo=%2Fplugins%2Fquire');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('quire_admin_setup='))!;
    expect(cookie).toContain(token);
    expect(cookie).toMatch(/path=\/admin/i);
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=strict/i);

    // With the cookie, the stock panel is told there is no admin yet and shows its registration form.
    const init = await app.http.get('/admin/init').set('Cookie', `quire_admin_setup=${token}`);
    expect(init.body.data.hasAdmin).toBe(false);

    // A wrong token in the link sets nothing.
    const wrong = await app.http.get('/admin/auth/register-admin?setupToken=nope');
    expect(wrong.status).toBe(302);
    expect(wrong.headers['set-cookie'] ?? []).toEqual([]);
  });

  it('accepts register-admin with the token once; the new admin is Super Admin and can sign in', async () => {
    const res = await app.http.post('/admin/register-admin').set('X-Setup-Token', token).send(firstAdmin);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual(expect.objectContaining({ email: firstAdmin.email, firstname: 'Ada' }));
    expect(res.body.data.user.roles.map((r) => r.code)).toEqual(['strapi-super-admin']);

    const again = await app.http.post('/admin/register-admin').set('X-Setup-Token', token).send({ ...firstAdmin, email: 'eve@example.test' });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(await app.strapi.db.query('admin::user').count()).toBe(1);

    // The cookie of the link no longer tells the panel that there is no admin.
    const init = await app.http.get('/admin/init').set('Cookie', `quire_admin_setup=${token}`);
    expect(init.body.data.hasAdmin).toBe(true);

    expect(await adminToken(app, firstAdmin)).toMatch(/^ey/);
  });
});

describe('ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  let app: TestApp;
  let output: string;
  const env = { SERVE_ADMIN_PANEL: 'true', ADMIN_EMAIL: 'Grace@Example.test', ADMIN_PASSWORD: 'Mark-II-moth-1947', ADMIN_FIRSTNAME: 'Grace', ADMIN_LASTNAME: 'Hopper' };

  beforeAll(async () => {
    ({ result: app, output } = await captureLog(() => startApp(env)));
  });
  afterAll(() => app?.close());

  it('create that Super Admin at boot, who signs in with POST /admin/login', async () => {
    expect(setupLinkIn(output)).toBeNull();
    const login = await app.http.post('/admin/login').send({ email: 'grace@example.test', password: env.ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toEqual(expect.objectContaining({ email: 'grace@example.test', firstname: 'Grace', lastname: 'Hopper' }));
    const me = await app.http.get('/admin/users/me').set(bearer(login.body.data.token));
    expect(me.body.data.roles.map((r) => r.code)).toEqual(['strapi-super-admin']);
  });

  it('leave nothing to register: register-admin is refused and /admin/init says an admin exists', async () => {
    expect((await app.http.get('/admin/init')).body.data.hasAdmin).toBe(true);
    const res = await app.http.post('/admin/register-admin').send({ ...firstAdmin, email: 'mallory@example.test' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await app.strapi.db.query('admin::user').count()).toBe(1);
  });
});

describe('SERVE_ADMIN_PANEL=false', () => {
  let app: TestApp;
  let output: string;

  beforeAll(async () => {
    ({ result: app, output } = await captureLog(() => startApp({ SERVE_ADMIN_PANEL: 'false', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' })));
  });
  afterAll(() => app?.close());

  it('turns the admin API off: every admin route answers 404, and no setup token is printed', async () => {
    expect(setupLinkIn(output)).toBeNull();
    const answers = [
      await app.http.get('/admin/init'),
      await app.http.post('/admin/register-admin').send(firstAdmin),
      await app.http.post('/admin/login').send({ email: firstAdmin.email, password: firstAdmin.password }),
      await app.http.get('/admin/users/me'),
      await app.http.get('/quire/articles'),
      await app.http.get('/triggers/organizations'),
      await app.http.get('/content-manager/init'),
      await app.http.get('/admin'),
    ];
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 404));
    expect(await app.strapi.service('admin::user').exists()).toBe(false);
  });

  it('keeps the content API of our plugins working', async () => {
    const user = await registerUser(app, 'writer');
    const key = await createKey(app, user);
    const created = await app.http.post('/api/articles').set(bearer(key)).send({ title: 'Still here' });
    expect(created.status).toBe(201);
    const listed = await app.http.get('/api/articles').set(bearer(key));
    expect(listed.body.data.articles.map((a) => a.title)).toEqual(['Still here']);
    expect((await app.http.get('/api/organizations').set(bearer(user.jwt))).status).toBe(200);
  });
});

describe('a server that does not serve the built panel itself (strapi develop, where Vite serves it)', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The tests' boot is that case: createStrapi({ serveAdminPanel: false }), no SERVE_ADMIN_PANEL.
    app = await startApp({ SERVE_ADMIN_PANEL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
  });
  afterAll(() => app?.close());

  it('keeps the admin API on, guarded by the setup token', async () => {
    expect(app.strapi.config.get('admin.serveAdminPanel')).toBe(false);
    expect((await app.http.get('/admin/init')).status).toBe(200);
    expect((await app.http.post('/admin/register-admin').send(firstAdmin)).status).toBe(403);
    expect((await app.http.get('/quire/articles')).status).toBe(401);
  });
});

it('a password Strapi would refuse stops `npm start` with one clear line', async () => {
  const appDir = path.resolve(__dirname, '..', '..');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-boot-'));
  const secret = () => randomBytes(24).toString('base64');
  const port = String(await freePort());
  const run = spawnSync(process.execPath, [path.join(appDir, 'scripts', 'start.js')], {
    cwd: appDir,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: port,
      DATABASE_CLIENT: 'sqlite',
      DATABASE_FILENAME: path.join(tmp, 'boot.db'),
      APP_KEYS: `${secret()},${secret()}`,
      API_TOKEN_SALT: secret(),
      ADMIN_JWT_SECRET: secret(),
      TRANSFER_TOKEN_SALT: secret(),
      JWT_SECRET: secret(),
      ENCRYPTION_KEY: secret(),
      STRAPI_TELEMETRY_DISABLED: 'true',
      LOG_LEVEL: 'error',
      ADMIN_EMAIL: 'ops@example.test',
      ADMIN_PASSWORD: 'password',
    },
  });
  fs.rmSync(tmp, { recursive: true, force: true });
  expect(run.status).not.toBe(0);
  const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.includes('error'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/ADMIN_PASSWORD is refused by Strapi's admin password rules: it must contain an uppercase letter/);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at /m);
});
