/**
 * Threads from the canvas (/quire/articles/{id}/threads, CONTRACT 24, issue 35): an editor
 * reads an agent's thread, replies, resolves and reopens it, and opens one on text of a
 * section, through the content API's threads service, as the editor (`by.kind` editor), the
 * article staying its owner's. Reading needs `plugin::quire.read`, commenting `edit`. The
 * articles list counts each article's open threads, in one query for the page.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { client, type Client } from '../helpers/articles';
import { createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let token: string;
let agent: Client;
let articleId: string;
let anchors: string[];

const admin = () => adminBearer(token);
const base = () => `/quire/articles/${articleId}`;
const api = () => `/api/articles/${articleId}`;
const EDITOR = { kind: 'editor', name: 'Chief Tester' };

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true' });
  token = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
  const ada = await registerUser(app, 'ada');
  agent = client(app, await createKey(app, ada, 'agent'));
  const res = await agent.post('/api/articles', { title: 'Engines', markdown: '# One\n\nThe engine weaves algebraic patterns.\n\n# Two\n\nAs the loom weaves flowers, the loom.' });
  expect(res.status).toBe(201);
  articleId = res.body.data.article.id;
  anchors = res.body.data.outline.map((s) => s.anchor);
});
afterAll(() => app?.close());

describe('threads in the canvas', () => {
  it('lists an agent\'s thread, and the editor replies, resolves and reopens it as the editor', async () => {
    const made = await agent.post(`${api()}/threads`, { section: anchors[0], quote: 'algebraic patterns', body: 'Which patterns?' });
    expect(made.status).toBe(201);
    const { anchor } = made.body.data.thread;

    const list = await app.http.get(`${base()}/threads`).set(admin());
    expect(list.status).toBe(200);
    expect(list.body.data.threads).toEqual([expect.objectContaining({ anchor, section: anchors[0], quote: 'algebraic patterns', status: 'open', detached: false })]);
    // The same answer as the content API's.
    expect((await agent.get(`${api()}/threads`)).body.data).toEqual(list.body.data);

    const replied = await app.http.post(`${base()}/threads/${anchor}/comments`).set(admin()).send({ body: 'The **Bernoulli** ones.' });
    expect(replied.status).toBe(201);
    expect(replied.body.data.comment).toEqual(expect.objectContaining({ body: 'The **Bernoulli** ones.', by: EDITOR }));
    expect(replied.body.data.comment.html).toContain('<strong>Bernoulli</strong>');

    const resolved = await app.http.post(`${base()}/threads/${anchor}/resolve`).set(admin());
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.thread).toEqual(expect.objectContaining({ status: 'resolved', resolvedBy: EDITOR }));
    expect((await app.http.get(`${base()}/threads?status=open`).set(admin())).body.data.threads).toEqual([]);

    const reopened = await app.http.post(`${base()}/threads/${anchor}/reopen`).set(admin());
    expect(reopened.status).toBe(200);
    expect(reopened.body.data.thread.status).toBe('open');
    const seen = (await agent.get(`${api()}/threads/${anchor}`)).body.data.thread;
    expect(seen.comments.map((c) => [c.by.kind, c.body])).toEqual([
      ['agent', 'Which patterns?'],
      ['editor', 'The **Bernoulli** ones.'],
    ]);
  });

  it('opens a thread on the editor\'s selection (its occurrence), and refuses a quote the section lacks with 400', async () => {
    const made = await app.http.post(`${base()}/threads`).set(admin()).send({ section: anchors[1], quote: 'the loom', occurrence: 2, body: 'Said twice.' });
    expect(made.status).toBe(201);
    const { thread } = made.body.data;
    expect(thread).toEqual(expect.objectContaining({ section: anchors[1], quote: 'the loom', status: 'open', by: EDITOR }));
    const text = 'Two\n\nAs the loom weaves flowers, the loom.';
    expect(thread.start).toBe(text.lastIndexOf('the loom'));
    expect((await agent.get(`${api()}/threads/${thread.anchor}`)).body.data.thread.comments[0]).toEqual(expect.objectContaining({ body: 'Said twice.', by: EDITOR }));

    const missing = await app.http.post(`${base()}/threads`).set(admin()).send({ section: anchors[1], quote: 'not there', body: 'Hm.' });
    expect(missing.status).toBe(400);
    expect((await agent.get(`${api()}/threads`)).body.data.threads).toHaveLength(2);
  });

  it('needs plugin::quire.read to read and edit to comment', async () => {
    const before = (await agent.get(`${api()}/threads`)).body.data.threads;
    const thread = before[0].anchor;
    const none = adminBearer(await adminToken(app, await createAdmin(app, 'strapi-editor', 'editor')));
    for (const call of [
      app.http.get(`${base()}/threads`),
      app.http.post(`${base()}/threads`).send({ section: anchors[0], quote: 'engine', body: 'x' }),
      app.http.post(`${base()}/threads/${thread}/comments`).send({ body: 'x' }),
      app.http.post(`${base()}/threads/${thread}/resolve`),
      app.http.post(`${base()}/threads/${thread}/reopen`),
    ]) {
      const res = await call.set(none);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ data: null, error: expect.objectContaining({ status: 403 }) });
    }

    const { id: authorRole } = await app.strapi.db.query('admin::role').findOne({ where: { code: 'strapi-author' } });
    const current = await app.http.get(`/admin/roles/${authorRole}/permissions`).set(admin());
    const permissions = current.body.data.map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
    const granted = await app.http
      .put(`/admin/roles/${authorRole}/permissions`)
      .set(admin())
      .send({ permissions: [...permissions, { action: 'plugin::quire.read', subject: null, properties: {}, conditions: [] }] });
    expect(granted.status).toBe(200);
    const reader = adminBearer(await adminToken(app, await createAdmin(app, 'strapi-author', 'author')));
    expect((await app.http.get(`${base()}/threads`).set(reader)).status).toBe(200);
    expect((await app.http.post(`${base()}/threads/${thread}/comments`).set(reader).send({ body: 'x' })).status).toBe(403);
    expect((await app.http.post(`${base()}/threads/${thread}/resolve`).set(reader)).status).toBe(403);
    expect((await app.http.post(`${base()}/threads`).set(reader).send({ section: anchors[0], quote: 'engine', body: 'x' })).status).toBe(403);
    // Nothing written by the refused calls.
    expect((await agent.get(`${api()}/threads`)).body.data.threads).toEqual(before);
  });
});

describe('the articles list', () => {
  it('counts each article\'s open threads (resolved ones not), with one query of the threads for the whole page', async () => {
    const made = await agent.post('/api/articles', { title: 'Counted threads', markdown: '# A\n\nOne two three four.' });
    const id = made.body.data.article.id;
    const section = made.body.data.outline[0].anchor;
    const quiet = (await agent.post('/api/articles', { title: 'Counted none', markdown: '# B\n\nNothing said.' })).body.data.article.id;
    const open = async (quote: string) => (await agent.post(`/api/articles/${id}/threads`, { section, quote, body: 'Why?' })).body.data.thread.anchor;
    await open('One');
    await open('two');
    const done = await open('three');
    expect((await agent.post(`/api/articles/${id}/threads/${done}/resolve`)).status).toBe(200);

    const threadQueries: string[] = [];
    const spy = (q: { sql: string }) => {
      if (/quire_threads/.test(q.sql)) threadQueries.push(q.sql);
    };
    app.strapi.db.connection.on('query', spy);
    const list = await app.http.get('/quire/articles?pageSize=100').set(admin());
    app.strapi.db.connection.off('query', spy);
    expect(list.status).toBe(200);
    const counts = Object.fromEntries(list.body.data.map((a: { id: string; openThreads: number }) => [a.id, a.openThreads]));
    // The first suite's article keeps the threads its tests left open.
    expect(counts).toMatchObject({ [id]: 2, [quiet]: 0, [articleId]: (await agent.get(`${api()}/threads?status=open`)).body.data.threads.length });
    expect(list.body.data.length).toBeGreaterThanOrEqual(3);
    expect(threadQueries).toHaveLength(1);

    expect((await app.http.get(`/quire/articles/${id}`).set(admin())).body.data.openThreads).toBe(2);
    expect((await agent.post(`/api/articles/${id}/threads/${done}/reopen`)).status).toBe(200);
    expect((await app.http.get(`/quire/articles/${id}`).set(admin())).body.data.openThreads).toBe(3);
  });
});
