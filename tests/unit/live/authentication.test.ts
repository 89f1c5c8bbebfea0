/** live/authentication.ts on a bare Hocuspocus: who may open a live document, before it is loaded. */
import { connectLive } from '../../helpers/live';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { MemoryAccess, MemoryStore, serve, type Served } from './harness';

const store = new MemoryStore();
const access = new MemoryAccess(store);
let server: Served;
let loads = 0;
const counting = { ...store, load: (id: string) => ((loads += 1), store.load(id)) } as MemoryStore;

beforeAll(async () => {
  server = await serve([new Authentication(access), new Loading(counting)]);
});
afterAll(() => server.close());

describe('authentication', () => {
  it('refuses an unknown token, and an article that does not exist, before loading anything', async () => {
    const { articleId } = store.article(['<p>Text.</p>']);
    await expect(connectLive(server.url, articleId, 'nope')).rejects.toThrow(/session has expired/);
    await expect(connectLive(server.url, '00000000-0000-4000-8000-000000000000', access.admin('Ada'))).rejects.toThrow(/does not exist/);
    expect(loads).toBe(0);
    expect(server.hocuspocus.documents.size).toBe(0);
  });

  it('opens the document writable for an editor and read-only for a reader', async () => {
    const { articleId } = store.article(['<p>Text.</p>']);
    const editor = await connectLive(server.url, articleId, access.admin('Ed'));
    const reader = await connectLive(server.url, articleId, access.admin('Rea', 'read'));
    const connections = [...server.hocuspocus.documents.values()][0].getConnections();
    expect(connections.map((c) => [c.context.name, c.readOnly]).sort()).toEqual([['Ed', false], ['Rea', true]]);
    editor.destroy();
    reader.destroy();
  });
});
