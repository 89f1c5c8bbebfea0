/** live/loading.ts on a bare Hocuspocus: a document is the stored state, the same for every server that loads it. */
import * as Y from 'yjs';
import { connectLive, sectionText, typeInto, until } from '../../helpers/live';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { MemoryAccess, MemoryStore, serve, type Served } from './harness';

const store = new MemoryStore();
const access = new MemoryAccess(store);
let one: Served;
let two: Served;

beforeAll(async () => {
  one = await serve([new Authentication(access), new Loading(store)]);
  two = await serve([new Authentication(access), new Loading(store)]);
});
afterAll(async () => {
  await one.close();
  await two.close();
});

describe('loading', () => {
  it('gives the page the stored order, sections and premise', async () => {
    const { articleId, ids } = store.article(['<h1>One</h1><p>Alpha.</p>', '<p>Beta.</p>'], 'Why');
    const page = await connectLive(one.url, articleId, access.admin('Ed'));
    expect(page.doc.getArray('order').toArray()).toEqual(ids);
    expect(sectionText(page.doc, ids[0])).toBe('One\nAlpha.');
    expect(page.doc.getText('premise').toString()).toBe('Why');
    page.destroy();
  });

  it('loads one history on every server: a page moving from one to the other with its copy doubles nothing', async () => {
    const { articleId, ids } = store.article(['<p>Alpha.</p>']);
    const first = await connectLive(one.url, articleId, access.admin('Ed'));
    typeInto(first.doc, ids[0], 0, 0, 'Typed. ');
    const doc = first.doc;
    first.destroy();
    const again = await connectLive(two.url, articleId, access.admin('Ed'), { doc });
    const fresh = await connectLive(two.url, articleId, access.admin('Other'));
    await until(() => sectionText(fresh.doc, ids[0]) === 'Typed. Alpha.');
    expect(sectionText(again.doc, ids[0])).toBe('Typed. Alpha.');
    expect(Y.encodeStateVector(fresh.doc)).toEqual(Y.encodeStateVector(again.doc));
    again.destroy();
    fresh.destroy();
  });
});
