/**
 * Structure over the live document (issue 31 points 4 and 5, CONTRACT 22), with two Node live
 * clients (what the canvas runs) against the in-process Strapi. The clients make no HTTP request:
 * a section an agent adds, retitles, moves or deletes, its word count and the agent's presence
 * reach both through the document alone. A heading typed in a section splits it as an agent's
 * Markdown would be: GET .../outline shows the new section, a change set is recorded; a deeper
 * heading stays inside.
 */
import * as Y from 'yjs';
import { adminToken, createAdmin } from '../helpers/admin';
import { connectLive, liveUrl, sectionText, until, type LiveClient } from '../helpers/live';
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let url: string;
let chief: string;
let agentKey: string;
const clients: LiveClient[] = [];

interface Entry {
  anchor: string;
  level: number;
  title: string;
  words: number;
  source: string;
  rev: number;
}

const agent = (method: 'get' | 'post' | 'patch' | 'delete', path: string) => app.http[method](path).set(bearer(agentKey));
const outlineOf = (client: LiveClient) => client.doc.getMap<Entry>('outline').toJSON() as Record<string, Entry>;
const orderOf = (client: LiveClient) => client.doc.getArray<string>('order').toArray();
const titles = (client: LiveClient) => orderOf(client).map((id) => outlineOf(client)[id]?.title);

async function newArticle(markdown: string) {
  const res = await agent('post', '/api/articles').send({ title: 'Structure', markdown });
  expect(res.status).toBe(201);
  return { id: res.body.data.article.id as string, anchors: res.body.data.outline.map((s: { anchor: string }) => s.anchor) as string[] };
}
async function open(articleId: string, name: string) {
  const client = await connectLive(url, articleId, chief, { name });
  clients.push(client);
  return client;
}
const httpOutline = async (articleId: string) => (await agent('get', `/api/articles/${articleId}/outline`)).body.data.outline as Array<{ anchor: string; title: string; level: number; words: number }>;

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', PUBLIC_URL: 'http://127.0.0.1:1337' });
  url = await liveUrl(app);
  chief = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
  agentKey = await createKey(app, await registerUser(app, 'ada'), 'Scribe');
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  await app?.close();
});

it('an agent adds, retitles, moves and deletes sections: both open documents\' outlines follow, with word counts, and the agent is present', async () => {
  const { id, anchors } = await newArticle('# One\n\nThe engine weaves.\n\n# Two\n\nAs the loom.');
  const first = await open(id, 'Ann');
  const second = await open(id, 'Bo');
  // The document opens with the outline as GET .../outline has it.
  expect(titles(second)).toEqual(['One', 'Two']);
  expect(Object.values(outlineOf(second)).map((e) => e.anchor).sort()).toEqual([...anchors].sort());
  // The agent that created the article is present (a document opened after its write starts
  // with it), in no section: creating the article does not put its writer in one.
  expect(second.doc.getMap('presence').toJSON()).toEqual({ Scribe: expect.objectContaining({ kind: 'agent', name: 'Scribe', section: null }) });

  const added = await agent('post', `/api/articles/${id}/sections`).send({ markdown: '# Three\n\nFlowers and leaves grow here.', after: anchors[0] });
  expect(added.status).toBe(201);
  await until(() => titles(second).join() === 'One,Three,Two');
  const three = orderOf(second)[1];
  expect(outlineOf(second)[three]).toEqual({ anchor: added.body.data.added[0].anchor, level: 1, title: 'Three', words: 6, source: 'markdown', rev: 1 });
  expect(second.doc.getMap('presence').get('Scribe')).toEqual(expect.objectContaining({ kind: 'agent', name: 'Scribe', section: three, until: expect.any(Number) }));
  await until(() => titles(first).join() === 'One,Three,Two');

  const retitled = await agent('patch', `/api/articles/${id}/sections/${anchors[1]}`).send({ markdown: '# Two, renamed\n\nAs the loom, again and again.' });
  expect(retitled.status).toBe(200);
  await until(() => titles(second).includes('Two, renamed'));
  const two = orderOf(second)[2];
  expect(outlineOf(second)[two]).toEqual(expect.objectContaining({ title: 'Two, renamed', words: 8, rev: 2 }));

  const moved = await agent('post', `/api/articles/${id}/sections/${anchors[1]}/move`).send({ before: anchors[0] });
  expect(moved.status).toBe(200);
  await until(() => titles(second).join() === 'Two, renamed,One,Three');

  const deleted = await agent('delete', `/api/articles/${id}/sections/${anchors[0]}`);
  expect(deleted.status).toBe(200);
  await until(() => titles(second).join() === 'Two, renamed,Three');
  // A deleted section's entry goes (the map keeps the sections there are).
  expect(Object.keys(outlineOf(second)).sort()).toEqual([two, three].sort());
  await until(() => titles(first).join() === 'Two, renamed,Three');
});

it('a heading typed at the section\'s level splits it (stored, in GET .../outline, a change set recorded); a deeper one stays inside', async () => {
  const { id } = await newArticle('# One\n\nThe engine weaves.\n\n# Two\n\nAs the loom.');
  const typist = await open(id, 'Ann');
  const watcher = await open(id, 'Bo');
  const [oneId] = orderOf(typist);
  const fragment = typist.doc.getXmlFragment(`section:${oneId}`);
  const block = (name: string, text: string, attributes: Record<string, unknown> = {}) => {
    const element = new Y.XmlElement(name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value as string);
    element.insert(0, [new Y.XmlText(text)]);
    return element;
  };
  typist.doc.transact(() => fragment.insert(fragment.length, [block('heading', 'Deeper', { level: 2 }), block('paragraph', 'Stays inside.'), block('heading', 'Typed', { level: 1 }), block('paragraph', 'Text after the heading.')]));

  await until(async () => (await httpOutline(id)).length === 3, 15_000);
  const outline = await httpOutline(id);
  expect(outline.map((s) => [s.level, s.title])).toEqual([[1, 'One'], [1, 'Typed'], [1, 'Two']]);
  // Both documents: the first section ends before the heading, the new one holds it and the text after.
  await until(() => titles(watcher).join() === 'One,Typed,Two');
  const typedId = orderOf(watcher)[1];
  expect(sectionText(watcher.doc, oneId)).toBe('One\nThe engine weaves.\nDeeper\nStays inside.');
  expect(sectionText(watcher.doc, typedId)).toBe('Typed\nText after the heading.');
  await until(() => sectionText(typist.doc, typedId) === 'Typed\nText after the heading.' && !sectionText(typist.doc, oneId).includes('Typed'));
  expect(outlineOf(watcher)[typedId]).toEqual(expect.objectContaining({ title: 'Typed', level: 1, words: 5, source: 'html' }));

  const section = await agent('get', `/api/articles/${id}/sections/${outline[1].anchor}`);
  expect(section.body.data.section.html).toBe('<h1>Typed</h1><p>Text after the heading.</p>');
  const changes = (await agent('get', `/api/articles/${id}/changes`)).body.data.changes as Array<{ by: { kind: string; name: string }; sections: Array<{ title: string }> }>;
  expect(changes[0]).toEqual(expect.objectContaining({ by: expect.objectContaining({ kind: 'editor', name: 'Chief Tester' }) }));
  expect(changes[0].sections.map((s) => s.title).sort()).toEqual(['One', 'Typed']);
});
