/**
 * The live channel's Hocuspocus extensions (issue 32), each against a bare Hocuspocus server on
 * a free port, with the canvas's own client (HocuspocusProvider) or raw y-protocols bytes for
 * what the canvas would never send: document names and caps (finding 2), the update guard
 * (findings 3, 7, 8), the rate limit (finding 4) and presence (finding 6).
 */
import http from 'node:http';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { ARTICLE, SECTION_1, authMessage, awarenessMessage, awarenessUpdate, bareServer, rawClient, syncStep2Message, until, updateMessage, type BareServer } from '../../helpers/bare-live';
import { connectLive, type LiveClient } from '../../helpers/live';
import { DocumentNames } from '../../../src/plugins/quire/server/src/live/document-names';
import { UpdateGuard } from '../../../src/plugins/quire/server/src/live/guard-extension';
import { RateLimit, TokenBucket } from '../../../src/plugins/quire/server/src/live/rate-extension';
import { AwarenessGuard } from '../../../src/plugins/quire/server/src/live/awareness-extension';

const servers: BareServer[] = [];
const clients: LiveClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) await server.close();
});
const start = async (options: Parameters<typeof bareServer>[0]) => {
  const server = await bareServer(options);
  servers.push(server);
  return server;
};
const connect = async (url: string, article: string, token: string, name?: string) => {
  const client = await connectLive(url, article, token, name ? { name } : {});
  clients.push(client);
  return client;
};
const article = (n: number) => `bbbbbbbb-0000-4000-8000-${String(n).padStart(12, '0')}`;
const firstText = (doc: Y.Doc) => (doc.getXmlFragment(`section:${SECTION_1}`).get(0) as Y.XmlElement).get(0) as Y.XmlText;

describe('document names and caps (finding 2)', () => {
  it('opens only `article:` and the id in lower case: another spelling would be a second copy of the article', async () => {
    const server = await start({ extensions: (limits) => [new DocumentNames(limits)] });
    await connect(server.url, ARTICLE, 'admin:1');
    await expect(connect(server.url, ARTICLE.toUpperCase(), 'admin:1')).rejects.toThrow(/not a live document/);
    await expect(connect(server.url, `${ARTICLE.slice(0, -1)}A`, 'admin:1')).rejects.toThrow(/lower case/);
    expect(server.hocuspocus.getDocumentsCount()).toBe(1);
  });

  it('caps documents per socket, per admin and per process', async () => {
    const names = new DocumentNames({ documentsPerSocket: 2, documentsPerAdmin: 3, documentsPerProcess: 4 });
    const server = await start({ extensions: () => [names], admit: (adminId) => names.admit(adminId) });
    // Per socket: one shared socket (the provider can multiplex documents).
    const socket = new HocuspocusProviderWebsocket({ url: server.url, WebSocketPolyfill: WebSocket } as any);
    const outcomes: Array<Promise<string>> = [];
    const providers: HocuspocusProvider[] = [];
    for (const n of [1, 2, 3]) {
      outcomes.push(
        new Promise((resolve) => {
          const provider = new HocuspocusProvider({ websocketProvider: socket, name: `article:${article(n)}`, token: 'admin:1', onSynced: () => resolve('open'), onAuthenticationFailed: ({ reason }) => resolve(reason) });
          providers.push(provider);
          provider.attach();
        }),
      );
      // One at a time, so the cap sees the ones before set up.
      await outcomes[outcomes.length - 1];
    }
    expect((await Promise.all(outcomes)).slice(0, 2)).toEqual(['open', 'open']);
    expect(await outcomes[2]).toMatch(/QUIRE_LIVE_DOCUMENTS_PER_SOCKET/);
    // Per admin: admin 1 has 2 open; a third on another socket is fine, a fourth is not.
    await connect(server.url, article(4), 'admin:1');
    await expect(connect(server.url, article(5), 'admin:1')).rejects.toThrow(/QUIRE_LIVE_DOCUMENTS_PER_ADMIN/);
    // Per process: 3 open, one more for another admin, then none.
    await connect(server.url, article(6), 'admin:2');
    await expect(connect(server.url, article(7), 'admin:2')).rejects.toThrow(/QUIRE_LIVE_DOCUMENTS\b/);
    // An article already open is not a new document.
    await connect(server.url, article(6), 'admin:3');
    for (const provider of providers) provider.destroy();
    socket.destroy();
  });
});

