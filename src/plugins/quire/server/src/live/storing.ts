/**
 * Storing what people type (CONTRACT 19 and 22): Hocuspocus calls `onStoreDocument` at most
 * 2 s after a connection's change (debounce 1 s, at most 2 s). What changed since the last
 * store is known from the document's transactions (which sections, the premise, who), and
 * goes to the stored article in one transaction (services/live-state store): the document's
 * update merged into the stored state, only the sections whose text changed written. No
 * conditional write and no 412: the CRDT merge is the conflict resolution. Then whatever the
 * stored state had that the document lacked (an agent's write whose event has not arrived) is
 * merged into the document.
 *
 * Typing relayed from another process (Redis) is stored here too, within 1 s: while any
 * process that holds the document lives, what anyone typed in it is stored. A second store of
 * the same typing finds the stored state already holding it and writes nothing.
 */
import type { Document, Extension, Hocuspocus, afterLoadDocumentPayload, afterUnloadDocumentPayload, onConfigurePayload, onStoreDocumentPayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import type { EventActor } from '../domain/article-events';
import { missingIn } from './article-doc';
import { articleOfDoc, merged, type LiveContext, type LiveLog, type LiveStore } from './ports';

interface Tracked {
  /** Sections changed since the last store, and who changed each last. */
  sections: Map<string, EventActor>;
  premise: EventActor | null;
  /** Sections whose typed heading's split waits (StoreResult.pendingSplits), and who typed it. */
  resplit: Map<string, EventActor>;
  /** The stored state's vector as of the last merge: what the store needs is what the document has beyond it. */
  since: Uint8Array | undefined;
  queue: Promise<void>;
  /** A store of relayed typing (or a retry) is due. */
  timer: NodeJS.Timeout | null;
}

const SOMEONE: EventActor = { kind: 'editor', name: 'an editor' };

export class Storing implements Extension {
  extensionName = 'quire-storing';
  private instance: Hocuspocus | null = null;
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    private readonly store: LiveStore,
    private readonly log: LiveLog,
    /** How soon relayed typing is stored, and a failed store tried again. */
    private readonly delayMs = 1_000,
  ) {}

  async onConfigure({ instance }: onConfigurePayload) {
    this.instance = instance;
  }

  async afterLoadDocument({ document, documentName }: afterLoadDocumentPayload) {
    const tracked: Tracked = { sections: new Map(), premise: null, resplit: new Map(), since: undefined, queue: Promise.resolve(), timer: null };
    this.tracked.set(documentName, tracked);
    const keys = new WeakMap<object, string>();
    document.on('afterTransaction', (transaction: Y.Transaction) => {
      const origin = transaction.origin as { source?: string; connection?: { context: LiveContext } } | null;
      if (origin?.source !== 'connection' && origin?.source !== 'redis') return;
      const actor = origin.source === 'connection' && origin.connection ? { kind: 'editor' as const, name: origin.connection.context.name } : this.typist(document, transaction);
      for (const type of transaction.changed.keys()) {
        let root: any = type;
        while (root._item) root = root._item.parent;
        let key = keys.get(root);
        if (key === undefined) {
          for (const [name, shared] of document.share) keys.set(shared, name);
          key = keys.get(root) ?? '';
        }
        if (key.startsWith('section:')) tracked.sections.set(key.slice('section:'.length), actor);
        else if (key === 'premise') tracked.premise = actor;
      }
      if (origin.source === 'redis' && (tracked.sections.size || tracked.premise)) this.soon(document, tracked);
    });
  }

  /** Who typed a relayed change: the awareness of the Yjs clients it advanced (awareness is relayed too). */
  private typist(document: Document, transaction: Y.Transaction): EventActor {
    const states = document.awareness.getStates();
    for (const [client, clock] of transaction.afterState) {
      if ((transaction.beforeState.get(client) ?? 0) >= clock) continue;
      const name = states.get(client)?.user?.name;
      if (typeof name === 'string' && name) return { kind: 'editor', name: name.slice(0, 200) };
    }
    return SOMEONE;
  }

  private soon(document: Document, tracked: Tracked) {
    tracked.timer ??= setTimeout(() => {
      tracked.timer = null;
      void this.enqueue(document, tracked);
    }, this.delayMs);
  }

  async onStoreDocument({ document, documentName }: onStoreDocumentPayload) {
    const tracked = this.tracked.get(documentName);
    if (tracked) await this.enqueue(document, tracked);
  }

  private enqueue(document: Document, tracked: Tracked): Promise<void> {
    const run = tracked.queue.then(() => this.storeNow(document, tracked));
    tracked.queue = run.catch(() => undefined);
    return run;
  }

  private async storeNow(document: Document, tracked: Tracked): Promise<void> {
    const articleId = articleOfDoc(document.name);
    const { sections, premise, resplit } = tracked;
    if (!articleId || (!sections.size && !premise && !resplit.size)) return;
    tracked.sections = new Map();
    tracked.premise = null;
    tracked.resplit = new Map();
    try {
      const stored = await this.store.store(articleId, {
        update: Y.encodeStateAsUpdate(document, tracked.since),
        vector: Y.encodeStateVector(document),
        sections,
        premise,
        ...(resplit.size ? { resplit } : {}),
      });
      if (!stored) return;
      // A typed heading's split waits until the blocks it moves are no longer being typed in.
      for (const id of stored.pendingSplits ?? []) tracked.resplit.set(id, sections.get(id) ?? resplit.get(id) ?? SOMEONE);
      if (stored.pendingSplits?.length) this.soon(document, tracked);
      Y.applyUpdate(document, missingIn(document, stored.state), merged());
      // Only a saved state is known to hold what the document sent: the next store sends the rest.
      if (stored.saved) tracked.since = stored.vector;
    } catch (error) {
      // Kept for the next try (what was tracked since is newer and wins), which comes by itself.
      for (const [id, actor] of sections) if (!tracked.sections.has(id)) tracked.sections.set(id, actor);
      for (const [id, actor] of resplit) if (!tracked.resplit.has(id)) tracked.resplit.set(id, actor);
      tracked.premise ??= premise;
      this.log.warn(`live ${document.name}: typing not stored (${(error as Error).message}): trying again in ${this.delayMs} ms`);
      this.soon(document, tracked);
    } finally {
      this.forget(document.name, tracked);
    }
  }

  /** Drops what is kept for a document unloaded meanwhile, once nothing of it is left to store. */
  private forget(documentName: string, tracked: Tracked) {
    if (this.tracked.get(documentName) !== tracked || this.instance?.documents.has(documentName)) return;
    if (!tracked.timer && !tracked.sections.size && !tracked.premise && !tracked.resplit.size) this.tracked.delete(documentName);
  }

  async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
    // A store still due runs (the document object outlives its unloading), then forgets it.
    const tracked = this.tracked.get(documentName);
    if (tracked) this.forget(documentName, tracked);
  }

  /** Resolves once the stores started so far have run. */
  async settled(): Promise<void> {
    await Promise.all([...this.tracked.values()].map((tracked) => tracked.queue));
  }

  async onDestroy() {
    for (const tracked of this.tracked.values()) if (tracked.timer) clearTimeout(tracked.timer);
  }
}
