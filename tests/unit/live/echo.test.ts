/**
 * The update guard (issue 32) with the stored-state design (issue 31): a page that kept its copy
 * through an unload reconnects, and its sync step 2 sends back the `meta` counters an article
 * event moved in the document only (they are not in the stored state). That echo must pass (a
 * refusal would make the page drop its typing) and be put back as the server has it; the page's
 * typing meanwhile is stored.
 */
import { connectLive, sectionText, typeInto, until } from '../../helpers/live';
import { ArticleEvents } from '../../../src/plugins/quire/server/src/live/article-events';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { UpdateGuard } from '../../../src/plugins/quire/server/src/live/guard-extension';
import { DEFAULT_LIVE_LIMITS } from '../../../src/plugins/quire/server/src/live/limit-settings';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { Storing } from '../../../src/plugins/quire/server/src/live/storing';
import { log, MemoryAccess, MemoryEvents, MemoryStore, serve, type Served } from './harness';

const store = new MemoryStore();
const access = new MemoryAccess(store);
const events = new MemoryEvents();
const merging = new ArticleEvents(events, store, log);
const storing = new Storing(store, log, 100);
let server: Served;

beforeAll(async () => {
  server = await serve([new Authentication(access), new UpdateGuard(DEFAULT_LIVE_LIMITS, log), new Loading(store), storing, merging]);
});
afterAll(() => server.close());

it('a reconnecting page echoes counters the stored state lacks: not refused, put back, its offline typing stored', async () => {
  const { articleId, ids } = store.article(['<p>Alpha.</p>']);
  const token = access.admin('Ed');
  const page = await connectLive(server.url, articleId, token);
  events.publish(articleId, { kind: 'agent', name: 'Scribe' }, [{ type: 'note.added', noteId: 'n', rev: 1 }]);
  await merging.settled();
  await until(() => page.doc.getMap('meta').get('notesRev') === 1);
  // The counter lives in the live document only.
  expect(store.docs.get(articleId)!.getMap('meta').get('notesRev')).toBe(0);

  // The page leaves (the document unloads), types offline, and comes back with its copy.
  page.destroy();
  await until(() => !server.hocuspocus.documents.has(`article:${articleId}`));
  typeInto(page.doc, ids[0], 0, 0, 'Offline. ');
  const back = await connectLive(server.url, articleId, token, { doc: page.doc });
  await until(() => store.stores.some((s) => s.written.includes(ids[0])));
  expect(back.stateless.filter((s) => JSON.parse(s).type === 'refused')).toEqual([]);
  expect(back.closes).toEqual([]);
  const document = server.hocuspocus.documents.get(`article:${articleId}`)!;
  expect(document.getMap('meta').get('notesRev')).toBe(0);
  await until(() => back.doc.getMap('meta').get('notesRev') === 0);
  expect(sectionText(store.docs.get(articleId)!, ids[0])).toBe('Offline. Alpha.');
  back.destroy();
});
