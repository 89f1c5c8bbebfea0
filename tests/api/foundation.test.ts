import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { signIn } from '../helpers/cli-login';

let app: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app, 'alice');
  bob = await registerUser(app, 'bob');
});
afterAll(() => app?.close());

const isStrapiShape = (body: any) => body && typeof body === 'object' && 'data' in body && body.error && 'status' in body.error;

describe('envelope', () => {
  it('answers 401 unauthenticated in our envelope when no credential is sent', async () => {
    const res = await app.http.get('/api/auth/me');
    const error = expectFailure(res, 401, 'unauthenticated');
    expect(error.nextAction).toMatch(/Bearer/);
  });

  it('answers 400 invalid-argument for a malformed JSON body', async () => {
    const res = await app.http.post('/api/keys').set(bearer(alice.jwt)).set('Content-Type', 'application/json').send('{"name": ');
    expect(expectFailure(res, 400, 'invalid-argument').message).toMatch(/not valid JSON/);
  });

  it('answers 404 not-found for unknown routes under our prefixes and under /api', async () => {
    for (const path of ['/api/articles/x/y/z/w', '/api/keys/a/b', '/api/nothing-here', '/webhook', '/status/x']) {
      const res = await app.http.get(path).set(bearer(alice.jwt));
      expect(expectFailure(res, 404, 'not-found').message).toContain(path);
    }
  });

  it('answers 500 internal without leaking the error when a service throws', async () => {
    const keys = app.strapi.plugin('quire').service('keys');
    const original = keys.list;
    keys.list = async () => {
      throw new Error('SQLITE_ERROR: no such table secret_internal_table');
    };
    try {
      const res = await app.http.get('/api/keys').set(bearer(alice.jwt));
      const error = expectFailure(res, 500, 'internal');
      expect(JSON.stringify(res.body)).not.toMatch(/SQLITE|secret_internal_table|at \w+ \(/);
      expect(error.nextAction).toMatch(/Retry/);
    } finally {
      keys.list = original;
    }
  });

  it('never answers in Strapi\'s error shape on our routes, whatever the input', async () => {
    const attempts = [
      app.http.get('/api/keys'),
      app.http.get('/api/keys').set('Authorization', 'Basic abc'),
      app.http.get('/api/keys').set('Authorization', 'Bearer'),
      app.http.get('/api/keys').set('Authorization', 'Bearer qk_nope'),
      app.http.get('/api/keys').set('Authorization', 'Bearer not.a.jwt'),
      app.http.post('/api/keys').set(bearer(alice.jwt)).send([1, 2]),
      app.http.post('/api/keys').set(bearer(alice.jwt)).send({ name: 42 }),
      app.http.post('/api/keys').set(bearer(alice.jwt)).send({ name: 'x', extra: true }),
      app.http.post('/api/keys').set(bearer(alice.jwt)).set('Content-Type', 'application/json').send('nope'),
      app.http.delete('/api/keys/does-not-exist').set(bearer(alice.jwt)),
      app.http.put('/api/keys').set(bearer(alice.jwt)),
      app.http.get('/api/auth/me').set('Cookie', 'quire_session=garbage'),
    ];
    for (const res of await Promise.all(attempts)) {
      expect([res.req.method, res.req.path, res.status, res.body?.success]).toEqual([res.req.method, res.req.path, res.status, false]);
      expect(isStrapiShape(res.body)).toBe(false);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.error.code).toBe('string');
    }
  });

  it('names the wrong field in validation messages', async () => {
    const res = await app.http.post('/api/keys').set(bearer(alice.jwt)).send({ name: 42 });
    expect(expectFailure(res, 400, 'invalid-argument').message).toBe('name must be a string.');
    const extra = await app.http.post('/api/keys').set(bearer(alice.jwt)).send({ nmae: 'x' });
    expect(expectFailure(extra, 400, 'invalid-argument').message).toBe('Unknown field: nmae.');
  });
});

describe('credentials', () => {
  it('accepts a users-permissions JWT as a session', async () => {
    const res = await app.http.get('/api/auth/me').set(bearer(alice.jwt));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { user: { id: alice.id, username: alice.username, email: alice.email }, via: 'session' },
    });
  });

  it('accepts the quire_session cookie of a web session, not a JWT in its place', async () => {
    const res = await (await signIn(app, alice)).get('/api/auth/me');
    expect(res.status).toBe(200);
    expect((await app.http.get('/api/auth/me').set('Cookie', `quire_session=${alice.jwt}`)).status).toBe(401);
    expect(res.body.data).toMatchObject({ user: { id: alice.id }, via: 'session' });
  });

  it('accepts an API key, as via key', async () => {
    const secret = await createKey(app, alice);
    const res = await app.http.get('/api/auth/me').set(bearer(secret));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ user: { id: alice.id, username: alice.username, email: alice.email }, via: 'key' });
  });

  it('refuses a JWT signed with another secret, a tampered key and a blocked user', async () => {
    const [header, payload] = alice.jwt.split('.');
    const forged = `${header}.${payload}.${Buffer.from('forged-signature').toString('base64url')}`;
    expectFailure(await app.http.get('/api/auth/me').set(bearer(forged)), 401, 'unauthenticated');

    const secret = await createKey(app, alice);
    const tampered = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    expectFailure(await app.http.get('/api/auth/me').set(bearer(tampered)), 401, 'unauthenticated');

    const carol = await registerUser(app, 'carol');
    const carolKey = await createKey(app, carol);
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: carol.id }, data: { blocked: true } });
    expectFailure(await app.http.get('/api/auth/me').set(bearer(carolKey)), 401, 'unauthenticated');
    expectFailure(await app.http.get('/api/auth/me').set(bearer(carol.jwt)), 401, 'unauthenticated');
  });
});

