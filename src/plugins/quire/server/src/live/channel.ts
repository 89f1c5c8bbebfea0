/**
 * The live channel (CONTRACT 19; the protocol in docs/architecture.md "Live canvas"): one Yjs
 * document per article, served by Hocuspocus over a WebSocket at /quire/live on Strapi's own
 * HTTP server. The stored article stays the source of truth: a document is built from it when
 * first opened, what editors type is written back through the one edit engine (services/edits)
 * within 2 s, and every other write to the article (article events) is merged into open
 * documents as the smallest change.
 *
 * Merging without losing anyone's typing: each open document keeps a second Y.Doc, `base`,
 * sharing its history and holding what is stored. An agent's new text is diffed into `base`
 * (y-prosemirror's updateYFragment), and that update is applied to the live document: Yjs
 * merges it with whatever editors typed since the last store, as if the agent had typed it.
 *
 * Several processes (REDIS_URL): Hocuspocus' Redis extension relays every update and awareness
 * change between the processes that have a document open, and one of them holds the document
 * (live/ownership.ts): only the holder stores it and merges article events into it, so an
 * agent's write is merged once; the others receive the merge as an update. A process that
 * takes a document over (its holder died) rebuilds `base` from the saved state, whose section
 * revisions are recorded in the same transaction as each store.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Core } from '@strapi/strapi';
import { Hocuspocus, type Connection, type Document, type Extension } from '@hocuspocus/server';
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import IORedis from 'ioredis';
import { WebSocketServer, type WebSocket } from 'ws';
import * as Y from 'yjs';
import { ApiError } from '#kernel/errors';
import { liveRepository } from '../repositories/live';
import { normalizeId } from '../domain/anchors';
import type { ArticleChange, ArticleEvent, EventActor } from '../domain/article-events';
import { sectionTag } from '../domain/etags';
import { Outline } from '../domain/outline';
import { QUIRE_ACTIONS } from '../permissions';
import { LIMITS } from '../schemas/inputs';
import { fillFragment, fragmentLength, fragmentToHtml, renderedHtml, storableHtml, updateFragment } from './content';
import { documentOwnership, OWNER_TTL_MS, type DocumentOwnership } from './ownership';
import { quireConfig } from '../config';
import { allowedOrigins } from '#kernel/origins';
import { hocuspocusLimits, liveLimitsOf, liveRefusal, MAX_UPDATE_BYTES } from './limits';
import { DocumentNames } from './document-names';
import { UpdateGuard } from './guard-extension';
import { AwarenessGuard } from './awareness-extension';
import { RateLimit } from './rate-extension';
import { addressOf, originAllowed, SocketLimits } from './socket-limits';

export const LIVE_PATH = '/quire/live';
/** An update message larger than this is refused (CONTRACT 19). */
export { MAX_UPDATE_BYTES };
/** Close code of a refused change (the reason, in words, comes first as a stateless message). */
export const REFUSED_CLOSE_CODE = 4413;

export const docName = (articleId: string) => `article:${articleId}`;
export const articleOfDoc = (name: string): string | null => (name.startsWith('article:') ? normalizeId(name.slice('article:'.length)) : null);
export const sectionField = (sectionId: string) => `section:${sectionId}`;

/** Who a connection is: the admin user, and whether they may write. */
export interface LiveContext {
  adminId: number;
  name: string;
  canEdit: boolean;
}

interface Synced {
  rev: number;
  /** The section's HTML as the editor schema renders what is stored (what "unchanged" compares with). */
  html: string;
}

/** What the server keeps beside one open document. */
interface LiveState {
  articleId: string;
  ownerId: number;
  articleRowId: number;
  /** Shares the document's history and holds what is stored (see the header). */
  base: Y.Doc;
  synced: Map<string, Synced>;
  /** The premise as stored. */
  premise: string;
  /**
   * What `base` lags on (section ids, 'premise'): stored by a round that did not store
   * everything, so `base` was not caught up. Changes to these merge straight into the document
   * until the next complete store. A section whose store failed (412) is not here: `base`
   * still holds the version the other writer changed, so merging through it keeps the typing.
   */
  baseLags: Set<string>;
  /** Who last changed each field (section id, or "premise") through a connection. */
  lastEditor: Map<string, EventActor>;
  /** `<sectionId>:<rev>` this channel wrote: their events are not merged back. */
  own: Set<string>;
  /** Serialises stores and merges of this document. */
  queue: Promise<void>;
  /**
   * `base`, `synced` and `premise` are this process's own account of what is stored: false on
   * a process that does not hold the document (several processes) until it takes it over.
   */
  current: boolean;
  /** Longest section text seen, for the cheap size pre-check. */
  longest: number;
  /** When each awareness client appeared (presence `since`). */
  since: Map<number, string>;
  /**
   * Several processes: merges made in `base` and not yet applied to the document. Their
   * revisions are saved first (flushMerges), so a process taking over after a crash knows
   * every merge the document holds, and does not merge it a second time.
   */
  held: Array<{ update: Uint8Array; origin: object }>;
}

