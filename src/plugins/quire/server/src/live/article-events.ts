/**
 * Article events into open documents (docs/architecture.md "Article events"). A write through
 * any door has already changed the stored state in its transaction (services/live-state), so
 * an event only says "read it": the document takes what the stored state has and it lacks
 * (by state vector). An event that arrives twice changes nothing the second time, and a
 * process that missed one catches up at the next event or store.
 *
 * Before the merge, a section deleted while someone typed in it leaves their text in its trash
 * entry; the counters the canvas watches (notes, title, suggestions, threads) move; the writer,
 * when an agent (or a person over the API), is noted in `presence` for 60 s (the canvas shows
 * it without asking); a deleted article closes its connections.
 */
import type { afterLoadDocumentPayload, Document, Extension, Hocuspocus, onConfigurePayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import type { ArticleEvent } from '../domain/article-events';
import { missingIn, notePresence, presenceOf, sectionField, sectionHtml } from './article-doc';
import { articleOfDoc, docName, merged, type LiveEvents, type LiveLog, type LiveStore } from './ports';

/** The counters in `meta` the canvas reads again when they move, and the changes that move them. */
const COUNTERS: Array<[string, (type: string) => boolean]> = [
  ['notesRev', (type) => type.startsWith('note.')],
  ['titleRev', (type) => type === 'article.updated' || type === 'article.published' || type === 'article.unpublished'],
  ['suggestionsRev', (type) => type.startsWith('suggestion.')],
  ['threadsRev', (type) => type.startsWith('thread.') || type.startsWith('comment.')],
];

export class ArticleEvents implements Extension {
  extensionName = 'quire-article-events';
  private instance: Hocuspocus | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly queues = new Map<string, Promise<void>>();
  /** Per open document, the last stored update merged into it: the next event reads only those after. */
  private readonly through = new WeakMap<Document, number>();

  constructor(
    private readonly events: LiveEvents,
    private readonly store: LiveStore,
    private readonly log: LiveLog,
  ) {}

  async onConfigure({ instance }: onConfigurePayload) {
    this.instance = instance;
    this.unsubscribe = this.events.subscribe((event) => this.receive(event));
  }

  /** A document opened after an agent's write (an article an agent just made, say) starts with that agent present. */
  async afterLoadDocument({ document, documentName }: afterLoadDocumentPayload) {
    const articleId = articleOfDoc(documentName);
    const writers = articleId ? (this.events.recentWriters?.(articleId) ?? []) : [];
    if (!writers.length) return;
    const now = Date.now();
    document.transact(() => writers.forEach((writer) => notePresence(document, writer, now)), merged());
  }

  receive(event: ArticleEvent): Promise<void> {
    const name = docName(event.articleId);
    const document = this.instance?.documents.get(name);
    if (!document || document.isLoading) return Promise.resolve();
    const run = (this.queues.get(name) ?? Promise.resolve())
      .then(() => this.apply(document, event))
      .catch((error: Error) => this.log.warn(`live ${name}: event not merged (${error.message}); the next event or store brings it`));
    this.queues.set(name, run);
    void run.then(() => {
      if (this.queues.get(name) === run) this.queues.delete(name);
    });
    return run;
  }

  private async apply(document: Document, event: ArticleEvent): Promise<void> {
    const types = event.changes.map((change) => change.type);
    if (types.includes('article.deleted')) {
      this.instance?.closeConnections(document.name);
      return;
    }
    if (types.some((type) => type.startsWith('section.') || type === 'brief.changed')) {
      // A deleted section's text is compared with the whole stored state; else only what was stored since.
      const deletes = event.changes.some((change) => change.type === 'section.deleted');
      const stored = await this.store.stored(event.articleId, deletes ? 0 : (this.through.get(document) ?? 0));
      if (stored?.update) {
        if (deletes) await this.keepTyping(document, event, stored.update);
        Y.applyUpdate(document, missingIn(document, stored.update), merged(event.by));
      }
      if (stored) this.through.set(document, stored.through);
    }
    const meta = document.getMap('meta');
    const moved = COUNTERS.filter(([, moves]) => types.some(moves));
    const now = Date.now();
    const present = presenceOf(event, now);
    if (!moved.length && !present) return;
    document.transact(() => {
      moved.forEach(([key]) => meta.set(key, Number(meta.get(key) ?? 0) + 1));
      if (present) notePresence(document, present, now);
    }, merged(event.by));
  }

  /** A section deleted while someone typed in it: the trash entry holds what the document has. */
  private async keepTyping(document: Document, event: ArticleEvent, stored: Uint8Array) {
    const deleted = event.changes.flatMap((change) => (change.type === 'section.deleted' && document.share.has(sectionField(change.sectionId)) ? [change.sectionId] : []));
    if (!deleted.length) return;
    const storedDoc = new Y.Doc();
    try {
      Y.applyUpdate(storedDoc, stored);
      for (const id of deleted) {
        const live = sectionHtml(document, id);
        if (live !== sectionHtml(storedDoc, id)) await this.store.keepInTrash(event.articleId, id, live);
      }
    } finally {
      storedDoc.destroy();
    }
  }

  /** Resolves once the events delivered so far are merged. */
  async settled(): Promise<void> {
    await this.events.settled();
    await Promise.all([...this.queues.values()]);
  }

  async onDestroy() {
    this.unsubscribe?.();
  }
}
