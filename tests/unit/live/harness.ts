/**
 * A bare Hocuspocus server for the live extensions' tests (no Strapi): on a free port, with
 * the ports (live/ports.ts) as small objects of their own: an in-memory stored article that
 * merges as services/live-state does, article events, admin access that a test changes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Hocuspocus, type Extension } from '@hocuspocus/server';
import * as Y from 'yjs';
import type { ArticleEvent, EventActor } from '../../../src/plugins/quire/server/src/domain/article-events';
import { applyWrite, buildDoc, sectionHtml, type SectionsWrite } from '../../../src/plugins/quire/server/src/live/article-doc';
import { refusal, type LiveAccess, type LiveContext, type LiveEvents, type LiveStore, type TypedChange } from '../../../src/plugins/quire/server/src/live/ports';
import { acceptUpgrades } from '../../../src/plugins/quire/server/src/live/upgrade';

export const log = { lines: [] as string[], info(m: string) { this.lines.push(m); }, warn(m: string) { this.lines.push(m); } };

/** Stored articles in memory: one Yjs state each, changed by stores and agents' writes as the real one is. */
export class MemoryStore implements LiveStore {
  readonly docs = new Map<string, Y.Doc>();
  readonly stores: Array<{ articleId: string; sections: string[]; actors: string[]; written: string[] }> = [];
  readonly trash: Array<{ sectionId: string; html: string }> = [];
  /** Throws from the next store this many times. */
  failNext = 0;

  /** A new article with sections `{id: html}` (ids are made), the premise; its id and section ids. */
  article(htmls: string[], premise = ''): { articleId: string; ids: string[] } {
    const articleId = randomUUID();
    const ids = htmls.map(() => randomUUID());
    const doc = new Y.Doc();
    buildDoc(doc, htmls.map((html, i) => ({ id: ids[i], rev: 1, html })), premise);
    this.docs.set(articleId, doc);
    return { articleId, ids };
  }

  /** An agent's write, as the edit engine's hook makes it: into the stored state. */
  write(articleId: string, write: Partial<SectionsWrite> & { by: EventActor }) {
    const doc = this.docs.get(articleId)!;
    applyWrite(doc, { at: new Date().toISOString(), written: [], restored: [], deleted: [], order: doc.getArray<string>('order').toArray(), ...write });
  }

  async load(articleId: string) {
    const doc = this.docs.get(articleId);
    return doc ? Y.encodeStateAsUpdate(doc) : null;
  }

  async stored(articleId: string) {
    const update = await this.load(articleId);
    return update ? { update, through: 0 } : null;
  }

  async store(articleId: string, typed: TypedChange) {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('the database is gone for a moment');
    }
    const doc = this.docs.get(articleId)!;
    const before = new Map([...typed.sections.keys()].map((id) => [id, sectionHtml(doc, id)]));
    Y.applyUpdate(doc, typed.update);
    const written = [...typed.sections.keys()].filter((id) => sectionHtml(doc, id) !== before.get(id));
    this.stores.push({ articleId, sections: [...typed.sections.keys()], actors: [...typed.sections.values()].map((a) => a.name), written });
    return { state: Y.encodeStateAsUpdate(doc, typed.vector), vector: Y.encodeStateVector(doc), saved: true };
  }

  async keepInTrash(_articleId: string, sectionId: string, html: string) {
    this.trash.push({ sectionId, html });
  }
}

export class MemoryEvents implements LiveEvents {
  private readonly listeners = new Set<(event: ArticleEvent) => void | Promise<void>>();
  private pending: Promise<unknown>[] = [];
  subscribe(listener: (event: ArticleEvent) => void | Promise<void>) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  publish(articleId: string, by: EventActor, changes: ArticleEvent['changes']) {
    const event: ArticleEvent = { articleId, ownerId: 1, by, changes, at: new Date().toISOString() };
    for (const listener of this.listeners) this.pending.push(Promise.resolve(listener(event)));
  }
  async settled() {
    await Promise.all(this.pending.splice(0));
  }
}

/** Admins by token; what each may do now is `may` (a test changes it). */
export class MemoryAccess implements LiveAccess {
  readonly may = new Map<number, 'edit' | 'read' | 'none'>();
  private readonly tokens = new Map<string, LiveContext>();
  constructor(private readonly store: MemoryStore) {}
  admin(name: string, may: 'edit' | 'read' = 'edit'): string {
    const token = randomUUID();
    const adminId = this.tokens.size + 1;
    this.tokens.set(token, { adminId, name, canEdit: may === 'edit', sessionId: token });
    this.may.set(adminId, may);
    return token;
  }
  async authenticate(token: string) {
    const context = this.tokens.get(token);
    if (!context || this.may.get(context.adminId) === 'none') throw refusal('Your admin session has expired: sign in again.');
    return { ...context, canEdit: this.may.get(context.adminId) === 'edit' };
  }
  async recheck(context: LiveContext) {
    return this.may.get(context.adminId) ?? 'none';
  }
  async exists(articleId: string) {
    return this.store.docs.has(articleId);
  }
}

export interface Served {
  url: string;
  hocuspocus: Hocuspocus<LiveContext>;
  close(): Promise<void>;
}

/** A bare Hocuspocus with `extensions` on a free port (its upgrade path: /quire/live). */
export async function serve(extensions: Extension[], options: { debounce?: number; maxDebounce?: number } = {}): Promise<Served> {
  const hocuspocus = new Hocuspocus<LiveContext>({ extensions, quiet: true, debounce: options.debounce ?? 100, maxDebounce: options.maxDebounce ?? 300, unloadImmediately: true });
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const stop = acceptUpgrades(server, hocuspocus, log);
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/quire/live`,
    hocuspocus,
    async close() {
      hocuspocus.closeConnections();
      await stop();
      // The Redis relay unloads a second after the last connection: let it, before its clients go.
      for (let waited = 0; hocuspocus.documents.size > 0 && waited < 3_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      await hocuspocus.hooks('onDestroy', { instance: hocuspocus } as any);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