/** Where the processes of a deployment share live documents (REDIS_URL), or nothing. */
export interface LiveRedisOptions {
  url: string;
  /** Namespace of the keys and channels (REDIS_KEY_PREFIX). */
  prefix: string;
}

/**
 * The Redis extension as a relay only: which process stores a document is decided by
 * live/ownership.ts for the whole time the document is open, not by a lock per store (which
 * would let every process store in turn, each with its own idea of what is stored).
 */
class RedisRelay extends RedisExtension {
  async onStoreDocument() {}
  async afterStoreDocument() {}
}

/** An error Hocuspocus turns into a close (code, reason) or an authentication refusal (reason). */
const refusal = liveRefusal;

const LOAD_ORIGIN = { source: 'local', skipStoreHooks: true } as const;

export interface LiveChannel {
  hocuspocus: Hocuspocus<LiveContext>;
  /** Editors connected to an article's document here (awareness), for presence. */
  editors(articleId: string): Array<{ name: string; id: number | null; section: string | null; since: string }>;
  /** Resolves once pending stores and merges have run (tests, shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export function startLiveChannel(strapi: Core.Strapi, options: { coalesceSeconds: number; redis?: LiveRedisOptions | null }): LiveChannel {
  const service = (name: string) => strapi.plugin('quire').service(name);
  const states = new Map<string, LiveState>();
  /** Documents being loaded (their ownership is claimed before they are in `states`). */
  const loading = new Set<string>();
  const warnedReadOnly = new WeakSet<Connection>();
  const log = strapi.log;
  const repository = liveRepository(strapi);
  /** Documents loaded here (ownership renews or takes over only these). */
  const ready = new Set<string>();
  const relay = options.redis
    ? new RedisRelay({
        prefix: `${options.redis.prefix}live`,
        createClient: () => {
          const client = new IORedis(options.redis!.url, { maxRetriesPerRequest: 1 });
          client.on('error', (error) => log.warn(`live relay: redis: ${error.message}`));
          return client as any;
        },
      })
    : null;
  const ownership: DocumentOwnership | null = options.redis
    ? documentOwnership({
        url: options.redis.url,
        prefix: options.redis.prefix,
        candidates: () => ready,
        inUse: (name) => ready.has(name) || loading.has(name),
        onTakeover: (name) => {
          const document = hocuspocus.documents.get(name);
          const state = states.get(name);
          if (document && state) void enqueue(state, () => takeover(document, state));
        },
        log,
      })
    : null;
  /** This process may store the document and merge into it (always, with one process). */
  const mayWrite = async (name: string, state: LiveState) => {
    if (!ownership) return true;
    if (state.current && (await ownership.confirm(name))) return true;
    // Not the holder, or no longer (it missed a renewal): only a takeover makes its account current again.
    state.current = false;
    return false;
  };

  async function authenticate(token: string): Promise<LiveContext> {
    const manager = (strapi as any).sessionManager;
    if (!token || !manager) throw refusal('Sign in to the admin panel to open the live canvas.');
    const result = manager('admin').validateAccessToken(token);
    if (!result?.isValid) throw refusal('Your admin session has expired: sign in again.');
    if (!(await manager('admin').isSessionActive(result.payload.sessionId))) throw refusal('Your admin session has ended: sign in again.');
    const user = await repository.adminUser(Number(result.payload.userId));
    if (!user || user.isActive !== true) throw refusal('Your admin account is not active.');
    const ability = await strapi.service('admin::permission').engine.generateUserAbility(user);
    const canRead = ability.can(QUIRE_ACTIONS.read);
    const canEdit = ability.can(QUIRE_ACTIONS.edit);
    if (!canRead) throw refusal('Your role may not read Quire articles (Settings > Roles > Plugins > Quire > Read articles).');
    const name = [user.firstname, user.lastname].filter(Boolean).join(' ') || user.username || user.email;
    return { adminId: Number(user.id), name, canEdit };
  }

  /** The article's sections as stored, in order, with their revisions. */
  async function storedSections(articleRowId: number) {
    const rows = await repository.sectionRows(articleRowId);
    const byId = new Map(rows.map((row) => [row.uuid as string, row]));
    const outline = Outline.of(rows);
    return { outline, rows: outline.items.map((item) => ({ id: item.uuid, rev: Number(item.rev), html: String(byId.get(item.uuid)?.html ?? '') })) };
  }

  async function articleRow(articleId: string) {
    return repository.article(articleId);
  }

