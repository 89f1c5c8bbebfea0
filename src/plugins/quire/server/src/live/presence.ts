/**
 * Who has an article open here (CONTRACT 19 presence): the document's awareness (`user`,
 * `section`), with when each client appeared.
 */
import type { Extension, afterUnloadDocumentPayload, Hocuspocus, onAwarenessUpdatePayload, onConfigurePayload } from '@hocuspocus/server';
import { docName } from './ports';

export interface Editor {
  name: string;
  id: number | null;
  section: string | null;
  since: string;
}

export class Presence implements Extension {
  extensionName = 'quire-presence';
  private instance: Hocuspocus | null = null;
  /** Document name -> awareness client -> when it appeared. */
  private readonly since = new Map<string, Map<number, string>>();

  async onConfigure({ instance }: onConfigurePayload) {
    this.instance = instance;
  }

  async onAwarenessUpdate({ documentName, added, removed }: onAwarenessUpdatePayload) {
    let since = this.since.get(documentName);
    if (!since) this.since.set(documentName, (since = new Map()));
    for (const id of added) if (!since.has(id)) since.set(id, new Date().toISOString());
    for (const id of removed) since.delete(id);
  }

  async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
    if (!this.instance?.documents.has(documentName)) this.since.delete(documentName);
  }

  /** Editors with the article open (here, and on other processes through Redis). */
  editors(articleId: string): Editor[] {
    const document = this.instance?.documents.get(docName(articleId));
    if (!document) return [];
    const since = this.since.get(document.name);
    const seen: Editor[] = [];
    for (const [clientId, value] of document.awareness.getStates()) {
      const user = value?.user;
      if (!user || typeof user.name !== 'string') continue;
      seen.push({
        name: user.name.slice(0, 200),
        id: typeof user.id === 'number' ? user.id : null,
        section: typeof value.section === 'string' ? value.section : null,
        since: since?.get(clientId) ?? new Date().toISOString(),
      });
    }
    return seen;
  }
}
