/**
 * Who may open a live document (CONTRACT 19): an admin session with Quire's read permission
 * to watch (the connection is read-only), edit permission to write. Checked before the
 * document is loaded; an article that does not exist is refused too. Once the admin is known,
 * their open documents are capped (live/document-names.ts `admit`).
 */
import type { Extension, onAuthenticatePayload } from '@hocuspocus/server';
import { articleOfDoc, refusal, type LiveAccess, type LiveContext } from './ports';

export class Authentication implements Extension {
  extensionName = 'quire-authentication';
  priority = 200;

  constructor(
    private readonly access: LiveAccess,
    private readonly names?: { admit(adminId: number): void },
  ) {}

  async onAuthenticate({ token, documentName, connectionConfig }: onAuthenticatePayload<LiveContext>): Promise<LiveContext> {
    const articleId = articleOfDoc(documentName);
    const context = await this.access.authenticate(token);
    this.names?.admit(context.adminId);
    if (!articleId || !(await this.access.exists(articleId))) throw refusal('This article does not exist (or was deleted).');
    connectionConfig.readOnly = !context.canEdit;
    return context;
  }
}
