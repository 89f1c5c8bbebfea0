/** live/article-events.ts on a bare Hocuspocus: an event merges the stored state by state vector. */
import { connectLive, sectionText, typeInto, until } from '../../helpers/live';
import { ArticleEvents } from '../../../src/plugins/quire/server/src/live/article-events';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { log, MemoryAccess, MemoryEvents, MemoryStore, serve, type Served } from './harness';

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

describe('article events', () => {
  it('merge an agent\'s write with what is being typed; the same event twice, or a missed one, changes nothing twice', async () => {
    const { articleId, ids } = store.article(['<p>The engine weaves.</p>', '<p>Beta.</p>']);
    const page = await connectLive(server.url, articleId, access.admin('Ed'));
    typeInto(page.doc, ids[0], 0, 0, 'PERSON ');
    store.write(articleId, { by: agent, written: [{ id: ids[0], rev: 2, html: '<p>The engine weaves. AGENT.</p>' }] });
    const replaced = [{ type: 'section.replaced' as const, sectionId: ids[0], rev: 2 }];
    events.publish(articleId, agent, replaced);
    events.publish(articleId, agent, replaced);
    await merging.settled();
    await until(() => sectionText(page.doc, ids[0]) === 'PERSON The engine weaves. AGENT.');
    expect((page.doc.getMap('meta').get(`changed:${ids[0]}`) as any).name).toBe('Scribe');
    // A write whose event never comes arrives with the next one.
    store.write(articleId, { by: agent, written: [{ id: ids[1], rev: 2, html: '<p>Beta, missed.</p>' }] });
    events.publish(articleId, agent, [{ type: 'note.added', noteId: 'n', rev: 1 }]);
    store.write(articleId, { by: agent, written: [{ id: ids[0], rev: 3, html: '<p>The engine weaves. AGENT. AGAIN.</p>' }] });
    events.publish(articleId, agent, [{ type: 'section.replaced', sectionId: ids[0], rev: 3 }]);
    await merging.settled();
    await until(() => sectionText(page.doc, ids[1]) === 'Beta, missed.');
    expect(sectionText(page.doc, ids[0])).toBe('PERSON The engine weaves. AGENT. AGAIN.');
    expect(page.doc.getMap('meta').get('notesRev')).toBe(1);
    page.destroy();
  });

  it('thread and comment events move meta.threadsRev (the canvas reads threads again), other events do not', async () => {
    const { articleId } = store.article(['<p>Alpha.</p>']);
    const page = await connectLive(server.url, articleId, access.admin('Ed'));
    events.publish(articleId, agent, [{ type: 'thread.created', threadId: 't' }]);
    events.publish(articleId, agent, [{ type: 'comment.created', threadId: 't', commentId: 'c' }]);
    events.publish(articleId, agent, [{ type: 'thread.resolved', threadId: 't' }]);
    events.publish(articleId, agent, [{ type: 'note.added', noteId: 'n', rev: 1 }]);
    await merging.settled();
    await until(() => page.doc.getMap('meta').get('threadsRev') === 3);
    expect(page.doc.getMap('meta').get('notesRev')).toBe(1);
    page.destroy();
  });

  it('a section deleted while someone types in it: its trash entry gets the typed text, the page the notice', async () => {
    const { articleId, ids } = store.article(['<p>Alpha.</p>', '<p>Beta.</p>']);
    const page = await connectLive(server.url, articleId, access.admin('Ed'));
    typeInto(page.doc, ids[1], 0, 0, 'Unsaved. ');
    await until(() => [...server.hocuspocus.documents.values()].some((d) => sectionText(d, ids[1]).startsWith('Unsaved.')));
    store.write(articleId, { by: agent, deleted: [ids[1]], order: [ids[0]] });
    events.publish(articleId, agent, [{ type: 'section.deleted', sectionId: ids[1] }]);
    await merging.settled();
    expect(store.trash).toEqual([{ sectionId: ids[1], html: '<p>Unsaved. Beta.</p>' }]);
    await until(() => page.doc.getArray('order').toArray().join() === ids[0]);
    expect(page.doc.getMap('meta').get(`deleted:${ids[1]}`)).toEqual(expect.objectContaining({ name: 'Scribe', trashId: ids[1] }));
    page.destroy();
  });
});
