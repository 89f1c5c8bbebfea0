import { bearer, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { PASSWORD, browser, csrfOf, decideLogin, signIn } from '../helpers/cli-login';

const PUBLIC_URL = 'http://quire.test:8080';
let app: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  app = await startApp({ PUBLIC_URL });
  alice = await registerUser(app, 'alice');
  bob = await registerUser(app, 'bob');
});
afterAll(() => app?.close());

const request = (body: object = { name: 'laptop' }) => app.http.post('/api/cli/login-request').send(body);
const complete = (deviceCode: string) => app.http.post('/api/cli/login-complete').send({ deviceCode });

async function start(name = 'laptop') {
  const res = await request({ name });
  expect(res.status).toBe(200);
  return res.body.data as { deviceCode: string; userCode: string; verificationUrl: string; verificationUrlComplete: string; expiresIn: number; interval: number };
}

describe('POST /api/cli/login-request', () => {
  it('answers the device flow data: a long secret device code and a short typed user code', async () => {
    const res = await request({ name: 'ada laptop' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['deviceCode', 'expiresIn', 'interval', 'userCode', 'verificationUrl', 'verificationUrlComplete']);
    expect(data.deviceCode).toMatch(/^qdc_[A-Za-z0-9_-]{43}$/);
    expect(data.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(data.verificationUrl).toBe(`${PUBLIC_URL}/cli/login`);
    expect(data.verificationUrlComplete).toBe(`${PUBLIC_URL}/cli/login?code=${data.userCode}`);
    expect(data.expiresIn).toBe(600);
    expect(data.interval).toBe(5);
    // Its per-address limit (30 in 10 minutes) is told in the RateLimit headers.
    expect(res.headers['ratelimit-policy']).toBe('"cli-login-request";q=30;w=600');
    expect(res.headers.ratelimit).toMatch(/^"cli-login-request";r=\d+;t=\d+$/);
  });

  it('needs no credential and no body', async () => {
    const res = await app.http.post('/api/cli/login-request');
    expect(res.status).toBe(200);
    expect(res.body.data.deviceCode).toMatch(/^qdc_/);
  });

  it('stores both codes hashed, never in clear', async () => {
    const data = await start('hash check');
    const rows = await app.strapi.db.query('plugin::quire.cli-login').findMany({ where: { name: 'hash check' } });
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(data.deviceCode);
    expect(stored).not.toContain(data.userCode.replace('-', ''));
    expect(stored).not.toContain(data.userCode);
  });

  it('names the bad field', async () => {
    expect(expectFailure(await request({ name: 42 }), 400, 'invalid-argument').message).toBe('name must be a string.');
    expect(expectFailure(await request({ name: '  ' }), 400, 'invalid-argument').message).toMatch(/^name:? must not be empty/);
    expect(expectFailure(await request({ name: 'a\nb' }), 400, 'invalid-argument').message).toMatch(/^name:? must be one line/);
    expect(expectFailure(await request({ name: 'x'.repeat(101) }), 400, 'invalid-argument').message).toMatch(/^name:? must be at most 100 characters/);
    expect(expectFailure(await request({ nmae: 'x' }), 400, 'invalid-argument').message).toBe('Unknown field: nmae.');
  });
});

describe('POST /api/cli/login-complete', () => {
  it('requires a device code', async () => {
    const error = expectFailure(await app.http.post('/api/cli/login-complete').send({}), 400, 'invalid-argument');
    expect(error.message).toBe('deviceCode is required.');
    expect(error.nextAction).toMatch(/login-request/);
  });

  it('answers 404 not-found for a device code it never issued, telling the device to start again', async () => {
    const res = await complete('qdc_not-a-real-code');
    const error = expectFailure(res, 404, 'not-found');
    expect(error.nextAction).toMatch(/Start again/);
    // Polls are counted per address (3000 in 10 minutes), and the answer says where it stands.
    expect(res.headers['ratelimit-policy']).toBe('"cli-login-complete";q=3000;w=600');
    expect(res.headers.ratelimit).toMatch(/^"cli-login-complete";r=\d+;t=\d+$/);
  });

  it('answers authorization-pending while waiting, then slow-down when polled faster than the interval', async () => {
    const { deviceCode, interval } = await start();
    const first = await complete(deviceCode);
    const pending = expectFailure(first, 400, 'authorization-pending');
    expect(pending.nextAction).toMatch(new RegExp(`Keep polling .* every ${interval} seconds`));

    const second = await complete(deviceCode);
    const slow = expectFailure(second, 429, 'slow-down');
    expect(second.headers['retry-after']).toBe(String(interval + 5));
    expect(slow.nextAction).toMatch(new RegExp(`Wait ${interval + 5} seconds`));

    const third = await complete(deviceCode);
    expectFailure(third, 429, 'slow-down');
    expect(third.headers['retry-after']).toBe(String(interval + 10));
  });

  it('gives a key of the approving user, named after the device, once', async () => {
    const { deviceCode, userCode } = await start('ada work laptop');
    expectFailure(await complete(deviceCode), 400, 'authorization-pending');

    const decided = await decideLogin(app, alice, userCode, 'approve');
    expect(decided.status).toBe(200);
    expect(decided.text).toContain('Device connected');

    const res = await complete(deviceCode);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.secret).toMatch(/^qk_/);
    expect(res.body.data.key).toEqual(expect.objectContaining({ name: 'ada work laptop', prefix: res.body.data.secret.slice(0, 9) }));

    const me = await app.http.get('/api/auth/me').set(bearer(res.body.data.secret));
    expect(me.body.data).toEqual({ user: { id: alice.id, username: alice.username, email: alice.email }, via: 'key' });
    const keys = await app.http.get('/api/keys').set(bearer(alice.jwt));
    expect(keys.body.data.keys.map((k) => k.id)).toContain(res.body.data.key.id);

    const again = expectFailure(await complete(deviceCode), 410, 'expired-token');
    expect(again.message).toMatch(/already been used/);
    expect(again.nextAction).toMatch(/Start again/);
  });

  it('issues one key even when the device polls twice at once after approval', async () => {
    const { deviceCode, userCode } = await start('racer');
    await decideLogin(app, bob, userCode, 'approve');
    const results = await Promise.all([complete(deviceCode), complete(deviceCode), complete(deviceCode)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410]);
    const keys = await app.http.get('/api/keys').set(bearer(bob.jwt));
    expect(keys.body.data.keys.filter((k) => k.name === 'racer')).toHaveLength(1);
  });

  it('answers 403 access-denied after the person denies, and keeps doing so', async () => {
    const { deviceCode, userCode } = await start();
    const decided = await decideLogin(app, alice, userCode, 'deny');
    expect(decided.status).toBe(200);
    expect(decided.text).toContain('Login denied');
    for (let i = 0; i < 2; i += 1) {
      const error = expectFailure(await complete(deviceCode), 403, 'access-denied');
      expect(error.nextAction).toMatch(/Stop polling/);
    }
  });

  it('answers 410 expired-token once the login has expired, and the page no longer knows the code', async () => {
    const { deviceCode, userCode } = await start('late');
    await app.strapi.db.query('plugin::quire.cli-login').updateMany({ where: { name: 'late' }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const error = expectFailure(await complete(deviceCode), 410, 'expired-token');
    expect(error.message).toMatch(/expired/);
    expect(error.nextAction).toMatch(/Start again/);

    const agent = await signIn(app, alice);
    const page = await agent.get(`/cli/login?code=${userCode}`);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This code has expired');
    expect(page.text).not.toContain('Approve');
  });
});

describe('the approval page', () => {
  it('asks a stranger to sign in, with a strict CSP, no script and no caching', async () => {
    const res = await browser(app).get('/cli/login?code=BCDF-GHJK');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const csp = res.headers['content-security-policy'];
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/form-action 'self'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|script-src/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.text).toContain('Sign in to connect a device');
    expect(res.text).not.toMatch(/<script/i);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(res.text).toContain(`<style nonce="${nonce}">`);
    const csrfCookie = res.headers['set-cookie'].find((c: string) => c.startsWith('quire_csrf='));
    expect(csrfCookie).toMatch(/HttpOnly/);
    expect(csrfCookie).toMatch(/SameSite=Strict/);
  });

  it('signs in with users-permissions credentials and sets the quire_session cookie', async () => {
    const agent = browser(app);
    const page = await agent.get('/cli/login');
    const wrong = await agent.post('/cli/login/session').type('form').send({ csrf: csrfOf(page.text), identifier: alice.email, password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong username, email or password.');
    expect(wrong.headers['set-cookie']?.some((c: string) => c.startsWith('quire_session=')) ?? false).toBe(false);
    // Wrong passwords count per address and identifier (10) and per address (50) in 15 minutes.
    const SIGN_IN_POLICY = '"cli-sign-in";q=10;w=900, "cli-sign-in-ip";q=50;w=900';
    expect(wrong.headers['ratelimit-policy']).toBe(SIGN_IN_POLICY);
    expect(wrong.headers.ratelimit).toMatch(/^"cli-sign-in";r=9;t=\d+, "cli-sign-in-ip";r=\d+;t=\d+$/);

    const res = await agent.post('/cli/login/session').type('form').send({ csrf: csrfOf(wrong.text), identifier: alice.email, password: PASSWORD, code: 'bcdf-ghjk' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/cli/login?code=bcdf-ghjk');
    // A right password forgets the wrong ones of this identifier (not of the address).
    expect(res.headers['ratelimit-policy']).toBe(SIGN_IN_POLICY);
    expect(res.headers.ratelimit).toMatch(/^"cli-sign-in";r=10;t=0, "cli-sign-in-ip";r=\d+;t=\d+$/);
    const cookie = res.headers['set-cookie'].find((c: string) => c.startsWith('quire_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // PUBLIC_URL is http here
    const session = /^quire_session=([^;]+)/.exec(cookie)![1];
    const me = await app.http.get('/api/auth/me').set('Cookie', `quire_session=${session}`);
    expect(me.body.data).toEqual({ user: { id: alice.id, username: alice.username, email: alice.email }, via: 'session' });

    const signedIn = await agent.get('/cli/login');
    expect(signedIn.text).toContain('Enter the code shown in your terminal');
    expect(signedIn.text).toContain(`Signed in as <strong>${alice.username}</strong>`);
  });

  it('shows the device name and code, escaped, before asking to approve', async () => {
    const { userCode } = await start('<script>alert(1)</script> & "co"');
    const agent = await signIn(app, alice);
    const page = await agent.get(`/cli/login?code=${userCode.toLowerCase().replace('-', ' ')}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(userCode);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;');
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('Approve this device?');
  });

  it('refuses a decision without a valid CSRF token or from another origin', async () => {
    const { deviceCode, userCode } = await start();
    const agent = await signIn(app, alice);
    const page = await agent.get(`/cli/login?code=${userCode}`);
    const csrf = csrfOf(page.text);
    const none = await agent.post('/cli/login/decision').type('form').send({ code: userCode, decision: 'approve' });
    expect(none.status).toBe(403);
    expect(none.text).toContain('This form has expired');
    const forged = await agent.post('/cli/login/decision').type('form').send({ csrf: csrf.slice(0, -2) + 'xx', code: userCode, decision: 'approve' });
    expect(forged.status).toBe(403);
    const crossSite = await agent.post('/cli/login/decision').set('Origin', 'https://evil.example').type('form').send({ csrf, code: userCode, decision: 'approve' });
    expect(crossSite.status).toBe(403);
    // Another browser's token is no good with this browser's cookie.
    const other = browser(app);
    const otherPage = await other.get('/cli/login');
    const mixed = await agent.post('/cli/login/decision').type('form').send({ csrf: csrfOf(otherPage.text), code: userCode, decision: 'approve' });
    expect(mixed.status).toBe(403);
    expectFailure(await complete(deviceCode), 400, 'authorization-pending');
  });

  it('will not approve without a session', async () => {
    const { deviceCode, userCode } = await start();
    const agent = browser(app);
    const page = await agent.get(`/cli/login?code=${userCode}`);
    const res = await agent.post('/cli/login/decision').type('form').send({ csrf: csrfOf(page.text), code: userCode, decision: 'approve' });
    expect(res.status).toBe(401);
    expect(res.text).toContain('Sign in first.');
    expectFailure(await complete(deviceCode), 400, 'authorization-pending');
  });

  it('signs out', async () => {
    const agent = await signIn(app, bob);
    const page = await agent.get('/cli/login');
    const res = await agent.post('/cli/login/sign-out').type('form').send({ csrf: csrfOf(page.text) });
    expect(res.status).toBe(303);
    expect(res.headers['set-cookie'].find((c: string) => c.startsWith('quire_session='))).toMatch(/Max-Age=0/);
    const after = await agent.get('/cli/login');
    expect(after.text).toContain('Sign in to connect a device');
  });

  it('says "already used" when an approved or denied link is opened again, without counting it as a wrong code', async () => {
    const approved = await start('approved once');
    expect((await decideLogin(app, alice, approved.userCode, 'approve')).text).toContain('Device connected');
    const denied = await start('denied once');
    expect((await decideLogin(app, alice, denied.userCode, 'deny')).text).toContain('Login denied');
    const agent = await signIn(app, alice);
    for (let i = 0; i < 4; i += 1) {
      for (const { userCode } of [approved, denied]) {
        const again = await agent.get(`/cli/login?code=${encodeURIComponent(userCode)}`);
        expect(again.status).toBe(410);
        expect(again.text).toContain('This code was already used');
        expect(again.text).not.toContain('Approve this device?');
      }
    }
    // A decision posted for a used code changes nothing and is not counted either.
    const page = await agent.get('/cli/login');
    const post = await agent.post('/cli/login/decision').type('form').send({ csrf: csrfOf(page.text), code: approved.userCode, decision: 'deny' });
    expect(post.status).toBe(410);
    // Nine re-openings later, code entry is not locked: a fresh code still opens.
    const fresh = await start('after re-openings');
    expect((await agent.get(`/cli/login?code=${fresh.userCode}`)).text).toContain('Approve this device?');
  });

  it('locks code entry after more than 5 submitted wrong codes, even for a right one', async () => {
    const { deviceCode, userCode } = await start('locked out');
    const agent = await signIn(app, bob);
    const submit = async (code: string) => {
      const form = await agent.get('/cli/login');
      return agent.post('/cli/login').type('form').send({ csrf: csrfOf(form.text), code });
    };
    for (let i = 0; i < 5; i += 1) {
      const wrong = await submit(`BBBB-BBB${'CDFGH'[i]}`);
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('That code is not valid');
    }
    const sixth = await submit('not-a-code');
    expect(sixth.status).toBe(429);
    expect(sixth.text).toContain('Too many wrong codes');
    // The login page's limits are told in the RateLimit headers too (both limits it checks).
    expect(sixth.headers['ratelimit-policy']).toMatch(/^"cli-user-code";q=\d+;w=\d+, "cli-user-code-ip";q=\d+;w=\d+$/);
    expect(sixth.headers.ratelimit).toMatch(/^"cli-user-code";r=0;t=\d+/);
    const right = await submit(userCode);
    expect(right.status).toBe(429);
    const page = await agent.get('/cli/login');
    const post = await agent.post('/cli/login/decision').type('form').send({ csrf: csrfOf(page.text), code: userCode, decision: 'approve' });
    expect(post.status).toBe(429);
    expectFailure(await complete(deviceCode), 400, 'authorization-pending');
  });
});