describe('the update guard (findings 3, 7, 8)', () => {
  const guarded = () => start({ limits: { maxDocumentBytes: 64 * 1024 }, extensions: (limits) => [new UpdateGuard(limits)] });

  it('refuses junk, `order`, `meta` and a javascript: link from an editor, says why, and the document stays as it was', async () => {
    const server = await guarded();
    // A reader keeps the document open throughout, so what is checked at the end is the same document.
    await connect(server.url, ARTICLE, 'reader:9');
    const attempts: Array<(doc: Y.Doc) => void> = [
      (doc) => doc.getMap('junk').set('x', 'y'.repeat(10_000)),
      (doc) => doc.getArray<string>('order').delete(0, 1),
      (doc) => doc.getMap('meta').set(`changed:${SECTION_1}`, { name: 'Super Admin', kind: 'editor', at: 'now' }),
      (doc) => firstText(doc).format(0, 4, { link: { href: 'javascript:alert(document.cookie)' } }),
    ];
    for (const attempt of attempts) {
      const client = await connect(server.url, ARTICLE, 'admin:1');
      attempt(client.doc);
      // The reason in words (the canvas shows it), and the server closed the document connection.
      await until(() => client.stateless.some((s) => JSON.parse(s).type === 'refused'));
      await until(() => server.hocuspocus.documents.get(`article:${ARTICLE}`)!.getConnectionsCount() === 1);
      client.destroy();
    }
    const document = server.hocuspocus.documents.get(`article:${ARTICLE}`)!;
    expect(document.share.has('junk')).toBe(false);
    expect(document.getArray('order').length).toBe(2);
    expect(document.getMap('meta').has(`changed:${SECTION_1}`)).toBe(false);
    expect(JSON.stringify(firstText(document).toDelta())).not.toMatch(/javascript/);
    // Typing still works.
    const editor = await connect(server.url, ARTICLE, 'admin:1');
    firstText(editor.doc).insert(0, 'Typed. ');
    await until(() => firstText(document).toString().startsWith('Typed. '));
  });

  it('what a sync step 2 writes into `meta` and `order` is put back as the server had it', async () => {
    const server = await guarded();
    const editor = await connect(server.url, ARTICLE, 'admin:1');
    const document = server.hocuspocus.documents.get(`article:${ARTICLE}`)!;
    const order = document.getArray<string>('order').toArray();
    const attacker = await rawClient(server.url);
    try {
      attacker.send(authMessage(`article:${ARTICLE}`, 'admin:2'));
      await until(() => document.getConnectionsCount() === 2);
      const before = Y.encodeStateVector(editor.doc);
      editor.doc.transact(() => {
        editor.doc.getMap('meta').set(`deleted:${SECTION_1}`, { name: 'Super Admin', kind: 'editor', at: 'now' });
        editor.doc.getArray<string>('order').delete(0, 1);
      }, 'forged');
      attacker.send(syncStep2Message(`article:${ARTICLE}`, Y.encodeStateAsUpdate(editor.doc, before)));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(document.getMap('meta').has(`deleted:${SECTION_1}`)).toBe(false);
      expect(document.getArray('order').toArray()).toEqual(order);
    } finally {
      attacker.ws.terminate();
    }
  });

  it('typing sent before a reconnecting page\'s sync step 2, on top of what the server lacks, waits for the step 2 (no close); after it, such an update closes the connection (4409)', async () => {
    const server = await guarded();
    const editor = await connect(server.url, ARTICLE, 'admin:1');
    const document = server.hocuspocus.documents.get(`article:${ARTICLE}`)!;
    // A copy that has typing the server lacks (typed offline), then more typing on top of it.
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(editor.doc));
    const serverState = Y.encodeStateVector(document);
    firstText(copy).insert(0, 'Offline. ');
    const beforeTop = Y.encodeStateVector(copy);
    firstText(copy).insert(0, 'On top. ');
    const page = await rawClient(server.url);
    try {
      page.send(authMessage(`article:${ARTICLE}`, 'admin:2'));
      await until(() => document.getConnectionsCount() === 2);
      // The provider sends the new typing at once, its sync step 2 (everything) after.
      page.send(updateMessage(`article:${ARTICLE}`, Y.encodeStateAsUpdate(copy, beforeTop)));
      page.send(syncStep2Message(`article:${ARTICLE}`, Y.encodeStateAsUpdate(copy, serverState)));
      await until(() => firstText(document).toString().startsWith('On top. Offline. '));
      expect(page.isClosed()).toBe(false);
      // Once synced, an update that depends on what the server never got is a reason to sync again.
      firstText(copy).insert(0, 'Lost. ');
      const afterLost = Y.encodeStateVector(copy);
      firstText(copy).insert(0, 'Depends on it. ');
      page.send(updateMessage(`article:${ARTICLE}`, Y.encodeStateAsUpdate(copy, afterLost)));
      await until(() => document.getConnectionsCount() === 1);
      expect(firstText(document).toString()).not.toContain('Depends on it.');
    } finally {
      page.ws.terminate();
    }
  });

  it('caps the whole document\'s encoded size', async () => {
    const server = await guarded();
    await connect(server.url, ARTICLE, 'reader:9');
    const client = await connect(server.url, ARTICLE, 'admin:1');
    firstText(client.doc).insert(0, 'x'.repeat(40 * 1024));
    await until(() => firstText(server.hocuspocus.documents.get(`article:${ARTICLE}`)!).length > 40_000);
    firstText(client.doc).insert(0, 'y'.repeat(40 * 1024));
    await until(() => client.stateless.join().includes('QUIRE_LIVE_MAX_DOCUMENT_MB'));
    expect(firstText(server.hocuspocus.documents.get(`article:${ARTICLE}`)!).toString()).not.toMatch(/y/);
  });
});

