/**
 * Issue 11: what an attacker found, each refused by a mechanism (docs/operations.md, Security).
 * One server for the whole file, behind a (pretend) proxy: TRUST_PROXY=true.
 */
import { bearer, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { signIn } from '../helpers/cli-login';
import { createWorkflow, setup } from '../helpers/triggers';

import fs from 'node:fs';
import path from 'node:path';
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { sampleImage } from '../helpers/images';

// Every file the multipart parser (formidable, under koa-body) opens for writing, by path: the
// same module instance the server uses, since it runs in this test's module registry.
const written: string[] = [];
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PersistentFile = require('formidable/src/PersistentFile');
const open = PersistentFile.prototype.open;
PersistentFile.prototype.open = function recordOpen(this: { filepath: string }) {
  written.push(this.filepath);
  return open.call(this);
};
/** The files written for requests that are still on disk. */
const leftInTemp = () => written.filter((file) => fs.existsSync(file));

const PUBLIC_URL = 'http://quire.test:8080';
let app: TestApp;
let alice: TestUser;

beforeAll(async () => {
  app = await startApp({ PUBLIC_URL, TRUST_PROXY: 'true', UNFURL_ALLOWED_PRIVATE_HOSTS: '127.0.0.1:9' });
  alice = await registerUser(app, 'alice');
});
afterAll(async () => {
  await app?.close();
  for (const file of written) fs.rmSync(file, { force: true });
});

describe('answers do not name the framework', () => {
  it('sends no X-Powered-By', async () => {
    for (const path of ['/_health', '/api/articles', '/nowhere']) {
      const res = await app.http.get(path);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('behind a proxy, the client address is the one the proxy appended', () => {
  it('ignores the X-Forwarded-For entries the client wrote itself', async () => {
    const res = await app.http.post('/api/cli/login-request').set('X-Forwarded-For', '6.6.6.6, 203.0.113.9').send({ name: 'proxied' });
    expect(res.status).toBe(200);
    const row = await app.strapi.db.query('plugin::quire.cli-login').findOne({ where: { name: 'proxied' }, select: ['requestIp'] });
    expect(row.requestIp).toBe('203.0.113.9');
  });
});

describe('CORS and the session cookie', () => {
  it('allows credentialed CORS for PUBLIC_URL only', async () => {
    const own = await app.http.options('/api/articles').set('Origin', PUBLIC_URL).set('Access-Control-Request-Method', 'GET');
    expect(own.headers['access-control-allow-origin']).toBe(PUBLIC_URL);
    const other = await app.http.options('/api/articles').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'GET');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const simple = await app.http.get('/api/articles').set('Origin', 'https://evil.example');
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    expect(simple.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('accepts the quire_session cookie on /api only from same-origin requests', async () => {
    const agent = await signIn(app, alice);
    expect((await agent.get('/api/auth/me')).status).toBe(200);
    expect((await agent.get('/api/auth/me').set('Sec-Fetch-Site', 'same-origin').set('Origin', PUBLIC_URL)).status).toBe(200);
    for (const [name, value] of [
      ['Sec-Fetch-Site', 'cross-site'],
      ['Sec-Fetch-Site', 'same-site'],
      ['Origin', 'https://evil.example'],
      ['Origin', 'null'],
    ]) {
      const res = await agent.get('/api/auth/me').set(name, value);
      expect({ header: name, value, status: res.status }).toEqual({ header: name, value, status: 401 });
      expect(res.body.error.message).toContain('same origin');
    }
  });
});

describe('files of /uploads', () => {
  const name = `hardening-${process.pid}.svg`;
  let file: string;
  beforeAll(() => {
    file = path.join(app.strapi.dirs.static.public, 'uploads', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  });
  afterAll(() => fs.rmSync(file, { force: true }));

  it('carry the sandbox CSP and nosniff on every path the static server resolves to them', async () => {
    for (const spelling of [`/uploads/${name}`, `/%75ploads/${name}`, `/./uploads/${name}`, `/x/../uploads/${name}`, `/%2e/uploads/${name}`, `/uploads/./${name}`]) {
      const res = await app.http.get(spelling);
      if (res.status !== 200) continue; // not served at all: nothing to protect
      expect({ spelling, csp: res.headers['content-security-policy'], nosniff: res.headers['x-content-type-options'] }).toEqual({
        spelling,
        csp: expect.stringContaining('sandbox'),
        nosniff: 'nosniff',
      });
    }
    expect((await app.http.get(`/%75ploads/${name}`)).status).toBe(200);
  });
});

describe('routes are case-sensitive, like the prefixes our middleware checks', () => {
  it('answers 404 to a path spelled in another case, without reaching the route', async () => {
    const errors: string[] = [];
    const log = jest.spyOn(app.strapi.log, 'error').mockImplementation((...args: unknown[]) => void errors.push(String(args[0])));
    try {
      for (const spelling of ['/WEBHOOK/inst/flow', '/Webhook/inst/flow']) {
        const res = await app.http.post(spelling).set('Content-Type', 'application/json').send({ a: 1 });
        // 405: only the static files' GET route matches such a path.
        expect({ spelling, status: res.status }).toEqual({ spelling, status: 405 });
      }
      expect((await app.http.get('/API/auth/me')).status).toBe(404);
      expect((await app.http.get('/api/AUTH/ME')).status).toBe(404);
      expect((await app.http.get('/api/auth/me')).status).toBe(401);
      expect(errors).toEqual([]);
    } finally {
      log.mockRestore();
    }
  });
});

describe('deep JSON', () => {
  const nested = (depth: number) => '{"payload":' + '['.repeat(depth) + ']'.repeat(depth) + '}';

  it('answers 400 with a clear message where JSON enters: the body parser', async () => {
    const errors: string[] = [];
    const log = jest.spyOn(app.strapi.log, 'error').mockImplementation((...args: unknown[]) => void errors.push(String(args[0])));
    try {
      const res = await app.http.post('/api/articles').set(bearer(alice.jwt)).set('Content-Type', 'application/json').send(`{"title":"x","tags":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
      expect(expectFailure(res, 400, 'invalid-argument').message).toContain('nested more than 128 levels');
      // Just under the bound is an ordinary body (refused here for its shape, not its depth).
      const ok = await app.http.post('/api/articles').set(bearer(alice.jwt)).set('Content-Type', 'application/json').send(`{"title":"x","tags":${'['.repeat(100)}${']'.repeat(100)}}`);
      expect(ok.status).toBe(400);
      expect(ok.body.error.message).not.toContain('nested');
      expect(errors).toEqual([]);
    } finally {
      log.mockRestore();
    }
  });

  it('answers 400 with a clear message on the trigger route (raw body), signed or keyed', async () => {
    const bob = await registerUser(app, 'bob');
    const { instanceId, apiKey } = await setup(app, bob);
    const workflow = await createWorkflow(app, bob, instanceId);
    const errors: string[] = [];
    const log = jest.spyOn(app.strapi.log, 'error').mockImplementation((...args: unknown[]) => void errors.push(String(args[0])));
    try {
      const res = await app.http.post(`/webhook/${instanceId}/${workflow.id}`).set('X-API-Key', apiKey).set('Content-Type', 'application/json').send(nested(300_000));
      expect(expectFailure(res, 400, 'invalid-argument').message).toContain('nested more than 128 levels');
      // Brackets inside strings are text, not nesting.
      const text = await app.http.post(`/webhook/${instanceId}/${workflow.id}`).set('X-API-Key', apiKey).set('Content-Type', 'application/json').send(JSON.stringify({ payload: { s: '['.repeat(1000) } }));
      expect(text.status).toBe(202);
      expect(errors).toEqual([]);
    } finally {
      log.mockRestore();
    }
  });
});

describe('multipart bodies', () => {
  const twoParts = (req: any) => req.attach('one', Buffer.alloc(1024 * 1024, 1), 'one.bin').attach('files', Buffer.alloc(1024 * 1024, 2), 'two.bin');

  it('leave nothing in the temp directory, whatever the path and the answer', async () => {
    await twoParts(app.http.post('/x'));
    await twoParts(app.http.post('/api/articles').set(bearer(alice.jwt)));
    await twoParts(app.http.post('/upload')); // the Media Library's routes, without a credential
    await twoParts(app.http.post('/upload/files'));
    await twoParts(app.http.put('/upload/files/1'));
    await twoParts(app.http.post('/webhook/a/b'));
    expect(leftInTemp()).toEqual([]);
  });

  it('still reach the admin Media Library upload, which stores the file, and leave nothing behind', async () => {
    const token = await adminToken(app, await createAdmin(app));
    const png = await sampleImage('image/png');
    const res = await app.http
      .post('/upload')
      .set(adminBearer(token))
      .field('fileInfo', JSON.stringify({ name: 'hardening.png', caption: 'c', alternativeText: 'a' }))
      .attach('files', png, { filename: 'hardening.png', contentType: 'image/png' })
      .attach('extra', Buffer.alloc(4096, 3), 'extra.bin');
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ name: 'hardening.png', mime: 'image/png' });
    expect(written.length).toBeGreaterThan(0);
    expect(leftInTemp()).toEqual([]);
  });

  it("reach the Media Library page's own routes too: upload, edit and replace, leaving nothing behind", async () => {
    const token = await adminToken(app, await createAdmin(app));
    const png = await sampleImage('image/png');
    const before = written.length;
    const uploaded = await app.http
      .post('/upload/files')
      .set(adminBearer(token))
      .field('fileInfo', JSON.stringify({ name: 'page.png', caption: 'c', alternativeText: 'a' }))
      .attach('files', png, { filename: 'page.png', contentType: 'image/png' });
    expect(uploaded.status).toBe(201);
    const file = Array.isArray(uploaded.body) ? uploaded.body[0] : uploaded.body;
    expect(file).toMatchObject({ name: 'page.png', mime: 'image/png' });

    // The page edits a file's details with a multipart PUT (no file in it).
    const edited = await app.http
      .put(`/upload/files/${file.id}`)
      .set(adminBearer(token))
      .field('fileInfo', JSON.stringify({ name: 'renamed.png', caption: 'new caption', alternativeText: 'new alt' }));
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'renamed.png', caption: 'new caption' });

    const jpeg = await sampleImage('image/jpeg');
    const replaced = await app.http
      .post(`/upload/files/${file.id}/replace`)
      .set(adminBearer(token))
      .field('fileInfo', JSON.stringify({ name: 'replaced.jpg' }))
      .attach('files', jpeg, { filename: 'replaced.jpg', contentType: 'image/jpeg' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: file.id, mime: 'image/jpeg' });
    expect(written.length).toBeGreaterThan(before);
    expect(leftInTemp()).toEqual([]);
  });
});

describe('the http action has its own allow-list of private hosts', () => {
  it('is not opened by UNFURL_ALLOWED_PRIVATE_HOSTS', async () => {
    const carol = await registerUser(app, 'carol');
    const { instanceId } = await setup(app, carol);
    const res = await app.http
      .post(`/api/process-instances/${instanceId}/workflows`)
      .set(bearer(carol.jwt))
      .send({ name: 'to the intranet', action: 'http', config: { url: 'http://127.0.0.1:9/hook' } });
    expect(expectFailure(res, 400, 'invalid-argument').message).toContain('config.url');
  });
});

describe('web sessions', () => {
  const sessionOf = (res: { headers: Record<string, any> }) =>
    /quire_session=([^;]+)/.exec((res.headers['set-cookie'] as string[]).find((c) => c.startsWith('quire_session='))!)![1];
  // Without a cookie jar: only the cookie given is sent.
  const bare = () => require('supertest')(app.strapi.server.httpServer);
  const me = (value: string) => bare().get('/api/auth/me').set('Cookie', `quire_session=${value}`);

  async function signInCopy(user: TestUser, password = 'correct horse battery') {
    const { browser, csrfOf } = require('../helpers/cli-login');
    const agent = browser(app);
    const page = await agent.get('/cli/login');
    const res = await agent.post('/cli/login/session').type('form').send({ csrf: csrfOf(page.text), identifier: user.username, password });
    expect(res.status).toBe(303);
    return { agent, value: sessionOf(res) };
  }

  it('are random ids stored hashed, not JWTs', async () => {
    const { value } = await signInCopy(alice);
    expect(value.split('.')).toHaveLength(1);
    expect((await me(value)).status).toBe(200);
    const rows = await app.strapi.db.query('plugin::quire.web-session').findMany({ where: { userId: alice.id } });
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(value);
  });

  it('end at sign-out: a copied cookie stops working', async () => {
    const { csrfOf } = require('../helpers/cli-login');
    const { agent, value } = await signInCopy(alice);
    const page = await agent.get('/cli/login');
    expect((await agent.post('/cli/login/sign-out').type('form').send({ csrf: csrfOf(page.text) })).status).toBe(303);
    expect((await me(value)).status).toBe(401);
    const again = await bare().get('/cli/login').set('Cookie', `quire_session=${value}`);
    expect(again.text).toContain('Sign in to connect a device');
  });

  it('all end when the password changes', async () => {
    const dave = await registerUser(app, 'dave');
    const first = await signInCopy(dave);
    const second = await signInCopy(dave);
    expect((await me(first.value)).status).toBe(200);
    const change = await app.http
      .post('/api/auth/change-password')
      .set(bearer(dave.jwt))
      .send({ currentPassword: 'correct horse battery', password: 'another horse battery', passwordConfirmation: 'another horse battery' });
    expect(change.status).toBe(200);
    expect((await me(first.value)).status).toBe(401);
    expect((await me(second.value)).status).toBe(401);
    const fresh = await signInCopy(dave, 'another horse battery');
    expect((await me(fresh.value)).status).toBe(200);
  });
});

describe('limits on the trigger and status URLs', () => {
  it('count failed signature checks per address: past 30 a minute, that address gets 429', async () => {
    const erin = await registerUser(app, 'erin');
    const { instanceId } = await setup(app, erin);
    const workflow = await createWorkflow(app, erin, instanceId);
    const forged = (address: string) =>
      app.http
        .post(`/webhook/${instanceId}/${workflow.id}`)
        .set('X-Forwarded-For', address)
        .set({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' })
        .set('Content-Type', 'application/json')
        .send('{}');
    for (let i = 0; i < 30; i += 1) expect((await forged('198.51.100.7')).status).toBe(401);
    const over = await forged('198.51.100.7');
    expectFailure(over, 429, 'rate-limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expectFailure(await forged('198.51.100.7'), 429, 'rate-limited');
    expect((await forged('198.51.100.8')).status).toBe(401);
  });

  it('count status polls that wait, per process instance', async () => {
    const frank = await registerUser(app, 'frank');
    const { instanceId, apiKey } = await setup(app, frank);
    const workflow = await createWorkflow(app, frank, instanceId);
    const triggered = await app.http.post(`/webhook/${instanceId}/${workflow.id}`).set('X-API-Key', apiKey).send({ payload: 1 });
    expect(triggered.status).toBe(202);
    const poll = (wait: boolean) => app.http.get(`/status/${instanceId}/${triggered.body.data.executionId}${wait ? '?wait=1' : ''}`).set('X-API-Key', apiKey);
    for (let i = 0; i < 120; i += 1) expect((await poll(true)).status).toBe(200);
    expectFailure(await poll(true), 429, 'rate-limited');
    expect((await poll(false)).status).toBe(200);
  });
});

describe('code entry on the CLI login page', () => {
  it('counts only submitted codes: links with wrong codes lock nobody out', async () => {
    const { browser, csrfOf } = require('../helpers/cli-login');
    const grace = await registerUser(app, 'grace');
    const agent = browser(app);
    const signInPage = await agent.get('/cli/login');
    await agent.post('/cli/login/session').type('form').send({ csrf: csrfOf(signInPage.text), identifier: grace.username, password: 'correct horse battery' });
    // Links clicked from another site: GETs, no CSRF token. None counts.
    for (let i = 0; i < 25; i += 1) {
      const res = await agent.get(`/cli/login?code=BBBB-BB${'CDFGHJKLMNPQRSTVWXZCDFGHJ'[i]}B`);
      expect(res.status).not.toBe(429);
      expect(res.text).not.toContain('Too many wrong codes');
    }
    const request = await app.http.post('/api/cli/login-request').set('X-Forwarded-For', '192.0.2.50').send({ name: 'after links' });
    const { userCode } = request.body.data;
    const form = await agent.get('/cli/login');
    const submitted = await agent.post('/cli/login').type('form').send({ csrf: csrfOf(form.text), code: userCode });
    expect(submitted.status).toBe(200);
    expect(submitted.text).toContain('Approve this device?');
    // A submission without the CSRF token is refused and counts nothing either.
    expect((await agent.post('/cli/login').type('form').send({ code: 'BBBB-BBBB' })).status).toBe(403);
  });

  it('locks an address after 20 wrong codes in 15 minutes, whoever typed them, and no other address', async () => {
    const { csrfOf } = require('../helpers/cli-login');
    const SHARED = '203.0.113.77';
    // Each person may get 5 wrong before their own lock, so four people fill the address's 20.
    const people: Awaited<ReturnType<typeof signIn>>[] = [];
    for (const name of ['hank', 'ivy', 'jack', 'kim', 'lou']) people.push(await signIn(app, await registerUser(app, name)));
    const submit = async (agent: (typeof people)[number], code: string, from: string) => {
      const form = await agent.get('/cli/login');
      return agent.post('/cli/login').set('X-Forwarded-For', from).type('form').send({ csrf: csrfOf(form.text), code });
    };
    const letters = 'CDFGHJKLMNPQRSTVWXZ';
    for (const [p, agent] of people.slice(0, 4).entries()) {
      for (let i = 0; i < 5; i += 1) {
        const wrong = await submit(agent, `BBBB-${letters[p]}${letters[i]}BB`, SHARED);
        expect(wrong.status).toBe(400);
        expect(wrong.text).toContain('That code is not valid');
      }
    }
    // The 21st wrong code from that address is refused, though its sender had none wrong yet.
    const lou = people[4];
    const over = await submit(lou, 'BBBB-ZZZZ', SHARED);
    expect(over.status).toBe(429);
    expect(over.text).toContain('Too many wrong codes. Code entry is locked for 15 minutes.');
    expect(over.headers['ratelimit-policy']).toBe('"cli-user-code";q=5;w=900, "cli-user-code-ip";q=20;w=900');
    expect(over.headers.ratelimit).toMatch(/^"cli-user-code";r=4;t=\d+, "cli-user-code-ip";r=0;t=\d+$/);
    // From then on even a right code is refused from that address, but not from another one.
    const { userCode } = (await app.http.post('/api/cli/login-request').set('X-Forwarded-For', '192.0.2.51').send({ name: 'shared address' })).body.data;
    const locked = await submit(lou, userCode, SHARED);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many wrong codes');
    expect(locked.text).not.toContain('Approve this device?');
    const elsewhere = await submit(lou, userCode, '203.0.113.78');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.text).toContain('Approve this device?');
  });
});
