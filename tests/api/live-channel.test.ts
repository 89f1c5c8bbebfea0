/**
 * The live canvas's channel (CONTRACT 19): a Node HocuspocusProvider (what the canvas runs)
 * against the in-process Strapi: admin session and Quire RBAC before any document is loaded,
 * typing stored without any action, agents' writes merged live, delete while typing, presence,
 * and what bad input gets.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { connectLive, liveUrl, sectionText, typeInto, until, type LiveClient } from '../helpers/live';
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';
import * as Y from 'yjs';

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
// A test that fails before closing its clients would keep the document loaded for the next ones.
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
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

describe('agents\' writes arrive live, merged with what is being typed', () => {
  it('an agent PATCH to the section a person is typing in: both texts survive, the section says who changed it', async () => {
    const client = await open();
    typeInto(client.doc, ids[0], 0, 0, 'PERSON ');
    // The agent reads, changes and writes conditionally; a store of the typing meanwhile is a 412, then it re-reads.
    await until(async () => {
      const read = await app.http.get(`/api/articles/${articleId}/sections/${anchors[0]}?as=markdown`).set(bearer(agentKey));
      const markdown = read.body.data.section.markdown as string;
      const res = await app.http.patch(`/api/articles/${articleId}/sections/${anchors[0]}`).set(bearer(agentKey)).set('If-Match', read.headers.etag).send({ markdown: `${markdown.trimEnd()} AGENT.` });
      return res.status === 200;
    });
    await until(() => sectionText(client.doc, ids[0]).includes('AGENT.'));
    expect(sectionText(client.doc, ids[0])).toContain('PERSON ');
    expect((client.doc.getMap('meta').get(`changed:${ids[0]}`) as any).name).toBe('Scribe');
    // And what is stored holds both.
    await until(async () => {
      const html = (await stored(ids[0])).html;
      return html.includes('AGENT.') && html.includes('PERSON');
    });
    client.destroy();
  });

  it('an edits request (replaceText) while a person types elsewhere in the same section: both survive', async () => {
    const client = await open();
    typeInto(client.doc, ids[2], 0, 0, 'Typed first. ');
    const res = await app.http
      .post(`/api/articles/${articleId}/edits`)
      .set(bearer(agentKey))
      .send({ ops: [{ op: 'replaceText', section: anchors[2], find: 'Flowers.', replace: 'Roses.' }] });
    expect(res.status).toBe(200);
    await until(() => sectionText(client.doc, ids[2]).includes('Roses.'));
    expect(sectionText(client.doc, ids[2])).toContain('Typed first. ');
    expect(sectionText(client.doc, ids[2])).not.toContain('Flowers.');
    await until(async () => {
      const html = (await stored(ids[2])).html;
      return html.includes('Roses.') && html.includes('Typed first.');
    });
    client.destroy();
  });

  it('a section deleted while a person types in it goes to the trash holding their text, and the document says who deleted it', async () => {
    const client = await open();
    typeInto(client.doc, ids[1], 0, 0, 'Unsaved words. ');
    const res = await app.http.delete(`/api/articles/${articleId}/sections/${anchors[1]}`).set(bearer(agentKey));
    expect(res.status).toBe(200);
    await until(() => !client.doc.getArray('order').toArray().includes(ids[1]));
    expect(client.doc.getMap('meta').get(`deleted:${ids[1]}`)).toEqual(expect.objectContaining({ name: 'Scribe', kind: 'agent', trashId: ids[1] }));
    await app.strapi.plugin('quire').service('live').settled();
    const trash = await app.http.get(`/api/articles/${articleId}/trash`).set(bearer(agentKey));
    expect(trash.status).toBe(200);
    const entry = trash.body.data.sections.find((t) => t.id === ids[1]);
    expect(entry).toEqual(expect.objectContaining({ by: { kind: 'agent', name: 'Scribe' } }));
    const k = app.strapi.db.connection;
    expect((await k('quire_trash').where({ uuid: ids[1] }).first('html')).html).toContain('Unsaved words.');
    // Restored, it comes back with the text, live.
    const restored = await app.http.post(`/api/articles/${articleId}/trash/${entry.anchor}/restore`).set(bearer(agentKey)).send({});
    expect(restored.status).toBe(200);
    await until(() => client.doc.getArray('order').toArray().includes(ids[1]));
    expect(sectionText(client.doc, ids[1])).toContain('Unsaved words.');
    expect(client.doc.getMap('meta').get(`deleted:${ids[1]}`)).toBeUndefined();
    client.destroy();
  });

  it('typing that reaches the server only after the section was deleted still goes to its trash entry', async () => {
    const client = await open();
    // The typing is held back (a copy of the page's document), sent once the delete has reached the page.
    const held = new Y.Doc();
    Y.applyUpdate(held, Y.encodeStateAsUpdate(client.doc));
    typeInto(held, ids[2], 0, 0, 'Late words. ');
    const res = await app.http.delete(`/api/articles/${articleId}/sections/${anchors[2]}`).set(bearer(agentKey));
    expect(res.status).toBe(200);
    await until(() => !client.doc.getArray('order').toArray().includes(ids[2]));
    await app.strapi.plugin('quire').service('live').settled();
    Y.applyUpdate(client.doc, Y.encodeStateAsUpdate(held, Y.encodeStateVector(client.doc)));
    const k = app.strapi.db.connection;
    await until(async () => String((await k('quire_trash').where({ uuid: ids[2] }).first('html'))?.html).includes('Late words.'));
    const trash = await app.http.get(`/api/articles/${articleId}/trash`).set(bearer(agentKey));
    const entry = trash.body.data.sections.find((t) => t.id === ids[2]);
    const restored = await app.http.post(`/api/articles/${articleId}/trash/${entry.anchor}/restore`).set(bearer(agentKey)).send({});
    expect(restored.status).toBe(200);
    await until(() => client.doc.getArray('order').toArray().includes(ids[2]));
    expect(sectionText(client.doc, ids[2])).toContain('Late words.');
    held.destroy();
    client.destroy();
  });
});

describe('presence', () => {
  it('names the editors with the article open (and their section) and the agents that wrote in the last 60 s', async () => {
    const client = await open(chief, 'Chief Tester');
    client.provider.setAwarenessField('section', ids[0]);
    await until(async () => {
      const res = await app.http.get(`/api/articles/${articleId}/presence`).set(bearer(agentKey));
      return res.status === 200 && res.body.data.present.some((p) => p.kind === 'editor' && p.name === 'Chief Tester' && p.section !== null);
    });
    const res = await app.http.get(`/api/articles/${articleId}/presence`).set(bearer(agentKey));
    expect(res.body.data.present).toEqual(
      expect.arrayContaining([
        { kind: 'editor', name: 'Chief Tester', section: expect.stringMatching(/^[0-9a-f]/), since: expect.any(String) },
        { kind: 'agent', name: 'Scribe', section: expect.anything(), since: expect.any(String) },
      ]),
    );
    const viaAdmin = await app.http.get(`/quire/articles/${articleId}/presence`).set(adminBearer(chief));
    expect(viaAdmin.status).toBe(200);
    expect(viaAdmin.body.data.present.map((p) => p.name)).toEqual(expect.arrayContaining(['Chief Tester', 'Scribe']));
    client.destroy();
  });

  it('is 404 for an article of another user', async () => {
    const other = await createKey(app, await registerUser(app, 'eve'), 'eve');
    const res = await app.http.get(`/api/articles/${articleId}/presence`).set(bearer(other));
    expect(res.status).toBe(404);
  });
});

describe('bad input', () => {
  it('refuses an update over 1 MiB, says why, and leaves the document as it was for everyone', async () => {
    const watcher = await open();
    const client = await open();
    const sid = client.doc.getArray<string>('order').get(0);
    typeInto(client.doc, sid, 0, 0, 'x'.repeat(1_100_000));
    await until(() => client.stateless.length > 0);
    expect(JSON.parse(client.stateless[0])).toEqual({ type: 'refused', reason: expect.stringMatching(/too large.*1 MiB/) });
    await app.strapi.plugin('quire').service('live').settled();
    expect(sectionText(watcher.doc, sid)).not.toContain('xxxxxxxxxx');
    expect((await stored(sid)).html).not.toContain('xxxxxxxxxx');
    client.destroy();
    watcher.destroy();
  });

  it('ignores the changes of a read-only connection (read permission without edit)', async () => {
    const { id: authorRole } = await app.strapi.db.query('admin::role').findOne({ where: { code: 'strapi-author' } });
    const current = await app.http.get(`/admin/roles/${authorRole}/permissions`).set(adminBearer(chief));
    const permissions = current.body.data.map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
    const granted = await app.http
      .put(`/admin/roles/${authorRole}/permissions`)
      .set(adminBearer(chief))
      .send({ permissions: [...permissions, { action: 'plugin::quire.read', subject: null, properties: {}, conditions: [] }] });
    expect(granted.status).toBe(200);
    const reader = await open(await adminToken(app, await createAdmin(app, 'strapi-author', 'reader')), 'Reader');
    const editor = await open();
    const sid = reader.doc.getArray<string>('order').get(0);
    typeInto(reader.doc, sid, 0, 0, 'READER WAS HERE ');
    typeInto(editor.doc, sid, 0, 0, 'EDITOR WAS HERE ');
    await until(async () => (await stored(sid)).html.includes('EDITOR WAS HERE'));
    expect((await stored(sid)).html).not.toContain('READER WAS HERE');
    expect(sectionText(editor.doc, sid)).not.toContain('READER WAS HERE');
    reader.destroy();
    editor.destroy();
  });
});

describe('the premise is live, with revisions', () => {
  it('stores what is typed in the premise as a revision by the editor, and shows an agent\'s premise live', async () => {
    const client = await open();
    const premise = client.doc.getText('premise');
    client.doc.transact(() => premise.insert(premise.length, ', and why now'));
    await until(async () => (await app.http.get(`/api/articles/${articleId}/brief`).set(bearer(agentKey))).body.data.premise === 'Why engines, and why now');
    const revisions = await app.http.get(`/api/articles/${articleId}/brief/revisions`).set(bearer(agentKey));
    expect(revisions.status).toBe(200);
    expect(revisions.body.data.revisions[0]).toEqual({ rev: expect.any(Number), premise: 'Why engines, and why now', by: { kind: 'editor', name: 'Chief Tester' }, at: expect.any(String) });
    expect(revisions.body.data.revisions.at(-1)).toEqual(expect.objectContaining({ premise: 'Why engines', by: null }));

    const patched = await app.http.patch(`/api/articles/${articleId}/brief`).set(bearer(agentKey)).send({ premise: 'Why engines matter' });
    expect(patched.status).toBe(200);
    await until(() => premise.toString() === 'Why engines matter');
    const after = await app.http.get(`/api/articles/${articleId}/brief/revisions`).set(bearer(agentKey));
    expect(after.body.data.revisions[0]).toEqual(expect.objectContaining({ premise: 'Why engines matter', by: { kind: 'agent', name: 'Scribe' } }));
    client.destroy();
  });
});

describe('a malformed update', () => {
  it('closes that connection only: the document stays open and live for the others', async () => {
    const { createEncoder, toUint8Array, writeVarString, writeVarUint, writeVarUint8Array } = require('lib0/encoding');
    const other = await open();
    const bad = await open();
    const encoder = createEncoder();
    writeVarString(encoder, `article:${articleId}`);
    writeVarUint(encoder, 0); // sync
    writeVarUint(encoder, 2); // update
    writeVarUint8Array(encoder, new Uint8Array([255, 255, 255, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    (bad.provider.configuration.websocketProvider as any).webSocket.send(toUint8Array(encoder));
    await until(() => bad.closes.length > 0);
    const sid = other.doc.getArray<string>('order').get(0);
    typeInto(other.doc, sid, 0, 0, 'Still live. ');
    await until(async () => (await stored(sid)).html.includes('Still live.'));
    bad.destroy();
    other.destroy();
  });
});

describe('reconnecting', () => {
  it('a page that kept its copy while the document was unloaded and changed by an agent reconnects without doubling anything', async () => {
    const first = await open();
    const sid = first.doc.getArray<string>('order').get(0);
    typeInto(first.doc, sid, 0, 0, 'Kept once. ');
    await until(async () => (await stored(sid)).html.includes('Kept once.'));
    const doc = first.doc;
    first.provider.destroy();
    (first.provider.configuration.websocketProvider as any).destroy();
    await until(() => app.strapi.plugin('quire').service('live').channel().hocuspocus.documents.size === 0);
    // Offline: the page types; meanwhile an agent changes another section of the closed article.
    typeInto(doc, sid, 0, 0, 'Offline. ');
    const other = doc.getArray<string>('order').get(1);
    const anchor = (await app.http.get(`/api/articles/${articleId}/outline`).set(bearer(agentKey))).body.data.outline.find((s) => other.startsWith(s.anchor)).anchor;
    expect((await app.http.patch(`/api/articles/${articleId}/sections/${anchor}`).set(bearer(agentKey)).send({ markdown: '# Changed\n\nWhile closed.' })).status).toBe(200);

    const back = await connectLive(url, articleId, chief, { name: 'Chief Tester', doc });
    clients.push(back);
    await until(() => sectionText(doc, other).includes('While closed.'));
    await until(async () => (await stored(sid)).html.includes('Offline.'));
    const text = sectionText(doc, sid);
    expect(text.split('Kept once.').length - 1).toBe(1);
    expect(text.split('Offline.').length - 1).toBe(1);
    const html = (await stored(sid)).html;
    expect(html.split('Kept once.').length - 1).toBe(1);
    expect(sectionText(doc, other).split('While closed.').length - 1).toBe(1);
    back.destroy();
  });
});

describe('the section limit', () => {
  it('refuses a change that would take a section past 2,000,000 characters, and says why', async () => {
    const created = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Long', markdown: '# Long\n\nStart.' });
    const longId = created.body.data.article.id;
    const client = await connectLive(url, longId, chief, { name: 'Chief Tester' });
    clients.push(client);
    const sid = client.doc.getArray<string>('order').get(0);
    typeInto(client.doc, sid, 0, 0, 'a'.repeat(900_000));
    typeInto(client.doc, sid, 0, 0, 'b'.repeat(900_000));
    typeInto(client.doc, sid, 0, 0, 'c'.repeat(300_000));
    await until(() => client.stateless.length > 0, 60_000);
    expect(JSON.parse(client.stateless[0])).toEqual({ type: 'refused', reason: expect.stringMatching(/more than the limit of 2,000,000/) });
    await app.strapi.plugin('quire').service('live').settled();
    const k = app.strapi.db.connection;
    await until(async () => ((await k('quire_sections').where({ uuid: sid }).first('html')).html as string).includes('bbbb'), 60_000);
    expect(((await k('quire_sections').where({ uuid: sid }).first('html')).html as string).includes('cccc')).toBe(false);
    client.destroy();
  });
});

describe('permissions reach open connections (CONTRACT 22)', () => {
  /** A role of its own with Quire's read and (unless not) edit permissions; its code, and how to change them. */
  const role = async (name: string) => {
    const made = await app.http.post('/admin/roles').set(adminBearer(chief)).send({ name, description: name });
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    const grant = async (actions: string[]) => {
      const res = await app.http.put(`/admin/roles/${id}/permissions`).set(adminBearer(chief)).send({ permissions: actions.map((action) => ({ action, subject: null, properties: {}, conditions: [] })) });
      expect(res.status).toBe(200);
    };
    await grant(['plugin::quire.read', 'plugin::quire.edit']);
    return { code: made.body.data.code as string, grant };
  };

  it('an editor whose role loses edit is read-only within 5 s (and told); losing read too disconnects them', async () => {
    const writers = await role(`Writers ${Date.now()}`);
    const token = await adminToken(app, await createAdmin(app, writers.code as any, 'writer'));
    const page = await open(token, 'Writer');
    const sid = page.doc.getArray<string>('order').get(0);
    const changed = Date.now();
    await writers.grant(['plugin::quire.read']);
    await until(() => page.stateless.some((s) => JSON.parse(s).type === 'readOnly'), 5_000);
    // eslint-disable-next-line no-console
    console.log(`live-channel: read-only ${Date.now() - changed} ms after the role lost edit`);
    typeInto(page.doc, sid, 0, 0, 'AFTER LOSING EDIT ');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await app.strapi.plugin('quire').service('live').settled();
    expect((await stored(sid)).html).not.toContain('AFTER LOSING EDIT');

    await writers.grant([]);
    await until(() => page.closes.length > 0, 5_000);
    expect(page.stateless.map((s) => JSON.parse(s).type)).toContain('ended');
    page.destroy();
  });

  it('signing out ends that admin\'s live connections within 5 s', async () => {
    const admin = await createAdmin(app, 'strapi-super-admin', 'leaver');
    const token = await adminToken(app, admin);
    const page = await open(token, 'Leaver');
    const out = await app.http.post('/admin/logout').set(adminBearer(token)).send({});
    expect(out.status).toBe(200);
    await until(() => page.closes.length > 0, 5_000);
    expect(page.closes[0].reason).toMatch(/access to Quire articles ended/);
    page.destroy();
  });
});

