/**
 * The live canvas's channel (CONTRACT 19): a Node HocuspocusProvider (what the canvas runs)
 * against the in-process Strapi: admin session and Quire RBAC before any document is loaded,
 * typing stored without any action, agents' writes merged live, delete while typing, presence,
 * and what bad input gets.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { connectLive, liveUrl, sectionText, typeInto, until, type LiveClient } from '../helpers/live';
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let url: string;
let chief: string;
let agentKey: string;
let articleId: string;
let ids: string[];
let anchors: string[];
const clients: LiveClient[] = [];

const open = async (token = chief, name = 'Chief Tester') => {
  const client = await connectLive(url, articleId, token, { name });
  clients.push(client);
  return client;
};
const stored = async (sectionId: string) => {
  const k = app.strapi.db.connection;
  return k('quire_sections').where({ uuid: sectionId }).first(['html', 'rev', 'by_kind', 'by_name', 'source']);
};

/** The stored section ids in order (what the live document's `order` holds). */
const sectionIds = async () => {
  const k = app.strapi.db.connection;
  const article = await k('quire_articles').where({ uuid: articleId }).first('id');
  const rows = await k('quire_sections').where({ article_id: article.id }).select(['uuid', 'rank']);
  return rows.sort((a, b) => (a.rank < b.rank ? -1 : 1)).map((r) => r.uuid as string);
};

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', PUBLIC_URL: 'http://127.0.0.1:1337' });
  url = await liveUrl(app);
  chief = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
  const ada = await registerUser(app, 'ada');
  agentKey = await createKey(app, ada, 'Scribe');
  const res = await app.http
    .post('/api/articles')
    .set(bearer(agentKey))
    .send({ title: 'Engines', markdown: '# One\n\nThe engine weaves.\n\n# Two\n\nAs the loom.\n\n# Three\n\nFlowers.', premise: 'Why engines' });
  expect(res.status).toBe(201);
  articleId = res.body.data.article.id;
  anchors = res.body.data.outline.map((s) => s.anchor);
  ids = await sectionIds();
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  await app?.close();
});

describe('who may connect', () => {
  it('refuses a connection without a valid admin session before loading the document', async () => {
    await expect(connectLive(url, articleId, 'not-a-token')).rejects.toThrow(/session/i);
    await expect(connectLive(url, articleId, '')).rejects.toThrow();
    expect(app.strapi.plugin('quire').service('live').channel().hocuspocus.documents.size).toBe(0);
  });

  it('refuses an admin whose role has no Quire read permission, and an article that does not exist', async () => {
    const author = await adminToken(app, await createAdmin(app, 'strapi-author', 'author'));
    await expect(connectLive(url, articleId, author)).rejects.toThrow(/may not read/);
    await expect(connectLive(url, '00000000-0000-4000-8000-000000000000', chief)).rejects.toThrow(/does not exist/);
    expect(app.strapi.plugin('quire').service('live').channel().hocuspocus.documents.size).toBe(0);
  });

  it('builds the document from the stored article: order, sections, premise', async () => {
    const client = await open();
    expect(client.doc.getArray('order').toArray()).toEqual(ids);
    expect(sectionText(client.doc, ids[0])).toContain('The engine weaves.');
    expect(client.doc.getText('premise').toString()).toBe('Why engines');
    client.destroy();
    // Nobody has it open: it is unloaded.
    await until(() => app.strapi.plugin('quire').service('live').channel().hocuspocus.documents.size === 0);
  });
});

describe('typing is stored without any action', () => {
  it('reaches the stored section as html by the editor, with a new ETag, and one revision per burst', async () => {
    const before = await app.http.get(`/api/articles/${articleId}/sections/${anchors[1]}`).set(bearer(agentKey));
    const client = await open();
    typeInto(client.doc, ids[1], 0, 0, 'Typed live. ');
    await until(async () => (await stored(ids[1])).html.includes('Typed live.'));
    const row = await stored(ids[1]);
    expect(row).toEqual(expect.objectContaining({ by_kind: 'editor', by_name: 'Chief Tester', source: 'html' }));
    const after = await app.http.get(`/api/articles/${articleId}/sections/${anchors[1]}`).set(bearer(agentKey));
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // The agent's old ETag is refused.
    const stale = await app.http.patch(`/api/articles/${articleId}/sections/${anchors[1]}`).set(bearer(agentKey)).set('If-Match', before.headers.etag).send({ markdown: '# Two\n\nNope.' });
    expect(stale.status).toBe(412);

    // A second burst by the same editor within QUIRE_HISTORY_COALESCE_S: no new revision kept.
    const revisionsBefore = (await app.http.get(`/api/articles/${articleId}/sections/${anchors[1]}/revisions`).set(bearer(agentKey))).body.data.revisions.length;
    typeInto(client.doc, ids[1], 0, 0, 'Again. ');
    await until(async () => (await stored(ids[1])).html.includes('Again.'));
    const revisionsAfter = (await app.http.get(`/api/articles/${articleId}/sections/${anchors[1]}/revisions`).set(bearer(agentKey))).body.data.revisions.length;
    expect(revisionsAfter).toBe(revisionsBefore);
    client.destroy();
  });
});
