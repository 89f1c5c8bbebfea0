/**
 * API key scopes and expiry (CONTRACT section 14, the key part), and who may manage keys
 * (issue 11 item 13): a `read` key is refused every write, a `suggest` key every write but the
 * section writes (which become suggestions), an expired key is 401 like
 * a revoked one, and only a login (JWT, session, or the key of `quire login`) creates and revokes keys.
 */
import path from 'node:path';
import { client, newArticle } from '../helpers/articles';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let ada: TestUser;
beforeAll(async () => {
  app = await startApp();
  ada = await registerUser(app, 'ada');
});
afterAll(() => app?.close());

const future = () => new Date(Date.now() + 3_600_000).toISOString();

async function keyWith(body: Record<string, unknown>) {
  const res = await app.http.post('/api/keys').set(bearer(ada.jwt)).send({ name: 'scoped', ...body });
  expect(res.status).toBe(201);
  return res.body.data as { key: Record<string, unknown> & { id: string }; secret: string };
}

/** Every declared write route that takes an API key, with its path parameters filled in. */
function writeRoutes(articleId: string): Array<{ method: string; path: string; id: string }> {
  const { declaredRoutes } = require(path.resolve(__dirname, '../../dist/src/kernel/routes'));
  return declaredRoutes(app.strapi)
    .filter((r: any) => r.access === 'write' && r.credentials.includes('api-key'))
    .map((r: any) => ({
      id: r.id,
      method: r.method,
      path: r.path.replace(':id', articleId).replace(/:[A-Za-z]+/g, 'abcdef12'),
    }));
}

describe('creating keys with a scope and an expiry', () => {
  it('defaults to scope write and no expiry, and lists both', async () => {
    const { key } = await keyWith({});
    expect(key).toMatchObject({ scope: 'write', expiresAt: null });
    const expiresAt = future();
    const { key: read } = await keyWith({ scope: 'read', expiresAt });
    expect(read).toMatchObject({ scope: 'read', expiresAt: new Date(expiresAt).toISOString() });
    const list = (await app.http.get('/api/keys').set(bearer(ada.jwt))).body.data.keys;
    expect(list.find((k: { id: string }) => k.id === read.id)).toMatchObject({ scope: 'read', expiresAt: new Date(expiresAt).toISOString() });
    expect(list.find((k: { id: string }) => k.id === key.id)).toMatchObject({ scope: 'write', expiresAt: null });
  });

  it('refuses a scope that is not write, suggest or read (400)', async () => {
    for (const scope of ['admin', 'WRITE', '', 3]) {
      const res = await app.http.post('/api/keys').set(bearer(ada.jwt)).send({ scope });
      const error = expectFailure(res, 400, 'invalid-argument');
      expect(error.message).toMatch(/scope must be one of write, suggest, read/);
      expect(error.nextAction).toMatch(/scope/);
    }
  });

  it('refuses an expiresAt in the past or not an ISO time (400)', async () => {
    const past = expectFailure(await app.http.post('/api/keys').set(bearer(ada.jwt)).send({ expiresAt: '2001-01-01T00:00:00Z' }), 400, 'invalid-argument');
    expect(past.message).toMatch(/expiresAt .* is in the past/);
    expect(past.nextAction).toMatch(/future/);
    for (const expiresAt of ['tomorrow', '2030-01-01', 12345, '2030-13-45T00:00:00Z']) {
      const error = expectFailure(await app.http.post('/api/keys').set(bearer(ada.jwt)).send({ expiresAt }), 400, 'invalid-argument');
      expect(error.message).toMatch(/expiresAt/);
    }
  });
});

describe('a read key', () => {
  it('reads, and gets 403 permission-denied on every write route', async () => {
    const { secret } = await keyWith({ scope: 'read' });
    const article = await newArticle(client(app, ada.jwt), { title: 'Read me', markdown: '# One\n\nText.' });
    const reader = client(app, secret);
    expect((await reader.get(`/api/articles/${article.article.id}`)).status).toBe(200);
    expect((await reader.get('/api/keys')).status).toBe(200);
    const routes = writeRoutes(article.article.id);
    expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(['quire.sections.add', 'quire.notes.create', 'quire.keys.create', 'quire.publications.publish']));
    for (const route of routes) {
      const res = await app.http[route.method.toLowerCase() as 'post'](route.path).set(bearer(secret)).send({});
      const error = expectFailure(res, 403, 'permission-denied');
      expect(error.message).toMatch(/scope \(read\)/);
      expect(error.nextAction).toMatch(/scope "write"/);
    }
    // Nothing changed.
    expect((await reader.get(`/api/articles/${article.article.id}/outline`)).body.data.outline).toHaveLength(1);
  });
});

