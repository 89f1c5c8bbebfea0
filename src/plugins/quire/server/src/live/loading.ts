/**
 * Loading a live document: the article's stored Yjs state (services/live-state load: built
 * from the stored article the first time, healed where the rows moved on without it). Every
 * process loads the same state, so their documents share one history and merge.
 */
import type { Extension, onLoadDocumentPayload } from '@hocuspocus/server';
import * as Y from 'yjs';
import { articleOfDoc, merged, refusal, type LiveStore } from './ports';

export class Loading implements Extension {
  extensionName = 'quire-loading';

  constructor(private readonly store: LiveStore) {}

  async onLoadDocument({ document, documentName }: onLoadDocumentPayload): Promise<void> {
    const articleId = articleOfDoc(documentName);
    if (!articleId) throw refusal('Not an article.');
    const state = await this.store.load(articleId);
    if (!state) throw refusal('This article no longer exists.', 4404);
    Y.applyUpdate(document, state, merged());
  }
}