describe('every door writes the one stored state (CONTRACT 22)', () => {
  it('a revision restore, an accepted suggestion and a move while the article is open reach the page once, merged with typing', async () => {
    const made = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Doors', markdown: '# A\n\nFirst version.\n\n# B\n\nBee.' });
    const doorId = made.body.data.article.id;
    const [a, b] = made.body.data.outline.map((s) => s.anchor);
    const page = await connectLive(url, doorId, chief, { name: 'Chief Tester' });
    clients.push(page);
    const [aId, bId] = page.doc.getArray<string>('order').toArray();
    typeInto(page.doc, bId, 0, 0, 'TYPED ');
    // Stored before the suggestion is made (else the suggestion is stale: its section changed).
    await until(async () => (await stored(bId)).html.includes('TYPED'));

    const second = await app.http.patch(`/api/articles/${doorId}/sections/${a}`).set(bearer(agentKey)).send({ markdown: '# A\n\nSecond version.' });
    expect(second.status).toBe(200);
    await until(() => sectionText(page.doc, aId).includes('Second version.'));
    const restored = await app.http.post(`/api/articles/${doorId}/sections/${a}/revisions/1/restore`).set(bearer(agentKey)).send({});
    expect(restored.status).toBe(200);
    await until(() => sectionText(page.doc, aId).includes('First version.'));

    const suggested = await app.http.post(`/api/articles/${doorId}/suggestions`).set(bearer(agentKey)).send({ ops: [{ op: 'replaceText', section: b, find: 'Bee.', replace: 'Bee, suggested.' }] });
    expect(suggested.status).toBe(201);
    const accepted = await app.http.post(`/api/articles/${doorId}/suggestions/${suggested.body.data.suggestion.anchor}/accept`).set(bearer(agentKey)).send({});
    expect(accepted.status).toBe(200);
    await until(() => sectionText(page.doc, bId).includes('Bee, suggested.'));

    const moved = await app.http.post(`/api/articles/${doorId}/sections/${b}/move`).set(bearer(agentKey)).send({ before: a });
    expect(moved.status).toBe(200);
    await until(() => page.doc.getArray<string>('order').toArray().join() === [bId, aId].join());

    await app.strapi.plugin('quire').service('live').settled();
    const text = sectionText(page.doc, aId) + sectionText(page.doc, bId);
    for (const token of ['First version.', 'Bee, suggested.', 'TYPED']) expect(text.split(token).length - 1).toBe(1);
    expect(text).not.toContain('Second version.');
    page.destroy();
  });
});