describe('a suggest key', () => {
  it('reads; its section writes become suggestions (202), every other write is refused', async () => {
    const { secret } = await keyWith({ scope: 'suggest' });
    const article = await newArticle(client(app, ada.jwt), { title: 'Suggest', markdown: '# One\n\nText.' });
    const id = article.article.id;
    const anchor = article.outline[0].anchor;
    const suggester = client(app, secret);
    expect((await suggester.get(`/api/articles/${id}/sections/${anchor}`)).status).toBe(200);
    const suggested = [
      suggester.post(`/api/articles/${id}/sections`, { markdown: '# Two' }),
      suggester.patch(`/api/articles/${id}/sections/${anchor}`, { markdown: '# One\n\nChanged.' }),
      suggester.del(`/api/articles/${id}/sections/${anchor}`),
    ];
    for (const res of await Promise.all(suggested)) {
      expect(res.status).toBe(202);
      expect(res.body.data.suggestion.status).toBe('pending');
    }
    const refused = [
      suggester.post(`/api/articles/${id}/notes`, { kind: 'idea', title: 'x' }),
      suggester.patch(`/api/articles/${id}/brief`, { premise: 'x' }),
      suggester.post(`/api/articles/${id}/publish`, {}),
      suggester.post('/api/keys', {}),
    ];
    for (const res of await Promise.all(refused)) expect(expectFailure(res, 403, 'permission-denied').message).toMatch(/scope \(suggest\)/);
    expect((await suggester.get(`/api/articles/${id}/sections/${anchor}`)).body.data.section.markdown).toBe('# One\n\nText.');
  });
});

describe('an expired key', () => {
  it('is 401 unauthenticated like a revoked one, saying it expired', async () => {
    const { key, secret } = await keyWith({ expiresAt: future() });
    expect((await app.http.get('/api/auth/me').set(bearer(secret))).status).toBe(200);
    // Time passes: the key's expiry is now behind us.
    await app.strapi.db.query('plugin::quire.api-key').update({ where: { documentId: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const error = expectFailure(await app.http.get('/api/auth/me').set(bearer(secret)), 401, 'unauthenticated');
    expect(error.message).toMatch(/expired/);
    expect(error.nextAction).toMatch(/quire keys create|POST \/api\/keys/);
  });
});

describe('who may create and revoke keys', () => {
  it('a JWT may; a key made with POST /api/keys may not create keys nor revoke another key (403)', async () => {
    const agentKey = await createKey(app, ada, 'agent');
    const other = await keyWith({});
    const created = expectFailure(await app.http.post('/api/keys').set(bearer(agentKey)).send({ name: 'minted' }), 403, 'permission-denied');
    expect(created.message).toMatch(/cannot create API keys/);
    expect(created.nextAction).toMatch(/login/);
    expectFailure(await app.http.delete(`/api/keys/${other.key.id}`).set(bearer(agentKey)), 403, 'permission-denied');
    expect((await app.http.get('/api/auth/me').set(bearer(other.secret))).status).toBe(200);
  });

  it('a key may revoke itself (log out)', async () => {
    const { key, secret } = await keyWith({});
    expect((await app.http.delete(`/api/keys/${key.id}`).set(bearer(secret))).body.data).toEqual({ id: key.id });
    expectFailure(await app.http.get('/api/auth/me').set(bearer(secret)), 401, 'unauthenticated');
  });

  it('the key of "quire login" (approved with the person\'s session) may create and revoke keys', async () => {
    const issued = await app.strapi.plugin('quire').service('keys').create(ada.id, { name: 'laptop', origin: 'login' });
    const other = await keyWith({});
    const res = await app.http.post('/api/keys').set(bearer(issued.secret)).send({ name: 'for an agent', scope: 'suggest' });
    expect(res.status).toBe(201);
    expect(res.body.data.key.scope).toBe('suggest');
    expect((await app.http.delete(`/api/keys/${other.key.id}`).set(bearer(issued.secret))).status).toBe(200);
    // The key it made is an ordinary key: it cannot make keys in turn.
    expectFailure(await app.http.post('/api/keys').set(bearer(res.body.data.secret)).send({}), 403, 'permission-denied');
  });
});
