/**
 * Threads leave Quire as Strapi webhook events (CONTRACT 23-24): `thread.created`,
 * `comment.created` and `thread.resolved`, which an operator picks for a webhook (Settings >
 * Webhooks, or the admin API). They come from the article events (services/events), so every
 * door (HTTP, MCP, CLI, a skill's reply) sends them; each process sends only the events it
 * committed itself (`delivery.local`), so a webhook fires once with several processes.
 * Payload: `{ article: { id }, thread }` (the thread record, its comments included), and for
 * `comment.created` also `comment`.
 */
import type { Core } from '@strapi/strapi';
import type { ArticleEvent } from './domain/article-events';
import { getService } from './services/get-service';

export const THREAD_WEBHOOK_EVENTS = {
  THREAD_CREATED: 'thread.created',
  COMMENT_CREATED: 'comment.created',
  THREAD_RESOLVED: 'thread.resolved',
} as const;

const SENT = new Set<string>(Object.values(THREAD_WEBHOOK_EVENTS));

export function registerThreadWebhooks(strapi: Core.Strapi): () => void {
  const store = strapi.get('webhookStore') as { addAllowedEvent(key: string, value: string): void };
  for (const [key, value] of Object.entries(THREAD_WEBHOOK_EVENTS)) store.addAllowedEvent(key, value);
  return getService(strapi, 'events').subscribe(async (event: ArticleEvent, delivery: { local: boolean }) => {
    if (!delivery.local) return;
    for (const change of event.changes) {
      if (!SENT.has(change.type) || !('threadId' in change)) continue;
      const { thread } = await getService(strapi, 'threads').get(event.ownerId, event.articleId, change.threadId);
      const payload: Record<string, unknown> = { article: { id: event.articleId }, thread, by: event.by };
      if (change.type === 'comment.created') payload.comment = thread.comments.find((c: { id: string }) => c.id === change.commentId) ?? null;
      strapi.eventHub.emit(change.type, payload);
    }
  });
}
