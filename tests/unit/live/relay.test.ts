/**
 * live/relay.ts: two bare Hocuspocus servers sharing documents through Redis (skipped without
 * Redis at TEST_REDIS_URL or 127.0.0.1:6379). Typing crosses; both servers store it (the one
 * its page is on, and the other from the relay) and it is written once; without the Redis
 * extension's store lock, neither store is skipped.
 */
import { randomBytes } from 'node:crypto';
import { connectLive, sectionText, typeInto, until } from '../../helpers/live';
import { redisAvailable } from '../../helpers/processes';
import { Authentication } from '../../../src/plugins/quire/server/src/live/authentication';
import { Loading } from '../../../src/plugins/quire/server/src/live/loading';
import { redisRelay } from '../../../src/plugins/quire/server/src/live/relay';
import { Storing } from '../../../src/plugins/quire/server/src/live/storing';
import { log, MemoryAccess, MemoryStore, serve, type Served } from './harness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `quire-relay-test-${randomBytes(4).toString('hex')}:`;
const store = new MemoryStore();
const access = new MemoryAccess(store);
let enabled = false;
let one: Served;
let two: Served;

beforeAll(async () => {
  enabled = await redisAvailable(REDIS_URL);
  if (!enabled) {
    // eslint-disable-next-line no-console
    console.warn(`relay: SKIPPED, no Redis at ${REDIS_URL}`);
    return;
  }
  const server = () => serve([new Authentication(access), new Loading(store), new Storing(store, log, 300), redisRelay({ url: REDIS_URL, prefix, log })]);
  [one, two] = await Promise.all([server(), server()]);
});
afterAll(async () => {
  await one?.close();
  await two?.close();
});

it('relays typing between two servers, and what both store is written once', async () => {
  if (!enabled) return;
  const { articleId, ids } = store.article(['<p>Alpha.</p>']);
  const here = await connectLive(one.url, articleId, access.admin('Here'), { name: 'Here' });
  const there = await connectLive(two.url, articleId, access.admin('There'), { name: 'There' });
  typeInto(here.doc, ids[0], 0, 0, 'Crossed. ');
  await until(() => sectionText(there.doc, ids[0]) === 'Crossed. Alpha.', 5_000);
  // Both servers store (the second finds it stored already); the relayed store names who typed, from awareness.
  await until(() => store.stores.filter((s) => s.articleId === articleId).length >= 2, 5_000);
  const stores = store.stores.filter((s) => s.articleId === articleId);
  expect(stores.filter((s) => s.written.includes(ids[0]))).toHaveLength(1);
  expect(stores.flatMap((s) => s.actors)).toEqual(['Here', 'Here']);
  here.destroy();
  there.destroy();
});
