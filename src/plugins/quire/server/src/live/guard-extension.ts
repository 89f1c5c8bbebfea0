/**
 * Every client update is checked before Hocuspocus applies it (issue 32, findings 3, 7, 8):
 * live/update-guard.ts decides what it may touch; this extension also caps the premise's length
 * and the whole document's encoded size, and refuses with the reason in words (a stateless
 * `refused` message, which the canvas shows) and a close code. A change that depends on changes
 * this server has not received closes the connection without a refusal: the provider
 * reconnects and syncs again; before the connection's sync step 2 (which will carry the change
 * whole) the early copy is dropped instead. What a reconnecting page echoes of `order` and the
 * server's maps (`meta`, `outline`, `presence`) is put back as the server had it once the
 * message is applied.
 */
import type { Connection, Document, Extension, afterHandleMessagePayload, beforeSyncPayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import { LIMITS } from '../schemas/inputs/shared';
import type { LiveLimits } from './limit-settings';
import { REFUSED_CLOSE_CODE, refusal } from './ports';
import { checkUpdate, type ServerParts } from './update-guard';

/** Close code of a change refused for what it holds. */
export const GUARD_CLOSE_CODE = 4422;
/** Close code of a change that must be sent again after a reconnect. */
export const RETRY_CLOSE_CODE = 4409;

/** The document's encoded size is measured again at most this often (bytes accepted, or time). */
const REMEASURE_BYTES = 256 * 1024;
const REMEASURE_MS = 5_000;

interface Size {
  /** Encoded size when last measured, plus the updates accepted since (an upper bound). */
  estimate: number;
  sinceBytes: number;
  at: number;
}

export class UpdateGuard implements Extension {
  priority = 200;
  private readonly sizes = new WeakMap<Document, Size>();
  /** The server's `order` and map entries as they were before an echo touched them. */
  private readonly before = new WeakMap<Connection, { order: string[] | null; maps: Array<[string, Map<string, unknown>]> }>();
  /** Connections whose sync step 2 has been applied. */
  private readonly synced = new WeakSet<Connection>();

  constructor(
    private readonly limits: Pick<LiveLimits, 'maxDocumentBytes'>,
    private readonly log: { warn(message: string): void } = { warn: () => undefined },
  ) {}

  /** The document's size as this guard knows it (tests). */
  sizeOf(document: Document): number | undefined {
    return this.sizes.get(document)?.estimate;
  }

  async beforeSync({ type, payload, connection, document }: beforeSyncPayload) {
    // y-protocols sync: 1 is step 2 (the client's missing updates), 2 an update; a read-only connection's are ignored anyway.
    if ((type !== 1 && type !== 2) || connection.readOnly) return;
    const refuse = (reason: string, code = GUARD_CLOSE_CODE): never => {
      this.log.warn(`live ${document.name}: refused a change from admin ${(connection.context as { adminId?: number })?.adminId}: ${reason}`);
      connection.sendStateless(JSON.stringify({ type: 'refused', reason: `${reason} It was not saved.` }));
      throw refusal(reason, code);
    };
    const verdict = checkUpdate(document, payload, { echo: type === 1 });
    if (!verdict.ok) {
      if (verdict.retry && type === 2 && !this.synced.has(connection)) {
        // A page reconnecting while someone types sends that typing before its sync step 2 (the
        // provider does not wait), on top of what the server lacks. Its sync step 2, still to
        // come, is computed later and carries it whole: this copy is emptied (two zero counts
        // make an empty Yjs update; `payload` is a view of the message Hocuspocus then applies).
        // Closing instead would repeat the race at every reconnect while typing goes on.
        payload.fill(0);
        return;
      }
      if (verdict.retry) throw refusal(verdict.reason, RETRY_CLOSE_CODE);
      refuse(verdict.reason);
      return;
    }
    if (verdict.premiseGrowth > 0 && document.share.has('premise') && document.getText('premise').length + verdict.premiseGrowth > LIMITS.premise) {
      refuse(`The premise would be longer than ${LIMITS.premise.toLocaleString('en')} characters.`);
    }
    this.admitSize(document, payload.byteLength, refuse);
    if (verdict.serverParts) this.before.set(connection, this.serverState(document, verdict.serverParts));
    if (type === 1) this.synced.add(connection);
  }

  private serverState(document: Document, parts: ServerParts) {
    const maps = [...parts.keys].map(([name, keys]): [string, Map<string, unknown>] => {
      const map = document.getMap(name);
      return [name, new Map([...keys].map((key) => [key, map.has(key) ? map.get(key) : undefined]))];
    });
    return { order: parts.order ? document.getArray<string>('order').toArray() : null, maps };
  }

  async afterHandleMessage({ connection, document }: afterHandleMessagePayload) {
    const before = this.before.get(connection);
    if (!before) return;
    this.before.delete(connection);
    const order = document.getArray<string>('order');
    document.transact(() => {
      if (before.order && order.toArray().join() !== before.order.join()) {
        order.delete(0, order.length);
        order.insert(0, before.order);
      }
      for (const [name, entries] of before.maps) {
        const map = document.getMap(name);
        for (const [key, value] of entries) {
          if (JSON.stringify(map.get(key)) === JSON.stringify(value)) continue;
          if (value === undefined) map.delete(key);
          else map.set(key, value);
        }
      }
    }, { source: 'local', skipStoreHooks: true });
  }

  private admitSize(document: Document, bytes: number, refuse: (reason: string, code?: number) => never) {
    const now = Date.now();
    let size = this.sizes.get(document);
    if (!size) {
      size = { estimate: Y.encodeStateAsUpdate(document).byteLength, sinceBytes: 0, at: now };
      this.sizes.set(document, size);
    }
    if (size.estimate + bytes > this.limits.maxDocumentBytes && (size.sinceBytes >= REMEASURE_BYTES || now - size.at >= REMEASURE_MS)) {
      size.estimate = Y.encodeStateAsUpdate(document).byteLength;
      size.sinceBytes = 0;
      size.at = now;
    }
    if (size.estimate + bytes > this.limits.maxDocumentBytes) {
      const mib = (n: number) => (n / 1048576).toFixed(1);
      refuse(`This change (${(bytes / 1024).toFixed(0)} KiB) would take the article's live document past ${mib(this.limits.maxDocumentBytes)} MiB (QUIRE_LIVE_MAX_DOCUMENT_MB; it holds about ${mib(size.estimate)} MiB).`, REFUSED_CLOSE_CODE);
    }
    size.estimate += bytes;
    size.sinceBytes += bytes;
  }
}