describe('API keys', () => {
  it('creates a key shown once, lists records without secrets, and stores only a hash', async () => {
    const created = await app.http.post('/api/keys').set(bearer(alice.jwt)).send({ name: 'laptop' });
    expect(created.status).toBe(201);
    const { key, secret } = created.body.data;
    expect(secret).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(3), 'base64url')).toHaveLength(32);
    expect(Object.keys(key).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'scope']);
    expect(key).toMatchObject({ name: 'laptop', lastUsedAt: null });
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(12);
    expect(new Date(key.createdAt).toISOString()).toBe(key.createdAt);

    const listed = await app.http.get('/api/keys').set(bearer(alice.jwt));
    expect(listed.status).toBe(200);
    const record = listed.body.data.keys.find((k: any) => k.id === key.id);
    expect(record).toEqual(key);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const rows = await app.strapi.db.connection('quire_api_keys').select('*');
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows.some((row: any) => row.hash.length === 64)).toBe(true);
  });

  it('defaults the name and records lastUsedAt on use, throttled', async () => {
    const created = await app.http.post('/api/keys').set(bearer(alice.jwt)).send({});
    const { key, secret } = created.body.data;
    expect(key.name).toBe('API key');
    await app.http.get('/api/auth/me').set(bearer(secret)).expect(200);
    const first = (await app.http.get('/api/keys').set(bearer(alice.jwt))).body.data.keys.find((k: any) => k.id === key.id);
    expect(first.lastUsedAt).not.toBeNull();
    await app.http.get('/api/auth/me').set(bearer(secret)).expect(200);
    const second = (await app.http.get('/api/keys').set(bearer(alice.jwt))).body.data.keys.find((k: any) => k.id === key.id);
    expect(second.lastUsedAt).toBe(first.lastUsedAt);
  });

  it('revokes a key, after which it fails at once', async () => {
    const created = await app.http.post('/api/keys').set(bearer(alice.jwt)).send({ name: 'temp' });
    const { key, secret } = created.body.data;
    await app.http.get('/api/auth/me').set(bearer(secret)).expect(200);
    const revoked = await app.http.delete(`/api/keys/${key.id}`).set(bearer(secret));
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true, data: { id: key.id } });
    expectFailure(await app.http.get('/api/auth/me').set(bearer(secret)), 401, 'unauthenticated');
    expectFailure(await app.http.delete(`/api/keys/${key.id}`).set(bearer(alice.jwt)), 404, 'not-found');
  });

  it('keeps users apart: another user neither sees nor revokes a key (404)', async () => {
    const created = await app.http.post('/api/keys').set(bearer(alice.jwt)).send({ name: 'private' });
    const { key, secret } = created.body.data;
    const bobsList = await app.http.get('/api/keys').set(bearer(bob.jwt));
    expect(bobsList.body.data.keys.map((k: any) => k.id)).not.toContain(key.id);
    const attempt = await app.http.delete(`/api/keys/${key.id}`).set(bearer(bob.jwt));
    const missing = await app.http.delete('/api/keys/zzzzzzzzzzzzzzzzzzzzzzzz').set(bearer(bob.jwt));
    expectFailure(attempt, 404, 'not-found');
    expect(attempt.body.error.message.replace(key.id, 'ID')).toBe(missing.body.error.message.replace('zzzzzzzzzzzzzzzzzzzzzzzz', 'ID'));
    await app.http.get('/api/auth/me').set(bearer(secret)).expect(200);
  });

  it('walks the issue\'s path: register, key, me by key and by JWT, revoke, 401', async () => {
    const dave = await registerUser(app, 'dave');
    const created = await app.http.post('/api/keys').set(bearer(dave.jwt)).send({ name: 'cli' });
    const { key, secret } = created.body.data;
    expect((await app.http.get('/api/auth/me').set(bearer(secret))).body.data.via).toBe('key');
    expect((await app.http.get('/api/auth/me').set(bearer(dave.jwt))).body.data.via).toBe('session');
    await app.http.delete(`/api/keys/${key.id}`).set(bearer(dave.jwt)).expect(200);
    expectFailure(await app.http.get('/api/auth/me').set(bearer(secret)), 401, 'unauthenticated');
  });
});

describe('favicon', () => {
  it('serves the app icon instead of failing', async () => {
    const res = await app.http.get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/image/);
  });
});
