/**
 * Which documents a connection may open, and how many (issue 32, finding 2). A document name is
 * exactly `article:` and the article's id as stored (lower case): `article:<ID IN CAPITALS>`
 * would otherwise open a second live copy of the same article, with its own memory and its own
 * idea of what is stored. Documents are capped per socket and per process before anything is
 * loaded, and per admin once the channel's authentication knows who it is (`admit`).
 */
import type { Extension, connectedPayload, onAuthenticatePayload, onDisconnectPayload } from '@hocuspocus/server';
import type { LiveLimits } from './limit-settings';
import { refusal } from './ports';
import { normalizeId } from '../domain/anchors';

/** The article id of a document name, when the name is exactly the canonical one (the id as stored); null otherwise. */
export const canonicalArticleOf = (name: string): string | null => {
  if (!name.startsWith('article:')) return null;
  const id = name.slice('article:'.length);
  return normalizeId(id) === id ? id : null;
};

export class DocumentNames implements Extension {
  /** Runs before the channel's own authentication: a bad name never reaches the database. */
  priority = 200;
  /** Document connections established per socket (those still authenticating are capped by Hocuspocus' maxPendingDocuments). */
  private readonly perSocket = new Map<string, number>();
  private readonly perAdmin = new Map<number, number>();

  constructor(private readonly limits: Pick<LiveLimits, 'documentsPerSocket' | 'documentsPerAdmin' | 'documentsPerProcess'>) {}

  async onAuthenticate({ documentName, socketId, instance }: onAuthenticatePayload) {
    if (!canonicalArticleOf(documentName)) {
      throw refusal(`"${documentName.slice(0, 80)}" is not a live document: open article:<id>, with the article's id exactly as the API gives it (lower case).`);
    }
    const onSocket = this.perSocket.get(socketId) ?? 0;
    if (onSocket >= this.limits.documentsPerSocket) {
      throw refusal(`This connection has ${onSocket} articles open, the most one connection may hold (QUIRE_LIVE_DOCUMENTS_PER_SOCKET): close one first.`, 4429);
    }
    const open = instance.getDocumentsCount() + instance.loadingDocuments.size;
    if (!instance.documents.has(documentName) && !instance.loadingDocuments.has(documentName) && open >= this.limits.documentsPerProcess) {
      throw refusal('The server has as many articles open as it may (QUIRE_LIVE_DOCUMENTS): try again in a minute.', 4503);
    }
  }

  /**
   * The per-admin cap, for the hook that learns who the admin is (the channel's authentication:
   * extensions' onAuthenticate run before it, so this one cannot see the admin yet).
   */
  admit(adminId: number) {
    const count = this.perAdmin.get(adminId) ?? 0;
    if (count >= this.limits.documentsPerAdmin) {
      throw refusal(`You have ${count} articles open, the most one admin may (QUIRE_LIVE_DOCUMENTS_PER_ADMIN): close one first.`, 4429);
    }
  }

  async connected({ socketId, context }: connectedPayload) {
    this.perSocket.set(socketId, (this.perSocket.get(socketId) ?? 0) + 1);
    const adminId = Number((context as { adminId?: number } | undefined)?.adminId);
    if (Number.isFinite(adminId)) this.perAdmin.set(adminId, (this.perAdmin.get(adminId) ?? 0) + 1);
  }

  async onDisconnect({ socketId, context }: onDisconnectPayload) {
    const onSocket = (this.perSocket.get(socketId) ?? 1) - 1;
    if (onSocket > 0) this.perSocket.set(socketId, onSocket);
    else this.perSocket.delete(socketId);
    const adminId = Number((context as { adminId?: number } | undefined)?.adminId);
    if (!Number.isFinite(adminId)) return;
    const count = (this.perAdmin.get(adminId) ?? 1) - 1;
    if (count > 0) this.perAdmin.set(adminId, count);
    else this.perAdmin.delete(adminId);
  }

  /** Document connections an admin has here (tests). */
  openBy(adminId: number): number {
    return this.perAdmin.get(adminId) ?? 0;
  }
}
