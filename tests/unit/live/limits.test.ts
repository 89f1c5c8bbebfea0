/** live/limits.ts on a bare Hocuspocus (limits made small): what bad input gets. */
import { connectLive, sectionText, typeInto, until } from '../../helpers/live';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Limits } from '../../../src/plugins/quire/server/src/live/limits';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { log, MemoryAccess, MemoryStore, serve, type Served } from './harness';

const store = new MemoryStore();
const access = new MemoryAccess(store);
let server: Served;

beforeAll(async () => {
  server = await serve([new Authentication(access), new Limits(log, { updateBytes: 2_000, sectionChars: 600 }), new Loading(store)]);
});
afterAll(() => server.close());

describe('limits', () => {
  it('refuses an update over the size limit and one that takes a section past its limit, says why, and keeps the document', async () => {
    const { articleId, ids } = store.article(['<p>Alpha.</p>']);
    const watcher = await connectLive(server.url, articleId, access.admin('Watcher'));
    const big = await connectLive(server.url, articleId, access.admin('Big'));
    typeInto(big.doc, ids[0], 0, 0, 'x'.repeat(3_000));
    await until(() => big.stateless.length > 0);
    expect(JSON.parse(big.stateless[0])).toEqual({ type: 'refused', reason: expect.stringMatching(/too large/) });
    const long = await connectLive(server.url, articleId, access.admin('Long'));
    typeInto(long.doc, ids[0], 0, 0, 'y'.repeat(700));
    await until(() => long.stateless.length > 0);
    expect(JSON.parse(long.stateless[0]).reason).toMatch(/more than the limit of 600/);
    expect(sectionText(watcher.doc, ids[0])).toBe('Alpha.');
    for (const page of [watcher, big, long]) page.destroy();
  });

  it('ignores a read-only connection\'s changes, and closes only the connection that sends a malformed update', async () => {
    const { articleId, ids } = store.article(['<p>Alpha.</p>']);
    const reader = await connectLive(server.url, articleId, access.admin('Reader', 'read'));
    const other = await connectLive(server.url, articleId, access.admin('Other'));
    const bad = await connectLive(server.url, articleId, access.admin('Bad'));
    typeInto(reader.doc, ids[0], 0, 0, 'READER ');
    const { createEncoder, toUint8Array, writeVarString, writeVarUint, writeVarUint8Array } = require('lib0/encoding');
    const encoder = createEncoder();
    writeVarString(encoder, `article:${articleId}`);
    writeVarUint(encoder, 0);
    writeVarUint(encoder, 2);
    writeVarUint8Array(encoder, new Uint8Array([255, 255, 255, 1, 2, 3]));
    (bad.provider.configuration.websocketProvider as any).webSocket.send(toUint8Array(encoder));
    await until(() => bad.closes.length > 0);
    typeInto(other.doc, ids[0], 0, 0, 'Still live. ');
    await until(() => [...server.hocuspocus.documents.values()].some((d) => sectionText(d, ids[0]) === 'Still live. Alpha.'));
    expect(log.lines.some((line) => line.includes('ignored changes from read-only connection'))).toBe(true);
    for (const page of [reader, other, bad]) page.destroy();
  });
});
