/** live/permissions.ts on a bare Hocuspocus: a change of what an admin may do reaches their open connection. */
import { connectLive, sectionText, typeInto, until } from '../../helpers/live';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { Permissions } from '../../../src/plugins/quire/server/src/live/permissions';
import { log, MemoryAccess, MemoryStore, serve, type Served } from './harness';

const store = new MemoryStore();
const access = new MemoryAccess(store);
let server: Served;

beforeAll(async () => {
  server = await serve([new Authentication(access), new Permissions(access, log, 100), new Loading(store)]);
});
afterAll(() => server.close());

const serverText = (id: string) => [...server.hocuspocus.documents.values()].map((d) => sectionText(d, id)).join();

describe('permissions', () => {
  it('an editor who loses edit becomes read-only (and is told); one whose session ends is disconnected', async () => {
    const { articleId, ids } = store.article(['<p>Alpha.</p>']);
    const token = access.admin('Ed');
    const page = await connectLive(server.url, articleId, token);
    const adminId = [...server.hocuspocus.documents.values()][0].getConnections()[0].context.adminId;
    access.may.set(adminId, 'read');
    await until(() => page.stateless.some((s) => JSON.parse(s).type === 'readOnly'), 5_000);
    typeInto(page.doc, ids[0], 0, 0, 'NOT ALLOWED ');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(serverText(ids[0])).toBe('Alpha.');

    access.may.set(adminId, 'none');
    await until(() => [...server.hocuspocus.documents.values()].every((d) => d.getConnectionsCount() === 0), 5_000);
    page.destroy();
  });
});
