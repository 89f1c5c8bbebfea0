/**
 * Editors own articles under their own name (issue 36 point 2): `owner: "me"` in
 * POST /quire/articles makes the signed-in admin's own user on first use (their email, a
 * username from their name) and reuses it after; GET /quire/me/user says which it is;
 * `?owner=me` lists their articles. An existing user with the admin's email that Quire did not
 * make is not taken over.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let chief: string;
let chiefEmail: string;

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true' });
  const admin = await createAdmin(app, 'strapi-super-admin', 'chief');
  chiefEmail = admin.email;
  chief = await adminToken(app, admin);
});
afterAll(() => app?.close());

const as = (token: string) => ({
  get: (path: string) => app.http.get(path).set(adminBearer(token)),
  post: (path: string, body: object) => app.http.post(path).set(adminBearer(token)).send(body),
});

it('an admin writes under their own name: a user made on first use, reused after, their articles under owner=me', async () => {
  const before = await as(chief).get('/quire/me/user');
  expect(before.status).toBe(200);
  expect(before.body.data).toBeNull();
  expect((await as(chief).get('/quire/articles?owner=me')).body.data).toEqual([]);

  const first = await as(chief).post('/quire/articles', { title: 'My own essay', owner: 'me' });
  expect(first.status).toBe(201);
  const me = first.body.data.owner;
  expect(me).toEqual(expect.objectContaining({ email: chiefEmail.toLowerCase(), username: expect.any(String) }));
  expect((await as(chief).get('/quire/me/user')).body.data).toEqual(me);

  const second = await as(chief).post('/quire/articles', { title: 'Another of mine', owner: 'me' });
  expect(second.body.data.owner).toEqual(me);

  // Someone else's article is not among "mine".
  const agentKey = await createKey(app, await registerUser(app, 'ada'));
  const theirs = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Ada wrote this' });
  expect(theirs.status).toBe(201);
  const mine = await as(chief).get('/quire/articles?owner=me');
  expect(mine.body.data.map((a) => a.title).sort()).toEqual(['Another of mine', 'My own essay']);
  expect((await as(chief).get('/quire/articles')).body.data.map((a) => a.title)).toContain('Ada wrote this');

  // It is an ordinary user: the article reads through the content API with a key of it.
  const user = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: me.id }, populate: ['role'] });
  expect(user).toEqual(expect.objectContaining({ confirmed: true, blocked: false, provider: 'local' }));
  expect(user.role.type).toBe('authenticated');
});

it('another admin gets their own user; an existing user with the admin\'s email is not taken over', async () => {
  const other = await createAdmin(app, 'strapi-super-admin', 'second');
  const otherToken = await adminToken(app, other);
  // A users-permissions account registered with that admin's address, by anyone.
  const squatter = await app.http.post('/api/auth/local/register').send({ username: 'squatter', email: other.email, password: 'a long passphrase' });
  expect(squatter.status).toBe(200);
  const refused = await as(otherToken).post('/quire/articles', { title: 'Mine?', owner: 'me' });
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toContain('"squatter"');
  expect(refused.body.error.details.nextAction).toContain('Pick "squatter" as the owner');
  expect((await as(otherToken).get('/quire/me/user')).body.data).toBeNull();
  // The chief's own user is still theirs alone.
  expect((await as(otherToken).get('/quire/articles?owner=me')).body.data).toEqual([]);
});

it('refuses an owner that is neither a user id nor "me"', async () => {
  const res = await as(chief).post('/quire/articles', { title: 'Whose?', owner: 'you' });
  expect(res.status).toBe(400);
  expect(res.body.error.message).toContain('owner');
});
