/**
 * The live canvas (live/server.ts) and presence (CONTRACT 19): who has an article open in the
 * canvas (from the live document's awareness) and which agents wrote to it in the last 60 s
 * (from article events).
 */
import type { Core } from '@strapi/strapi';
import type { ArticleEvent } from '../domain/article-events';
import { quireConfig } from '../config';
import { AGENT_PRESENCE_MS, presenceOf, type PresenceMark } from '../live/article-doc';
import { startLiveChannel, type LiveChannel } from '../live/server';
import { appRedis } from '#kernel/redis';
import { getService } from './get-service';


export interface Presence {
  kind: 'editor' | 'agent' | 'human';
  name: string;
  section: string | null;
  since: string;
}

interface Writer {
  kind: 'agent' | 'human';
  name: string;
  sectionId: string | null;
  since: number;
  last: number;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  let channel: LiveChannel | null = null;
  let unsubscribe: (() => void) | null = null;
  /** articleId -> writer name -> their latest write; pruned as it is read and written. */
  const writers = new Map<string, Map<string, Writer>>();

  const prune = (articleId: string, now: number) => {
    const byName = writers.get(articleId);
    if (!byName) return undefined;
    for (const [name, writer] of byName) if (now - writer.last > AGENT_PRESENCE_MS) byName.delete(name);
    if (!byName.size) writers.delete(articleId);
    return byName.size ? byName : undefined;
  };

  // The same as the live document's `presence` holds (live/article-events), for the presence route.
  const noteWriter = (event: ArticleEvent) => {
    const now = Date.now();
    const present = presenceOf(event, now);
    if (!present) return;
    const byName = prune(event.articleId, now) ?? new Map<string, Writer>();
    writers.set(event.articleId, byName);
    const known = byName.get(present.name);
    byName.set(present.name, { kind: present.kind, name: present.name, sectionId: present.section ?? known?.sectionId ?? null, since: known?.since ?? now, last: now });
    // Articles nobody reads presence of are dropped as their writers age.
    if (writers.size > 10_000) for (const id of [...writers.keys()]) prune(id, now);
  };

  return {
    start() {
      if (channel) return;
      unsubscribe = getService(strapi, 'events').subscribe((event: ArticleEvent) => noteWriter(event));
      const redis = appRedis(strapi);
      const url = redis.url();
      // With REDIS_URL, live documents span the deployment's processes (live/server.ts).
      channel = startLiveChannel(strapi, { coalesceSeconds: quireConfig(strapi).historyCoalesceSeconds, redis: url ? { url, prefix: redis.prefix() } : null });
    },

    channel(): LiveChannel | null {
      return channel;
    },

    /** Who is in an article: editors with it open, agents (and people over the API) who wrote in the last 60 s. */
    async presence(ownerId: number, articleId: string): Promise<Presence[]> {
      const { outline } = await getService(strapi, 'sections').outlineOf(ownerId, articleId);
      const anchor = (id: string | null) => (id && outline.find(id) ? outline.anchorOf(id) : null);
      const present: Presence[] = [];
      const seen = new Set<string>();
      for (const editor of channel?.editors(articleId) ?? []) {
        const key = `${editor.id ?? editor.name}:${editor.section}`;
        if (seen.has(key)) continue;
        seen.add(key);
        present.push({ kind: 'editor', name: editor.name, section: anchor(editor.section), since: editor.since });
      }
      for (const writer of prune(articleId, Date.now())?.values() ?? []) {
        present.push({ kind: writer.kind, name: writer.name, section: anchor(writer.sectionId), since: new Date(writer.since).toISOString() });
      }
      return present;
    },

    /** Who wrote in the article in the last 60 s, as the live document's `presence` notes them (a document opened after their write starts with them). */
    recentWriters(articleId: string): PresenceMark[] {
      return [...(prune(articleId, Date.now())?.values() ?? [])].map((writer) => ({
        kind: writer.kind,
        name: writer.name,
        section: writer.sectionId,
        since: writer.since,
        until: writer.last + AGENT_PRESENCE_MS,
      }));
    },

    /** Pending stores and merges have run (tests). */
    async settled(): Promise<void> {
      await channel?.settled();
    },

    async close(): Promise<void> {
      unsubscribe?.();
      unsubscribe = null;
      await channel?.close();
      channel = null;
    },
  };
};
