/**
 * What bad input gets (CONTRACT 19): an update over 1 MiB, or one that would take a section
 * past its limit, is refused (the editor is told why, the connection closes, the document is
 * unchanged); a read-only connection's changes are ignored (logged once); an update that is not
 * a Yjs update closes its connection only.
 */
import type { Connection, Document, Extension, beforeHandleMessagePayload, beforeSyncPayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import { LIMITS } from '../schemas/inputs/shared';
import { sectionField } from './article-doc';
import { fragmentLength, storableHtml } from './content';
import { MAX_UPDATE_BYTES, REFUSED_CLOSE_CODE, refusal, type LiveContext, type LiveLog } from './ports';

export class Limits implements Extension {
  extensionName = 'quire-limits';
  private readonly warnedReadOnly = new WeakSet<Connection>();
  /** Per document: its longest section's text (a lower bound of its HTML), recomputed at most once a second. */
  private readonly longest = new WeakMap<Document, { chars: number; at: number }>();

  constructor(
    private readonly log: LiveLog,
    private readonly limits = { updateBytes: MAX_UPDATE_BYTES, sectionChars: LIMITS.html },
  ) {}

  async beforeHandleMessage({ update, connection }: beforeHandleMessagePayload<LiveContext>) {
    if (update.byteLength > this.limits.updateBytes) {
      this.refuse(connection, `This change is too large to send (${(update.byteLength / 1048576).toFixed(1)} MiB; at most 1 MiB at once): it was not saved. Paste it in smaller parts.`);
    }
  }

  async beforeSync({ type, payload, connection, document }: beforeSyncPayload<LiveContext>) {
    // y-protocols sync: 1 is step 2 (the client's missing updates), 2 an update.
    if (type !== 1 && type !== 2) return;
    if (connection.readOnly) {
      if (!this.warnedReadOnly.has(connection)) {
        this.warnedReadOnly.add(connection);
        this.log.warn(`live ${document.name}: ignored changes from read-only connection of admin ${connection.context?.adminId}`);
      }
      return;
    }
    try {
      Y.decodeUpdate(payload);
    } catch {
      this.log.warn(`live ${document.name}: closed the connection of admin ${connection.context?.adminId}: malformed update`);
      throw refusal('The change could not be read (malformed update): reconnecting.', 4400);
    }
    // A section's text grows by at most a few characters of HTML per byte of update: most updates need no trial.
    if (this.longestOf(document) + payload.byteLength * 16 < this.limits.sectionChars) return;
    const trial = new Y.Doc();
    try {
      Y.applyUpdate(trial, Y.encodeStateAsUpdate(document));
      Y.applyUpdate(trial, payload);
      for (const id of trial.getArray<string>('order').toArray()) {
        // A section saved before the update guard that cannot be written is not stored anyway (issue 32, finding 5).
        const length = storableHtml(trial.getXmlFragment(sectionField(id)), () => undefined)?.length ?? 0;
        if (length > this.limits.sectionChars) {
          this.refuse(connection, `This change would make the section ${length.toLocaleString('en')} characters long, more than the limit of ${this.limits.sectionChars.toLocaleString('en')}: it was not saved. Split the section first.`);
        }
      }
    } finally {
      trial.destroy();
    }
  }

  private longestOf(document: Document): number {
    const known = this.longest.get(document);
    if (known && Date.now() - known.at < 1_000) return known.chars;
    let chars = 0;
    for (const id of document.getArray<string>('order').toArray()) chars = Math.max(chars, fragmentLength(document.getXmlFragment(sectionField(id))));
    this.longest.set(document, { chars, at: Date.now() });
    return chars;
  }

  private refuse(connection: Connection<LiveContext>, reason: string): never {
    connection.sendStateless(JSON.stringify({ type: 'refused', reason }));
    this.log.warn(`live: refused a change from admin ${connection.context?.adminId}: ${reason}`);
    throw refusal(reason, REFUSED_CLOSE_CODE);
  }
}