describe('the rate limit (finding 4)', () => {
  it('a bucket refills at its rate and holds at most its burst', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now = 100;
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    now = 10_000;
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });

  it('closes an editor flooding one-character updates, and the process stays responsive meanwhile', async () => {
    const FLOOD = 5_000;
    const flood = async (server: BareServer) => {
      const client = await connect(server.url, ARTICLE, 'admin:1');
      const latencies: number[] = [];
      let running = true;
      const probe = (async () => {
        while (running) {
          const begun = performance.now();
          await new Promise<void>((resolve) => http.get(`http://127.0.0.1:${server.port}/_health`, (response) => response.resume().on('end', () => resolve())));
          latencies.push(performance.now() - begun);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      const text = firstText(client.doc);
      for (let i = 0; i < FLOOD; i++) text.insert(0, 'x');
      const document = server.hocuspocus.documents.get(`article:${ARTICLE}`)!;
      await until(() => client.stateless.length > 0 || firstText(document).length >= FLOOD, 60_000);
      running = false;
      await probe;
      latencies.sort((a, b) => a - b);
      return { p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0, applied: firstText(document).length, stateless: client.stateless.join() };
    };
    const baseline = await flood(await start({}));
    const limited = await flood(await start({ extensions: (limits) => [new RateLimit(limits)] }));
    // eslint-disable-next-line no-console
    console.log(`${FLOOD} one-character updates: without the limit ${baseline.applied} applied, health p99 ${baseline.p99.toFixed(1)} ms; with it ${limited.applied} applied, p99 ${limited.p99.toFixed(1)} ms`);
    expect(limited.stateless).toMatch(/Too many changes at once/);
    expect(limited.applied).toBeLessThan(1_000);
    expect(baseline.applied).toBeGreaterThanOrEqual(FLOOD);
    // The flood is generated in this same process (the provider's 5,000 transactions block it
    // too), so only the ratio is asserted; docs/operations.md has the figures measured.
    expect(limited.p99).toBeLessThan(baseline.p99);
  });
});

describe('presence (finding 6)', () => {
  it('a read-only admin can neither rename others, nor invent people, nor pass as someone else', async () => {
    const server = await start({ extensions: () => [new AwarenessGuard()] });
    const victim = await connect(server.url, ARTICLE, 'admin:1', 'Admin 1');
    const document = server.hocuspocus.documents.get(`article:${ARTICLE}`)!;
    await until(() => document.awareness.getStates().size === 1);
    const attacker = await rawClient(server.url);
    try {
      attacker.send(authMessage(`article:${ARTICLE}`, 'reader:2'));
      await until(() => document.getConnectionsCount() === 2);
      const fakes = Array.from({ length: 100 }, (_, i) => ({ clientId: 1000 + i, clock: 1, state: { user: { name: `Ghost ${i}`, id: 1, color: '#000000' }, section: null } }));
      attacker.send(
        awarenessMessage(
          `article:${ARTICLE}`,
          awarenessUpdate([{ clientId: 999, clock: 1, state: { user: { name: 'Super Admin', id: 1, color: 'url(javascript:x)' }, section: SECTION_1, extra: 'x' } }, { clientId: victim.doc.clientID, clock: 99, state: { user: { name: 'Renamed', id: 1 } } }, ...fakes]),
        ),
      );
      await until(() => document.awareness.getStates().size === 2);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const states = [...document.awareness.getStates()];
      expect(states).toHaveLength(2);
      expect(document.awareness.getStates().get(victim.doc.clientID)?.user.name).toBe('Admin 1');
      expect(document.awareness.getStates().get(999)).toEqual({ user: { name: 'Admin 2', id: 2, kind: 'editor', color: '#666666' }, section: SECTION_1 });
      // The victim's page sees itself unchanged and the attacker under their own name.
      await until(() => victim.provider.awareness!.getStates().size === 2);
      expect(victim.provider.awareness!.getStates().get(999)?.user.name).toBe('Admin 2');
    } finally {
      attacker.ws.terminate();
    }
  });

  it('the canvas\'s own state passes with the server\'s name and id', async () => {
    const server = await start({ extensions: () => [new AwarenessGuard()] });
    const client = await connect(server.url, ARTICLE, 'admin:7', 'I am the Super Admin');
    const document = server.hocuspocus.documents.get(`article:${ARTICLE}`)!;
    await until(() => document.awareness.getStates().get(client.doc.clientID)?.user !== undefined);
    expect(document.awareness.getStates().get(client.doc.clientID)?.user).toEqual({ name: 'Admin 7', id: 7, kind: 'editor', color: '#f00' });
  });
});
