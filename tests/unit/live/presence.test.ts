/** live/presence.ts on a bare Hocuspocus: who has the article open, and in which section. */
import { connectLive, until } from '../../helpers/live';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { Presence } from '../../../src/plugins/quire/server/src/live/presence';
import { MemoryAccess, MemoryStore, serve, type Served } from './harness';

const store = new MemoryStore();
const access = new MemoryAccess(store);
const presence = new Presence();
let server: Served;

beforeAll(async () => {
  server = await serve([new Authentication(access), new Loading(store), presence]);
});
afterAll(() => server.close());

it('names the editors with the article open and their section', async () => {
  const { articleId, ids } = store.article(['<p>Alpha.</p>']);
  const page = await connectLive(server.url, articleId, access.admin('Ed'), { name: 'Ed Itor' });
  page.provider.setAwarenessField('section', ids[0]);
  await until(() => presence.editors(articleId).some((e) => e.section === ids[0]));
  expect(presence.editors(articleId)).toEqual([{ name: 'Ed Itor', id: 0, section: ids[0], since: expect.any(String) }]);
  page.destroy();
  await until(() => presence.editors(articleId).length === 0);
});