  /**
   * The document's Yjs state as of its last complete store, with the revisions it holds: a
   * document loaded again (after its editors left, or a restart) continues the same history,
   * so a page that reconnects with its own copy merges instead of doubling the text.
   */
  async function persist(document: Document, state: LiveState, snapshot: Uint8Array) {
    const row = {
      state: Buffer.from(snapshot).toString('base64'),
      revs: JSON.stringify(Object.fromEntries([...state.synced].map(([id, s]) => [id, s.rev]))),
      premise: state.premise,
      updated_at: new Date(),
    };
    await repository.saveState(state.articleRowId, row);
  }

  async function load(document: Document, articleId: string): Promise<void> {
    const article = await articleRow(articleId);
    if (!article || article.user_id == null) throw refusal('This article no longer exists.', 4404);
    if (ownership && !(await ownership.claim(document.name)) && (await follow(document, articleId, article))) return;
    const { rows } = await storedSections(Number(article.id));
    const premise = String(article.premise ?? '');
    const saved = await repository.savedState(Number(article.id));
    if (saved) {
      await resume(document, articleId, article, rows, premise, saved);
      return;
    }
    document.transact(() => {
      document.getArray<string>('order').insert(0, rows.map((row) => row.id));
      for (const row of rows) fillFragment(document.getXmlFragment(sectionField(row.id)), row.html);
      document.getText('premise').insert(0, premise);
      document.getMap('meta').set('notesRev', 0);
      document.getMap('meta').set('titleRev', 0);
    }, LOAD_ORIGIN);
    const base = new Y.Doc();
    Y.applyUpdate(base, Y.encodeStateAsUpdate(document));
    const synced = new Map<string, Synced>();
    let longest = 0;
    for (const row of rows) {
      const fragment = document.getXmlFragment(sectionField(row.id));
      synced.set(row.id, { rev: row.rev, html: fragmentToHtml(fragment) });
      longest = Math.max(longest, fragmentLength(fragment));
    }
    const state: LiveState = {
      articleId,
      ownerId: Number(article.user_id),
      articleRowId: Number(article.id),
      base,
      synced,
      premise,
      baseLags: new Set(),
      lastEditor: new Map(),
      own: new Set(),
      queue: Promise.resolve(),
      current: true,
      longest,
      since: new Map(),
      held: [],
    };
    states.set(document.name, state);
    // Saved at once: a page that keeps this copy and reconnects after an unload must find the same history.
    await persist(document, state, Y.encodeStateAsUpdate(document));
  }

  /**
   * Loads the saved state, then brings it to what is stored (written while nobody had it open)
   * as merges of the differences, as an agent's write would be.
   */
  async function resume(document: Document, articleId: string, article, rows: Array<{ id: string; rev: number; html: string }>, premise: string, saved) {
    Y.applyUpdate(document, Buffer.from(String(saved.state), 'base64'), LOAD_ORIGIN);
    const state = adopt(document, articleId, article, saved, true);
    const { base, synced } = state;
    states.set(document.name, state);
    const stored = new Set(rows.map((row) => row.id));
    for (const id of [...synced.keys()]) if (!stored.has(id)) synced.delete(id);
    const by: EventActor = { kind: 'agent', name: 'a change made while the article was closed' };
    for (const row of rows) {
      const known = synced.get(row.id);
      // Several processes: a store records its revision without the state (saveRevs), so the same revision may hold newer text.
      if (known && known.rev === row.rev && (!ownership || renderedHtml(row.html) === known.html)) continue;
      mergeSection(document, state, by, row.id, row);
    }
    setOrder(document, rows.map((row) => row.id));
    if (premise !== state.premise) {
      merge(document, state, by, 'premise', (doc) => setText(doc.getText('premise'), premise));
      state.premise = premise;
    }
    await flushMerges(document, state);
    // Merged on load: the same in `base`, so nothing here is "changed since stored".
    Y.applyUpdate(base, Y.encodeStateAsUpdate(document));
    state.longest = Math.max(state.longest, longestSection(document));
  }

  const parseRevs = (saved): Record<string, number> => (typeof saved.revs === 'string' ? JSON.parse(saved.revs) : (saved.revs ?? {}));

  /** The state beside a document just loaded from its saved state (base: that state; synced: its revisions). */
  function adopt(document: Document, articleId: string, article, saved, current: boolean): LiveState {
    const base = new Y.Doc();
    Y.applyUpdate(base, Y.encodeStateAsUpdate(document));
    const synced = new Map<string, Synced>();
    for (const [id, rev] of Object.entries(parseRevs(saved))) synced.set(id, { rev: Number(rev), html: fragmentToHtml(document.getXmlFragment(sectionField(id))) });
    return {
      articleId,
      ownerId: Number(article.user_id),
      articleRowId: Number(article.id),
      base,
      synced,
      premise: String(saved.premise ?? ''),
      baseLags: new Set(),
      lastEditor: new Map(),
      own: new Set(),
      queue: Promise.resolve(),
      current,
      longest: 0,
      since: new Map(),
      held: [],
    };
  }

