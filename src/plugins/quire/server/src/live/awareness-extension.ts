/**
 * Presence that cannot be faked (issue 32, finding 6). A connection may speak for one awareness
 * client id: the first it introduces, unless another admin's open connection holds it (the same
 * admin reconnecting takes its own id over). States for any other id are dropped, so nobody
 * removes, renames or invents others, and 100,000 states from one connection are 1. The `user`
 * of a state is the server's: name and id from the session (the connection's context), `kind`
 * editor, the colour kept only when it is one; `section` is a short string or null; anything
 * else but the caret (`cursor`, CollaborationCaret's relative positions) is dropped, and a state
 * larger than `MAX_STATE_CHARS` loses its caret. An empty state claims nothing.
 */
import type { Connection, Document, Extension, beforeHandleAwarenessPayload } from '@hocuspocus/server';

export const MAX_STATE_CHARS = 4_096;

interface Speaker {
  adminId: number;
  name: string;
}

const COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The state a connection's admin may have in the document's awareness, from what it sent. */
export function ownState(sent: Record<string, any>, who: Speaker): Record<string, any> {
  const user = sent?.user && typeof sent.user === 'object' ? sent.user : {};
  const state: Record<string, any> = {
    user: { name: who.name, id: who.adminId, kind: 'editor', color: typeof user.color === 'string' && COLOUR.test(user.color) ? user.color : '#666666' },
    section: typeof sent?.section === 'string' && sent.section.length <= 64 ? sent.section : null,
  };
  if (sent?.cursor !== undefined && sent.cursor !== null && typeof sent.cursor === 'object') {
    if (JSON.stringify(sent.cursor).length <= MAX_STATE_CHARS) state.cursor = sent.cursor;
  } else if (sent?.cursor === null) state.cursor = null;
  return state;
}

export class AwarenessGuard implements Extension {
  priority = 200;
  /** Per document: awareness client id -> the connection that introduced it. */
  private readonly owners = new WeakMap<Document, Map<number, Connection>>();
  /** The one client id each connection speaks for. */
  private readonly claimed = new WeakMap<Connection, number>();

  async beforeHandleAwareness({ document, connection, states }: beforeHandleAwarenessPayload) {
    // The server's own (Redis relay, direct connections) are trusted.
    if (!connection) return;
    const context = connection.context as Partial<Speaker> | undefined;
    const who: Speaker = { adminId: Number(context?.adminId), name: String(context?.name ?? 'an editor').slice(0, 200) };
    let owners = this.owners.get(document);
    if (!owners) {
      owners = new Map();
      this.owners.set(document, owners);
    }
    const open = new Set(document.getConnections());
    for (const [clientId, sent] of [...states]) {
      // Hocuspocus decodes the update into a scratch Awareness whose own (empty, clock 0) state
      // is in the map too: an empty state never claims an id.
      const empty = !sent || Object.keys(sent).length === 0;
      if (empty && this.claimed.get(connection) !== clientId) {
        states.delete(clientId);
        continue;
      }
      if (!this.maySpeakFor(connection, clientId, who, owners, open)) {
        states.delete(clientId);
        continue;
      }
      if (sent) states.set(clientId, ownState(sent, who));
    }
    // Ids whose connection left are forgotten.
    if (owners.size > open.size * 2 + 16) for (const [id, owner] of owners) if (!open.has(owner)) owners.delete(id);
  }

  private maySpeak(connection: Connection, owner: Connection | undefined, who: Speaker, open: Set<Connection>) {
    if (!owner || owner === connection || !open.has(owner)) return true;
    return Number((owner.context as Partial<Speaker> | undefined)?.adminId) === who.adminId;
  }

  private maySpeakFor(connection: Connection, clientId: number, who: Speaker, owners: Map<number, Connection>, open: Set<Connection>): boolean {
    const mine = this.claimed.get(connection);
    if (mine !== undefined) return mine === clientId;
    if (!this.maySpeak(connection, owners.get(clientId), who, open)) return false;
    this.claimed.set(connection, clientId);
    owners.set(clientId, connection);
    return true;
  }
}
