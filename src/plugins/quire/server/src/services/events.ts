import type { Core } from '@strapi/strapi';
import { createEventBus, type EventBus } from '#kernel/events';
import type { ArticleChange, ArticleEvent, EventActor } from '../domain/article-events';
import { appRedis } from '#kernel/redis';

/** The article a change belongs to: its public id and its owner's user id. */
export interface EventTarget {
  articleId: string;
  ownerId: number;
}

/**
 * The article event bus (domain/article-events.ts): services publish after commit, subscribers
 * (the live canvas, presence) subscribe. Across processes through Redis when REDIS_URL is set.
 *
 * Services call `record` where they write: inside a transaction, the changes wait for the
 * outermost commit (Strapi's nested transactions join the outer one and share its commit
 * callbacks), and every change one transaction makes to one article goes out as one event; a
 * rollback drops them. Outside a transaction (an autocommitted write) the event goes out now.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let bus: EventBus<ArticleEvent> | null = null;
  const get = () => {
    if (!bus) {
      const redis = appRedis(strapi);
      bus = createEventBus<ArticleEvent>({ name: 'articles', redisUrl: redis.url() ?? undefined, keyPrefix: redis.prefix(), log: strapi.log });
    }
    return bus;
  };
  /** Per open transaction (its Knex handle), the events waiting for its commit, by article id. */
  const open = new WeakMap<object, Map<string, Omit<ArticleEvent, 'at'>>>();

  const api = {
    publish(event: ArticleEvent): void {
      get().publish(event);
    },
    subscribe(subscriber: Parameters<EventBus<ArticleEvent>['subscribe']>[0]): () => void {
      return get().subscribe(subscriber);
    },

    /**
     * Records committed-to-be changes of an article: published after the outermost commit (one
     * event per article per transaction, changes in order, `by` of the first record), or now
     * when no transaction is open.
     */
    async record(target: EventTarget, by: EventActor, changes: ArticleChange[]): Promise<void> {
      if (!changes.length) return;
      if (!strapi.db.inTransaction()) {
        api.publish({ articleId: target.articleId, ownerId: target.ownerId, changes: [...changes], by: { kind: by.kind, name: by.name }, at: new Date().toISOString() });
        return;
      }
      // Joins the open transaction (no new one, no commit of its own): its handle and onCommit.
      await strapi.db.transaction(async ({ trx, onCommit }) => {
        let pending = open.get(trx);
        if (!pending) {
          const waiting = new Map<string, Omit<ArticleEvent, 'at'>>();
          pending = waiting;
          open.set(trx, waiting);
          onCommit(() => {
            open.delete(trx);
            const at = new Date().toISOString();
            for (const event of waiting.values()) api.publish({ ...event, at });
          });
        }
        const event = pending.get(target.articleId);
        if (event) event.changes.push(...changes);
        else pending.set(target.articleId, { articleId: target.articleId, ownerId: target.ownerId, changes: [...changes], by: { kind: by.kind, name: by.name } });
      });
    },

    /** Resolves when every delivery started so far has run (tests, shutdown). */
    settled(): Promise<void> {
      return bus ? bus.settled() : Promise.resolve();
    },
    async close(): Promise<void> {
      await bus?.close();
      bus = null;
    },
  };
  return api;
};