  /**
   * Several processes, the document held by another: this copy starts from the saved state
   * and catches up through Redis (the extension asks the holder for what it has since); the
   * holder alone merges what was stored meanwhile. False when the holder is gone and this
   * process took the document (it then loads it as the holder does).
   */
  async function follow(document: Document, articleId: string, article): Promise<boolean> {
    const end = Date.now() + 3 * OWNER_TTL_MS;
    for (;;) {
      const saved = await repository.savedState(Number(article.id));
      if (saved) {
        Y.applyUpdate(document, Buffer.from(String(saved.state), 'base64'), LOAD_ORIGIN);
        const state = adopt(document, articleId, article, saved, false);
        state.longest = Math.max(state.longest, longestSection(document));
        states.set(document.name, state);
        return true;
      }
      // The holder is still building it (it saves the state at once), or died doing so.
      if (await ownership!.claim(document.name)) return false;
      if (Date.now() > end) throw refusal('The article is being opened on another server: reconnecting.', 4503);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * This process took over a document it had open (its holder died, or left it). The saved
   * state is an earlier copy of the same document (applying it adds only what the holder had
   * and had not relayed, nothing twice); `base` restarts from it. A section whose stored
   * revision is the one saved came from the document or was merged into it (a store records
   * its revision in its transaction, a merge before it is applied): nothing to merge, only
   * `base` may lag on it. Any other stored revision was written after, by someone else, and
   * is merged as an event's would be. Then what the editors typed since the last store is
   * stored here.
   */
  async function takeover(document: Document, state: LiveState): Promise<void> {
    if (!(await ownership?.confirm(document.name))) return;
    const saved = await repository.savedState(state.articleRowId);
    const article = await articleRow(state.articleId);
    if (!saved || !article) return;
    const { rows } = await storedSections(state.articleRowId);
    const savedState = Buffer.from(String(saved.state), 'base64');
    Y.applyUpdate(document, savedState, LOAD_ORIGIN);
    state.base.destroy();
    state.base = new Y.Doc();
    Y.applyUpdate(state.base, savedState);
    const revs = parseRevs(saved);
    state.synced = new Map();
    state.baseLags = new Set();
    state.held = [];
    state.premise = String(saved.premise ?? '');
    const by: EventActor = { kind: 'agent', name: 'a change made while its server was down' };
    for (const row of rows) {
      if (revs[row.id] === row.rev) {
        const html = renderedHtml(row.html);
        state.synced.set(row.id, { rev: row.rev, html });
        if (html !== fragmentToHtml(state.base.getXmlFragment(sectionField(row.id)))) state.baseLags.add(row.id);
        continue;
      }
      mergeSection(document, state, by, row.id, row);
    }
    setOrder(document, rows.map((row) => row.id));
    const premise = String(article.premise ?? '');
    if (premise !== state.premise) {
      // Stored from the document (by a store whose state was not saved), or written by someone else.
      if (document.getText('premise').toString() === premise) state.baseLags.add('premise');
      else merge(document, state, by, 'premise', (doc) => setText(doc.getText('premise'), premise));
      state.premise = premise;
    }
    await flushMerges(document, state);
    state.longest = longestSection(document);
    state.current = true;
    log.info(`live ${document.name}: this process stores it now`);
    await store(document, state);
  }

  /**
   * Several processes: records the revisions the merges bring (saveRevs), then applies them to
   * the document (see LiveState.held). The saved state stays the document's last complete
   * store: `base` holds neither the document's own changes (meta, order) nor its typing.
   */
  async function flushMerges(document: Document, state: LiveState) {
    if (!state.held.length) return;
    const held = state.held.splice(0);
    try {
      await repository.saveRevs(state.articleRowId, JSON.stringify(Object.fromEntries([...state.synced].map(([id, s]) => [id, s.rev]))));
    } catch (error) {
      log.warn(`live ${state.articleId}: state not saved before a merge: ${(error as Error).message}`);
    }
    for (const { update, origin } of held) Y.applyUpdate(document, update, origin);
  }

  /** Records who changed which field, from the transactions editors' connections make. */
  function track(document: Document) {
    if (ownership) {
      // Hocuspocus stores only after its own connections' changes: the holder also stores what
      // editors on other processes typed (relayed through Redis).
      document.on('update', (_update: Uint8Array, origin: { source?: string } | null) => {
        if (origin?.source !== 'redis' || !ownership.holds(document.name)) return;
        void hocuspocus.storeDocumentHooks(document, {
          instance: hocuspocus,
          clientsCount: document.getConnectionsCount(),
          document,
          documentName: document.name,
          lastContext: {},
          lastTransactionOrigin: origin,
        } as any);
      });
    }
    document.on('afterTransaction', (transaction: Y.Transaction) => {
      const origin = transaction.origin as { source?: string; connection?: Connection<LiveContext> } | null;
      if (origin?.source !== 'connection' || !origin.connection) return;
      const state = states.get(document.name);
      if (!state) return;
      const names = new Map<unknown, string>();
      for (const [key, type] of document.share) names.set(type, key);
      const actor: EventActor = { kind: 'editor', name: origin.connection.context.name };
      for (const type of transaction.changed.keys()) {
        let root: any = type;
        while (root._item) root = root._item.parent;
        const key = names.get(root);
        if (key?.startsWith('section:')) state.lastEditor.set(key.slice('section:'.length), actor);
        else if (key === 'premise') state.lastEditor.set('premise', actor);
      }
    });
  }

  const enqueue = (state: LiveState, work: () => Promise<void>) => {
    const run = state.queue.then(work).catch((error: Error) => {
      log.warn(`live ${state.articleId}: ${error.message}`);
    });
    state.queue = run;
    return run;
  };

  /**
   * Writes what changed since the last store: each changed section as HTML through the edit
   * engine (sanitised there), conditional on the revision the document was built on, so an
   * agent's write in between is never overwritten (its event merges it, then this runs again).
   */
  async function store(document: Document, state: LiveState): Promise<void> {
    if (!(await mayWrite(document.name, state))) return;
    const snapshot = Y.encodeStateAsUpdate(document);
    const meta = document.getMap('meta');
    let complete = true;
    const storedNow: string[] = [];
    let longest = 0;
    for (const id of document.getArray<string>('order').toArray()) {
      const known = state.synced.get(id);
      const fragment = document.getXmlFragment(sectionField(id));
      longest = Math.max(longest, fragmentLength(fragment));
      if (!known) continue;
      // One section that cannot be read (saved before issue 32's guard) never stops the others.
      const html = storableHtml(fragment, (error) => log.warn(`live ${state.articleId}: section ${id} not stored: ${error.message}`));
      if (html === null) {
        complete = false;
        continue;
      }
      if (html === known.html) continue;
      const actor = state.lastEditor.get(id) ?? { kind: 'editor', name: 'an editor' };
      const next = known.rev + 1;
      state.own.add(`${id}:${next}`);
      try {
        const { outcome } = await service('sections').replace(state.ownerId, state.articleId, id, { html: html || '<p></p>' }, {
          actor,
          ifMatch: sectionTag(id, known.rev),
          coalesceSeconds: options.coalesceSeconds,
          // Several processes: the revision this store made is saved with it, so a process taking over knows the document holds it.
          afterOps: ownership
            ? async (trx, { outline }) => {
                const revs = Object.fromEntries([...state.synced].map(([key, s]) => [key, s.rev]));
                revs[id] = outline.find(id)?.rev ?? next;
                await repository.in(trx).saveRevs(state.articleRowId, JSON.stringify(revs));
              }
            : undefined,
        });
        const rev = outcome.outline.find(id)?.rev ?? next;
        state.synced.set(id, { rev, html });
        storedNow.push(id);
        document.transact(() => meta.set(`changed:${id}`, { name: actor.name, kind: actor.kind, at: new Date().toISOString() }), LOAD_ORIGIN);
      } catch (error) {
        state.own.delete(`${id}:${next}`);
        complete = false;
        // 412: someone wrote meanwhile; their event merges it and the next store writes the result.
        if (!(error instanceof ApiError) || (error.status !== 412 && error.status !== 404)) log.warn(`live ${state.articleId}: section ${id} not stored: ${(error as Error).message}`);
      }
    }
    state.longest = longest;
    const premise = document.getText('premise').toString();
    if (premise !== state.premise) {
      try {
        const actor = state.lastEditor.get('premise') ?? { kind: 'editor' as const, name: 'an editor' };
        await service('notes').setPremise(state.ownerId, state.articleId, premise, actor, { coalesceSeconds: options.coalesceSeconds });
        state.premise = premise;
        storedNow.push('premise');
      } catch (error) {
        complete = false;
        log.warn(`live ${state.articleId}: premise not stored: ${(error as Error).message}`);
      }
    }
    if (complete) {
      Y.applyUpdate(state.base, snapshot);
      state.baseLags.clear();
      await persist(document, state, snapshot);
    } else {
      for (const id of storedNow) state.baseLags.add(id);
    }
    if (state.own.size > 1000) state.own.clear();
  }

  /** The characters of the document's longest section (the 2,000,000 limit is checked against it). */
  function longestSection(document: Document): number {
    let longest = 0;
    for (const id of document.getArray<string>('order').toArray()) longest = Math.max(longest, fragmentLength(document.getXmlFragment(sectionField(id))));
    return longest;
  }

  /** Makes the document's section order the stored one (the server alone writes it). */
  function setOrder(document: Document, ids: string[]) {
    const order = document.getArray<string>('order');
    if (order.toArray().join() === ids.join()) return;
    document.transact(() => {
      order.delete(0, order.length);
      order.insert(0, ids);
    }, LOAD_ORIGIN);
  }

  /** Makes a text hold `value` by its common prefix and suffix: one delete and one insert. */
  function setText(text: Y.Text, value: string) {
    const current = text.toString();
    if (current === value) return;
    let start = 0;
    while (start < current.length && start < value.length && current[start] === value[start]) start += 1;
    let end = 0;
    while (end < current.length - start && end < value.length - start && current[current.length - 1 - end] === value[value.length - 1 - end]) end += 1;
    if (current.length - start - end > 0) text.delete(start, current.length - start - end);
    if (value.length - start - end > 0) text.insert(start, value.slice(start, value.length - end));
  }

  /**
   * Merges a change made elsewhere into the open document: the new stored content is diffed
   * into `base`, and that update applied to the document, with the writer as its origin.
   */
  function merge(document: Document, state: LiveState, by: EventActor, target: string, change: (doc: Y.Doc) => void) {
    const origin = { source: 'local', context: { by } };
    if (state.baseLags.has(target)) {
      document.transact(() => change(document), origin);
      return;
    }
    const before = Y.encodeStateVector(state.base);
    state.base.transact(() => change(state.base), origin);
    const update = Y.encodeStateAsUpdate(state.base, before);
    if (ownership) state.held.push({ update, origin });
    else Y.applyUpdate(document, update, origin);
  }

  /** Merges a section's stored content into the document (filled when it is new there) and records it as synced. */
  function mergeSection(document: Document, state: LiveState, by: EventActor, sectionId: string, stored: { rev: number; html: string }) {
    const field = sectionField(sectionId);
    merge(document, state, by, sectionId, (doc) => {
      const fragment = doc.getXmlFragment(field);
      if (fragment.length === 0) fillFragment(fragment, stored.html);
      else updateFragment(doc, fragment, stored.html);
    });
    state.synced.set(sectionId, { rev: stored.rev, html: fragmentToHtml(state.base.getXmlFragment(field)) });
  }

  async function applyEvent(document: Document, state: LiveState, event: ArticleEvent): Promise<void> {
    if (!(await mayWrite(document.name, state))) return;
    try {
      await applyChanges(document, state, event);
    } finally {
      await flushMerges(document, state);
    }
  }

  async function applyChanges(document: Document, state: LiveState, event: ArticleEvent): Promise<void> {
    const meta = document.getMap('meta');
    const at = event.at;
    const by = event.by;
    const sectionChanges = event.changes.filter((c): c is Extract<ArticleChange, { sectionId: string }> => 'sectionId' in c);
    if (sectionChanges.length) {
      const { rows } = await storedSections(state.articleRowId);
      const stored = new Map(rows.map((row) => [row.id, row]));
      for (const change of sectionChanges) {
        if (change.type === 'section.deleted') {
          const known = state.synced.get(change.sectionId);
          if (!known) continue;
          const fragment = document.getXmlFragment(sectionField(change.sectionId));
          const live = fragmentToHtml(fragment);
          // What was typed and not stored yet goes to the trash with the section.
          if (live !== known.html) await keepInTrash(state, change.sectionId, live);
          state.synced.delete(change.sectionId);
          document.transact(() => meta.set(`deleted:${change.sectionId}`, { name: by.name, kind: by.kind, at, trashId: change.sectionId }), LOAD_ORIGIN);
          continue;
        }
        if (change.type === 'section.moved') continue;
        const row = stored.get(change.sectionId);
        if (!row) continue;
        const known = state.synced.get(change.sectionId);
        // A trash restore brings the section back at the revision it had, which may be one this channel stored: never its own.
        const own = change.type !== 'section.restored' && state.own.has(`${change.sectionId}:${row.rev}`);
        if (own || (known && known.rev >= row.rev)) continue;
        mergeSection(document, state, by, change.sectionId, row);
        if (change.type === 'section.restored') meta.delete(`deleted:${change.sectionId}`);
        document.transact(() => meta.set(`changed:${change.sectionId}`, { name: by.name, kind: by.kind, at }), LOAD_ORIGIN);
      }
      // The order as stored (the server alone writes it).
      setOrder(document, rows.map((row) => row.id));
      for (const row of rows) {
        if (!state.synced.has(row.id)) {
          // A section this document never had (inserted): filled as stored.
          mergeSection(document, state, by, row.id, row);
        }
      }
    }
    if (event.changes.some((c) => c.type === 'brief.changed')) {
      const article = await articleRow(state.articleId);
      const premise = String(article?.premise ?? '');
      if (premise !== state.premise) {
        merge(document, state, by, 'premise', (doc) => setText(doc.getText('premise'), premise));
        state.premise = premise;
      }
    }
    if (event.changes.some((c) => c.type.startsWith('note.'))) {
      document.transact(() => meta.set('notesRev', Number(meta.get('notesRev') ?? 0) + 1), LOAD_ORIGIN);
    }
    if (event.changes.some((c) => c.type === 'article.updated' || c.type === 'article.published' || c.type === 'article.unpublished')) {
      document.transact(() => meta.set('titleRev', Number(meta.get('titleRev') ?? 0) + 1), LOAD_ORIGIN);
    }
    // A suggestion made or decided: the canvas reads the suggestions again (CONTRACT 20, within 1 s).
    if (event.changes.some((c) => c.type.startsWith('suggestion.'))) {
      document.transact(() => meta.set('suggestionsRev', Number(meta.get('suggestionsRev') ?? 0) + 1), LOAD_ORIGIN);
    }
    if (event.changes.some((c) => c.type === 'article.deleted')) hocuspocus.closeConnections(document.name);
  }

  /** The trash entry of a section deleted while someone typed in it holds their text. */
  async function keepInTrash(state: LiveState, sectionId: string, html: string) {
    const content = await service('workers').canvasSection(html || '<p></p>');
    await repository.trashContent(state.articleRowId, sectionId, content);
  }

  // Issue 32's limits: each extension is one idea (live/*.ts).
  const limits = liveLimitsOf(quireConfig(strapi));
  const names = new DocumentNames(limits);
  const socketLimits = new SocketLimits(limits, log);
  const proxy = strapi.config.get('server.proxy') as { koa?: boolean; maxIpsCount?: number } | undefined;
  const proxyHops = proxy?.koa ? Number(proxy.maxIpsCount ?? 1) : 0;
  const hocuspocus = new Hocuspocus<LiveContext>({
    name: 'quire-live',
    ...hocuspocusLimits(limits),
    extensions: [new RateLimit(limits), names, new UpdateGuard(limits, log), new AwarenessGuard(), ...(relay ? [relay as unknown as Extension] : [])],
    quiet: true,
    debounce: 1000,
    maxDebounce: 2000,
    unloadImmediately: true,
    async onAuthenticate({ token, documentName, connectionConfig }) {
      const articleId = articleOfDoc(documentName);
      const context = await authenticate(token);
      names.admit(context.adminId);
      if (!articleId || !(await articleRow(articleId))) throw refusal('This article does not exist (or was deleted).');
      connectionConfig.readOnly = !context.canEdit;
      return context;
    },
    async onLoadDocument({ document, documentName }) {
      const articleId = articleOfDoc(documentName);
      if (!articleId) throw refusal('Not an article.');
      loading.add(documentName);
      try {
        await load(document, articleId);
      } catch (error) {
        loading.delete(documentName);
        throw error;
      }
    },
    async afterLoadDocument({ document }) {
      track(document);
      // Loading until here: the Redis extension's afterLoadDocument runs first, and a document
      // neither loading nor ready would have its hold released by the ownership tick.
      ready.add(document.name);
      loading.delete(document.name);
    },
    async beforeHandleMessage({ update, connection }) {
      if (update.byteLength > MAX_UPDATE_BYTES) {
        refuse(connection, `This change is too large to send (${(update.byteLength / 1048576).toFixed(1)} MiB; at most 1 MiB at once): it was not saved. Paste it in smaller parts.`);
      }
    },
    async beforeSync({ type, payload, connection, document }) {
      // y-protocols sync: 1 is step 2 (the client's missing updates), 2 an update.
      if (type !== 1 && type !== 2) return;
      if (connection.readOnly) {
        if (!warnedReadOnly.has(connection)) {
          warnedReadOnly.add(connection);
          log.warn(`live ${document.name}: ignored changes from read-only connection of admin ${connection.context?.adminId}`);
        }
        return;
      }
      // A malformed update closes this connection (Yjs would log it and go on); others are untouched.
      try {
        Y.decodeUpdate(payload);
      } catch {
        log.warn(`live ${document.name}: closed the connection of admin ${connection.context?.adminId}: malformed update`);
        throw refusal('The change could not be read (malformed update): reconnecting.', 4400);
      }
      const state = states.get(document.name);
      // A section's text can grow by at most a few characters of HTML per byte of update.
      if (!state || state.longest + payload.byteLength * 16 < LIMITS.html) return;
      const trial = new Y.Doc();
      Y.applyUpdate(trial, Y.encodeStateAsUpdate(document));
      Y.applyUpdate(trial, payload);
      for (const id of trial.getArray<string>('order').toArray()) {
        const length = fragmentToHtml(trial.getXmlFragment(sectionField(id))).length;
        if (length > LIMITS.html) {
          refuse(connection, `This change would make the section ${length.toLocaleString('en')} characters long, more than the limit of ${LIMITS.html.toLocaleString('en')}: it was not saved. Split the section first.`);
        }
      }
      trial.destroy();
    },
    async onAwarenessUpdate({ document, added, removed }) {
      const state = states.get(document.name);
      if (!state) return;
      for (const id of added) if (!state.since.has(id)) state.since.set(id, new Date().toISOString());
      for (const id of removed) state.since.delete(id);
    },
    async onStoreDocument({ document, documentName }) {
      const state = states.get(documentName);
      if (state) await enqueue(state, () => store(document, state));
    },
    async afterUnloadDocument({ documentName }) {
      const state = states.get(documentName);
      states.delete(documentName);
      ready.delete(documentName);
      state?.base.destroy();
      // Its last store ran: a process whose editors still have it open stores it from now on.
      if (ownership && !hocuspocus.documents.has(documentName)) await ownership.release(documentName);
    },
  });

  function refuse(connection: Connection, reason: string): never {
    connection.sendStateless(JSON.stringify({ type: 'refused', reason }));
    log.warn(`live: refused a change from admin ${connection.context?.adminId}: ${reason}`);
    throw refusal(reason, REFUSED_CLOSE_CODE);
  }

  const unsubscribe = service('events').subscribe(async (event: ArticleEvent) => {
    const name = docName(event.articleId);
    const document = hocuspocus.documents.get(name);
    const state = states.get(name);
    if (!document || !state || document.isLoading) return;
    // Several processes: the holder merges it, the others receive the merge through Redis.
    if (ownership && !ownership.holds(name)) return;
    await enqueue(state, () => applyEvent(document, state, event));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: socketLimits.maxPayload });
  const sockets = new Set<WebSocket>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    let pathname: string;
    try {
      pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    } catch {
      return;
    }
    if (pathname !== LIVE_PATH) return;
    if (!originAllowed(request, allowedOrigins(strapi))) return socketLimits.refuseOrigin(socket);
    if (!socketLimits.admit(socket, addressOf(request, proxyHops))) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      socketLimits.watch(ws, socket);
      sockets.add(ws);
      const headers = new Headers();
      for (const [key, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(key, value);
      const client = hocuspocus.handleConnection(ws as any, new Request(`http://localhost${request.url}`, { headers }), {} as LiveContext);
      ws.on('message', (data: Buffer) => {
        client.handleMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      });
      ws.on('close', (code: number, reason: Buffer) => {
        sockets.delete(ws);
        client.handleClose({ code, reason: reason.toString() });
      });
      ws.on('error', (error) => log.warn(`live: socket error: ${error.message}`));
    });
  };
  const httpServer = strapi.server.httpServer;
  httpServer.on('upgrade', onUpgrade);

  const settled = async () => {
    await service('events').settled();
    await Promise.all([...states.values()].map((state) => state.queue));
  };

  return {
    hocuspocus,
    editors(articleId) {
      const document = hocuspocus.documents.get(docName(articleId));
      const state = states.get(docName(articleId));
      if (!document) return [];
      const seen: Array<{ name: string; id: number | null; section: string | null; since: string }> = [];
      for (const [clientId, value] of document.awareness.getStates()) {
        const user = value?.user;
        if (!user || typeof user.name !== 'string') continue;
        seen.push({
          name: user.name.slice(0, 200),
          id: typeof user.id === 'number' ? user.id : null,
          section: typeof value.section === 'string' ? value.section : null,
          since: state?.since.get(clientId) ?? new Date().toISOString(),
        });
      }
      return seen;
    },
    settled,
    async close() {
      httpServer.off('upgrade', onUpgrade);
      unsubscribe();
      // Pending stores run now, then every connection closes (its document unloads).
      hocuspocus.flushPendingStores();
      await settled().catch(() => undefined);
      hocuspocus.closeConnections();
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await Promise.all([...states.values()].map((state) => state.queue));
      // The Redis extension unloads a second after the last connection: let it, before its clients go.
      for (let waited = 0; relay && hocuspocus.documents.size > 0 && waited < 3_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      await ownership?.close();
      await relay?.onDestroy();
    },
  };
}
