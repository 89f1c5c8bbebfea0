import type { Core } from '@strapi/strapi';
import { createEventBus, type EventBus } from '../../../../../kernel/events';
import type { ArticleEvent } from '../domain/article-events';
import { quireConfig } from '../config';

/**
 * The article event bus (domain/article-events.ts): services publish after commit, subscribers
 * (the live canvas, presence) subscribe. Across processes through Redis when REDIS_URL is set.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let bus: EventBus<ArticleEvent> | null = null;
  const get = () => {
    if (!bus) {
      const config = quireConfig(strapi);
      bus = createEventBus<ArticleEvent>({ name: 'articles', redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, log: strapi.log });
    }
    return bus;
  };
  return {
    publish(event: ArticleEvent): void {
      get().publish(event);
    },
    subscribe(subscriber: Parameters<EventBus<ArticleEvent>['subscribe']>[0]): () => void {
      return get().subscribe(subscriber);
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
};
