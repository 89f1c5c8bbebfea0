/**
 * The event bus: a service publishes what it committed, subscribers (the live canvas,
 * presence, later outgoing webhooks) react, and neither imports the other. Delivery is
 * asynchronous and never fails the publisher: a subscriber that throws is logged.
 *
 * With a Redis URL the events also travel to the other processes of the deployment (one
 * pub/sub channel per bus); each process delivers its own events locally and ignores their
 * echo, so every subscriber sees every event exactly once.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

export interface Delivery {
  /** True when the event was published in this process. */
  local: boolean;
}

export type Subscriber<E> = (event: E, delivery: Delivery) => void | Promise<void>;

export interface EventBus<E> {
  /** Delivers `event` to every subscriber here and, with Redis, in every other process. */
  publish(event: E): void;
  /** Adds a subscriber; the returned function removes it. */
  subscribe(subscriber: Subscriber<E>): () => void;
  /** Resolves once every delivery started so far has finished (tests and shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface EventBusOptions {
  /** Names the Redis channel (prefixed with `keyPrefix`). */
  name: string;
  redisUrl?: string | null;
  keyPrefix?: string;
  log: { warn: (message: string) => void };
}

interface Envelope<E> {
  origin: string;
  event: E;
}

export function createEventBus<E>(options: EventBusOptions): EventBus<E> {
  const subscribers = new Set<Subscriber<E>>();
  const pending = new Set<Promise<void>>();
  const origin = randomUUID();
  const channel = `${options.keyPrefix ?? ''}events:${options.name}`;
  let publisher: Redis | null = null;
  let listener: Redis | null = null;

  const deliver = (event: E, delivery: Delivery) => {
    for (const subscriber of subscribers) {
      const run = (async () => {
        try {
          await subscriber(event, delivery);
        } catch (error) {
          options.log.warn(`events ${options.name}: a subscriber failed: ${(error as Error).message}`);
        }
      })();
      pending.add(run);
      void run.finally(() => pending.delete(run));
    }
  };

  if (options.redisUrl) {
    publisher = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
    listener = new Redis(options.redisUrl);
    for (const client of [publisher, listener]) client.on('error', (error) => options.log.warn(`events ${options.name}: redis: ${error.message}`));
    void listener.subscribe(channel).catch((error: Error) => options.log.warn(`events ${options.name}: cannot subscribe: ${error.message}`));
    listener.on('message', (from: string, message: string) => {
      if (from !== channel) return;
      let envelope: Envelope<E>;
      try {
        envelope = JSON.parse(message) as Envelope<E>;
      } catch {
        return;
      }
      if (envelope.origin !== origin) deliver(envelope.event, { local: false });
    });
  }

  return {
    publish(event) {
      // Local subscribers first, on a later tick: the publisher's request is not held up.
      queueMicrotask(() => deliver(event, { local: true }));
      if (publisher) {
        publisher.publish(channel, JSON.stringify({ origin, event } satisfies Envelope<E>)).catch((error: Error) => options.log.warn(`events ${options.name}: cannot publish: ${error.message}`));
      }
    },
    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    async settled() {
      await new Promise((resolve) => setImmediate(resolve));
      while (pending.size) await Promise.all([...pending]);
    },
    async close() {
      subscribers.clear();
      await Promise.all([publisher, listener].map((client) => client?.quit().catch(() => client.disconnect())));
      publisher = listener = null;
    },
  };
}
