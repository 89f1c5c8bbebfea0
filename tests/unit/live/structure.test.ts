/**
 * Structure over the live document (issue 31 point 4, CONTRACT 22): the outline's entries and
 * the agents present ride in the document the canvas already has open, written by the server
 * (live/article-doc.ts; the stored state by the edit engine's hook, presence by article events),
 * so the canvas asks nothing over HTTP to learn them.
 */
import * as Y from 'yjs';
import { connectLive, until } from '../../helpers/live';
import { AGENT_PRESENCE_MS, applyWrite, notePresence, presenceOf, setOutline, type OutlineMark } from '../../../src/plugins/quire/server/src/live/article-doc';
import { ArticleEvents } from '../../../src/plugins/quire/server/src/live/article-events';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { log, MemoryAccess, MemoryEvents, MemoryStore, serve, type Served } from './harness';

const mark = (id: string, words: number, title = 'Title'): OutlineMark & { id: string } => ({ id, anchor: id.slice(0, 8), level: 2, title, words, source: 'html', rev: words + 1 });

describe('the live outline and presence as data', () => {
  it('setOutline writes the entries that differ and deletes those of sections gone', () => {
    const doc = new Y.Doc();
    expect(setOutline(doc, [mark('a', 1), mark('b', 2)])).toBe(true);
    expect(setOutline(doc, [mark('a', 1), mark('b', 2)])).toBe(false);
    let touched: string[] = [];
    doc.getMap('outline').observe((event) => (touched = [...event.keysChanged]));
    expect(setOutline(doc, [mark('a', 5)])).toBe(true);
    expect(touched.sort()).toEqual(['a', 'b']);
    expect(doc.getMap('outline').toJSON()).toEqual({ a: { anchor: 'a', level: 2, title: 'Title', words: 5, source: 'html', rev: 6 } });
  });

  it('an entry overwritten a thousand times (typing changes its words) leaves a few bytes each, not its content', () => {
    const doc = new Y.Doc();
    const long = 'A title of some length, as people write them'.repeat(4);
    setOutline(doc, [mark('a', 0, long), mark('b', 0, long)]);
    const fresh = Y.encodeStateAsUpdate(doc).byteLength;
    for (let words = 1; words <= 1000; words += 1) setOutline(doc, [mark('a', words, long), mark('b', 0, long)]);
    const after = Y.encodeStateAsUpdate(doc).byteLength;
    // Each overwrite keeps a tombstone of a few bytes; the 180-character title is not kept 1,000 times.
    expect(after - fresh).toBeLessThan(1000 * 8);
  });

  it('presence: an agent noted until 60 s on, its section kept when an event names none, expired entries dropped', () => {
    const doc = new Y.Doc();
    const agent = { kind: 'agent' as const, name: 'Scribe' };
    const created = presenceOf({ articleId: 'x', ownerId: 1, by: agent, at: '', changes: [{ type: 'article.created' }, { type: 'section.inserted', sectionId: 's1', rev: 1 }] }, 1000);
    expect(created).toEqual({ kind: 'agent', name: 'Scribe', section: null, until: 1000 + AGENT_PRESENCE_MS });
    expect(presenceOf({ articleId: 'x', ownerId: 1, by: { kind: 'editor', name: 'Ed' }, at: '', changes: [] }, 1000)).toBeNull();
    notePresence(doc, created!, 1000);
    notePresence(doc, presenceOf({ articleId: 'x', ownerId: 1, by: agent, at: '', changes: [{ type: 'section.replaced', sectionId: 's2', rev: 2 }] }, 2000)!, 2000);
    notePresence(doc, presenceOf({ articleId: 'x', ownerId: 1, by: agent, at: '', changes: [{ type: 'note.added', noteId: 'n', rev: 1 }] }, 3000)!, 3000);
    expect(doc.getMap('presence').get('Scribe')).toEqual({ kind: 'agent', name: 'Scribe', section: 's2', since: 1000, until: 3000 + AGENT_PRESENCE_MS });
    // Another writer, past the first one's minute: the first is dropped.
    notePresence(doc, { kind: 'human', name: 'Ann', section: null, until: 200_000 }, 100_000);
    expect([...doc.getMap('presence').keys()]).toEqual(['Ann']);
  });
});

