/** live/storing.ts on a bare Hocuspocus: typing is stored, only the sections it changed, by whom, and what the store had comes back. */
import { connectLive, sectionText, typeInto, until } from '../../helpers/live';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { Storing } from '../../../src/plugins/quire/server/src/live/storing';
import { log, MemoryAccess, MemoryStore, serve, type Served } from './harness';

const store = new MemoryStore();
const access = new MemoryAccess(store);
let server: Served;

beforeAll(async () => {
  server = await serve([new Authentication(access), new Loading(store), new Storing(store, log, 200)]);
});
afterAll(() => server.close());

describe('storing', () => {
  it('stores only the sections typed in, named by who typed, and gives the page what the stored state had meanwhile', async () => {
    const { articleId, ids } = store.article(['<p>Alpha.</p>', '<p>Beta.</p>', '<p>Gamma.</p>']);
    const page = await connectLive(server.url, articleId, access.admin('Ada Typist'));
    // An agent's write the page has not heard of (its event is lost).
    store.write(articleId, { by: { kind: 'agent', name: 'Scribe' }, written: [{ id: ids[2], rev: 2, html: '<p>Gamma, by an agent.</p>' }] });
    typeInto(page.doc, ids[1], 0, 0, 'Typed. ');
    await until(() => store.stores.some((s) => s.articleId === articleId));
    expect(store.stores.filter((s) => s.articleId === articleId)).toEqual([{ articleId, sections: [ids[1]], actors: ['Ada Typist'], written: [ids[1]] }]);
    await until(() => sectionText(page.doc, ids[2]) === 'Gamma, by an agent.');
    expect(sectionText(page.doc, ids[1])).toBe('Typed. Beta.');
    page.destroy();
  });

  it('tries again by itself when a store fails: the typing is stored without more keystrokes', async () => {
    const { articleId, ids } = store.article(['<p>Alpha.</p>']);
    const page = await connectLive(server.url, articleId, access.admin('Ada'));
    store.failNext = 1;
    typeInto(page.doc, ids[0], 0, 0, 'Kept. ');
    await until(() => store.stores.some((s) => s.articleId === articleId && s.written.includes(ids[0])), 5_000);
    expect(log.lines.some((line) => line.includes('typing not stored'))).toBe(true);
    page.destroy();
  });
});
