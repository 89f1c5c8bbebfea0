/**
 * A change of who may do what reaches open connections (CONTRACT 22): every `everyMs` (2 s)
 * each connection's admin session and Quire permissions are checked again. Lost edit: the
 * connection becomes read-only and the page is told (`{"type":"readOnly"}`); edit back: it
 * may write again (`{"type":"editable"}`). Signed out, password changed (sessions ended),
 * blocked or deactivated, or lost read: the page is told (`{"type":"ended"}`) and the
 * connection closed; a reconnect is refused with the reason.
 */
import type { Connection, Extension, Hocuspocus, onConfigurePayload } from '@hocuspocus/server';
import { type LiveAccess, type LiveContext, type LiveLog } from './ports';

export const ACCESS_ENDED_CODE = 4401;
const ENDED = 'Your access to Quire articles ended (signed out, or your role or account changed): sign in again.';

export class Permissions implements Extension {
  extensionName = 'quire-permissions';
  private instance: Hocuspocus | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly access: LiveAccess,
    private readonly log: LiveLog,
    private readonly everyMs = 2_000,
  ) {}

  async onConfigure({ instance }: onConfigurePayload) {
    this.instance = instance;
    this.timer = setInterval(() => void this.check(), this.everyMs);
    this.timer.unref();
  }

  /** Checks every open connection once (one check per admin session). */
  check(): Promise<void> {
    this.running ??= this.checkAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async checkAll(): Promise<void> {
    const connections: Array<Connection<LiveContext>> = [];
    for (const document of this.instance?.documents.values() ?? []) connections.push(...(document.getConnections() as Array<Connection<LiveContext>>));
    const answers = new Map<string, Promise<'edit' | 'read' | 'none'>>();
    for (const connection of connections) {
      const context = connection.context;
      if (!context?.adminId) continue;
      const key = `${context.adminId}:${context.sessionId ?? ''}`;
      if (!answers.has(key)) answers.set(key, this.access.recheck(context).catch(() => (connection.readOnly ? 'read' : 'edit')));
      const now = await answers.get(key)!;
      if (now === 'none') {
        this.log.info(`live ${connection.document.name}: closed the connection of admin ${context.adminId}: their session or permission ended`);
        connection.sendStateless(JSON.stringify({ type: 'ended', reason: ENDED }));
        connection.close({ code: ACCESS_ENDED_CODE, reason: ENDED });
        continue;
      }
      const readOnly = now === 'read';
      if (connection.readOnly === readOnly) continue;
      connection.readOnly = readOnly;
      context.canEdit = !readOnly;
      connection.sendStateless(JSON.stringify(readOnly ? { type: 'readOnly', reason: 'Your role may no longer edit Quire articles: this page is read-only now.' } : { type: 'editable' }));
    }
  }

  async onDestroy() {
    if (this.timer) clearInterval(this.timer);
  }
}