describe('over a bare Hocuspocus', () => {
  const store = new MemoryStore();
  const access = new MemoryAccess(store);
  const events = new MemoryEvents();
  const merging = new ArticleEvents(events, store, log);
  let server: Served;
  const agent = { kind: 'agent' as const, name: 'Scribe' };

  beforeAll(async () => {
    server = await serve([new Authentication(access), new Loading(store), merging]);
  });
  afterAll(() => server.close());

  it('an agent adds, retitles and deletes sections: an open page\'s outline follows from its document, and the agent shows present', async () => {
    const { articleId, ids } = store.article(['<h2>One</h2><p>Alpha.</p>']);
    store.write(articleId, { by: agent, outline: [mark(ids[0], 1, 'One')] });
    const page = await connectLive(server.url, articleId, access.admin('Ed'));
    expect((page.doc.getMap('outline').get(ids[0]) as OutlineMark).title).toBe('One');

    const added = 'cccccccc-0000-4000-8000-000000000003';
    store.write(articleId, { by: agent, written: [{ id: added, rev: 1, html: '<h2>Two</h2><p>Beta gamma.</p>' }], order: [ids[0], added], outline: [mark(ids[0], 1, 'One, retitled'), mark(added, 3, 'Two')] });
    events.publish(articleId, agent, [{ type: 'section.inserted', sectionId: added, rev: 1 }, { type: 'section.replaced', sectionId: ids[0], rev: 2 }]);
    await merging.settled();
    await until(() => page.doc.getArray('order').length === 2);
    expect(page.doc.getMap('outline').toJSON()).toEqual({ [ids[0]]: expect.objectContaining({ title: 'One, retitled' }), [added]: expect.objectContaining({ title: 'Two', words: 3 }) });
    expect(page.doc.getMap('presence').get('Scribe')).toEqual(expect.objectContaining({ kind: 'agent', section: added, until: expect.any(Number) }));

    store.write(articleId, { by: agent, deleted: [added], order: [ids[0]], outline: [mark(ids[0], 1, 'One, retitled')] });
    events.publish(articleId, agent, [{ type: 'section.deleted', sectionId: added }]);
    await merging.settled();
    await until(() => !page.doc.getMap('outline').has(added));
    expect(page.doc.getArray('order').toArray()).toEqual([ids[0]]);
    page.destroy();
  });

  it('a page that opens the article after an agent wrote (an agent that only created it) sees that agent present at once, in no section', async () => {
    const { articleId } = store.article(['<h2>Made</h2><p>By an agent.</p>']);
    const now = Date.now();
    const writers = new MemoryEvents() as MemoryEvents & { recentWriters: (id: string) => unknown[] };
    writers.recentWriters = (id) => (id === articleId ? [{ kind: 'agent', name: 'Maker', section: null, since: now, until: now + AGENT_PRESENCE_MS }] : []);
    const opened = await serve([new Authentication(access), new Loading(store), new ArticleEvents(writers, store, log)]);
    try {
      const page = await connectLive(opened.url, articleId, access.admin('Ed'));
      expect(page.doc.getMap('presence').get('Maker')).toEqual({ kind: 'agent', name: 'Maker', section: null, since: now, until: now + AGENT_PRESENCE_MS });
      page.destroy();
    } finally {
      await opened.close();
    }
  });

  it('the stored state holds the outline as the write left it (a page opening later reads it at once)', () => {
    const doc = new Y.Doc();
    applyWrite(doc, { by: agent, at: 'now', written: [], restored: [], deleted: [], order: ['s'], outline: [mark('s', 4)] });
    expect(doc.getMap('outline').get('s')).toEqual(expect.objectContaining({ words: 4 }));
  });
});
