/**
 * The article record's public side (issue 36 point 4): `publicUrl` names the public page while
 * the article is published (null as a draft), on every door that returns the record; an article
 * back from the trash is a draft that was never published as far as the record says
 * (`publishedAt` null), and publishing it again keeps its address.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

const PUBLIC_URL = 'https://quire.example/blog';
let app: TestApp;
let agentKey: string;
let token: string;

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', PUBLIC_URL });
  agentKey = await createKey(app, await registerUser(app, 'ada'), 'agent');
  token = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
});
afterAll(() => app?.close());

const agent = {
  get: (path: string) => app.http.get(path).set(bearer(agentKey)),
  post: (path: string, body: object = {}) => app.http.post(path).set(bearer(agentKey)).send(body),
  del: (path: string) => app.http.delete(path).set(bearer(agentKey)),
};
const ok = (res: { status: number; body: any }, status = 200) => {
  expect([res.status, res.body.success]).toEqual([status, true]);
  return res.body.data;
};
/** The record as each reading door shows it: GET /api/articles/{id} and the list. */
async function recordsOf(id: string) {
  const read = ok(await agent.get(`/api/articles/${id}`)).article;
  const listed = ok(await agent.get('/api/articles?limit=100')).articles.find((a) => a.id === id);
  return [read, listed];
}

it('publicUrl: null as a draft, the public page while published, null again after unpublishing', async () => {
  const created = ok(await agent.post('/api/articles', { title: 'Tide tables', markdown: '# High\n\nTwice a day.' }), 201).article;
  expect(created).toEqual(expect.objectContaining({ status: 'draft', publishedAt: null, publicUrl: null }));
  const id = created.id;
  for (const record of await recordsOf(id)) expect(record).toEqual(expect.objectContaining({ publicUrl: null }));

  const published = ok(await agent.post(`/api/articles/${id}/publish`));
  expect(published.url).toBe(`${PUBLIC_URL}/p/tide-tables`);
  expect(published.article.publicUrl).toBe(published.url);
  for (const record of await recordsOf(id)) expect(record).toEqual(expect.objectContaining({ status: 'published', publicUrl: published.url }));
  // The address answers (the proxy strips PUBLIC_URL's path).
  expect((await app.http.get(new URL(published.url).pathname.replace('/blog', ''))).status).toBe(200);

  const unpublished = ok(await agent.del(`/api/articles/${id}/publish`)).article;
  expect(unpublished).toEqual(expect.objectContaining({ status: 'draft', publicUrl: null, publishedAt: published.article.publishedAt }));
  for (const record of await recordsOf(id)) expect(record.publicUrl).toBeNull();
});

it('an article restored from the trash is a draft with publishedAt null; republished, it keeps its address', async () => {
  const id = ok(await agent.post('/api/articles', { title: 'Lost and found', markdown: 'Text.' }), 201).article.id;
  const published = ok(await agent.post(`/api/articles/${id}/publish`));
  expect(published.article.publishedAt).toEqual(expect.any(String));

  expect((await app.http.delete(`/quire/articles/${id}`).set(adminBearer(token))).status).toBe(200);
  expect((await app.http.post(`/quire/trash/${id}/restore`).set(adminBearer(token))).status).toBe(200);

  for (const record of await recordsOf(id)) expect(record).toEqual(expect.objectContaining({ status: 'draft', publishedAt: null, publicUrl: null }));
  const adminRead = await app.http.get(`/quire/articles/${id}`).set(adminBearer(token));
  expect(adminRead.status).toBe(200);
  const admin = adminRead.body.data;
  expect(admin).toEqual(expect.objectContaining({ status: 'draft', publishedAt: null, publicUrl: null, changedSincePublished: false }));

  const again = ok(await agent.post(`/api/articles/${id}/publish`));
  expect(again.url).toBe(published.url);
  expect(again.article).toEqual(expect.objectContaining({ status: 'published', publicUrl: published.url }));
});
