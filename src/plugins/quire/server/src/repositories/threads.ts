/**
 * quire_threads and quire_thread_comments: comments on quoted text (CONTRACT 24), scoped by the
 * article's row id (the services find it by owner first).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { compiledQuery, repositoryOf, tableName } from '#kernel/db';
import { TABLE } from './store';

export const THREAD_TABLE = 'quire_threads';
export const COMMENT_TABLE = 'quire_thread_comments';
export const THREAD_UID = 'plugin::quire.thread';
export const COMMENT_UID = 'plugin::quire.thread-comment';

const THREAD_COLUMNS = [
  'id', 'uuid', 'section_id', 'quote', 'quote_start', 'quote_end', 'quote_prefix', 'quote_suffix', 'status', 'detached',
  'by_kind', 'by_name', 'resolved_at', 'resolved_by_kind', 'resolved_by_name', 'created_at',
];
const COMMENT_COLUMNS = ['id', 'uuid', 'thread_id', 'body', 'html', 'by_kind', 'by_name', 'executions', 'created_at'];

export interface ThreadRow {
  id: number;
  uuid: string;
  section_id: string;
  quote: string;
  quote_start: number;
  quote_end: number;
  quote_prefix: string | null;
  quote_suffix: string | null;
  status: string;
  detached: boolean | number;
  by_kind: string;
  by_name: string;
  resolved_at: unknown;
  resolved_by_kind: string | null;
  resolved_by_name: string | null;
  created_at: unknown;
}

export interface CommentRow {
  id: number;
  uuid: string;
  thread_id: number;
  body: string;
  html: string;
  by_kind: string;
  by_name: string;
  executions: unknown;
  created_at: unknown;
}

/** A comment whose mentioned executions nobody waits for (services/threads resumes it). */
export interface UnclaimedWait {
  comment_id: number;
  comment_uuid: string;
  created_at: unknown;
  thread_uuid: string;
  article_row_id: number;
  article_uuid: string;
  owner_id: number;
}

/** A thread's anchor as stored, after a section write moved it. */
export interface AnchorUpdate {
  id: number;
  sectionId: string;
  start: number;
  end: number;
  quote: string;
  prefix: string;
  suffix: string;
  detached: boolean;
}

export function threadRepository(strapi: Core.Strapi) {
  const threads = () => tableName(strapi, THREAD_TABLE);
  const comments = () => tableName(strapi, COMMENT_TABLE);
  // Every section write looks for the threads on the sections it rewrote: compiled once per count (kernel/db compiledQuery).
  const onSectionsQuery = compiledQuery((k: Knex, _shape: null, articleRowId: number, ...sectionIds: string[]) =>
    k(threads()).where({ article_id: articleRowId }).whereIn('section_id', sectionIds).andWhere('detached', false).select(THREAD_COLUMNS),
  );
  return Object.assign(
    repositoryOf(strapi, {
      /** Every thread id of an article (for anchors). */
      async ids(k: Knex, articleRowId: number): Promise<string[]> {
        return (await k(threads()).where({ article_id: articleRowId }).select('uuid')).map((r) => r.uuid as string);
      },

      get(k: Knex, articleRowId: number, uuid: string): Promise<ThreadRow | undefined> {
        return k(threads()).where({ article_id: articleRowId, uuid }).first(THREAD_COLUMNS);
      },

      /** An article's threads (of one section, one status), oldest first. */
      list(k: Knex, articleRowId: number, filter: { status?: string; sectionId?: string } = {}): Promise<ThreadRow[]> {
        const query = k(threads()).where({ article_id: articleRowId });
        if (filter.status) query.andWhere('status', filter.status);
        if (filter.sectionId) query.andWhere('section_id', filter.sectionId);
        return query.orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]).select(THREAD_COLUMNS);
      },

      /** The attached threads on some sections of an article, whatever their status (they follow the text either way). */
      onSections(k: Knex, articleRowId: number, sectionIds: string[]): Promise<ThreadRow[]> {
        if (!sectionIds.length) return Promise.resolve([]);
        if (sectionIds.length <= 8) return onSectionsQuery<ThreadRow>(k, String(sectionIds.length), null, articleRowId, ...sectionIds);
        return k(threads()).where({ article_id: articleRowId }).whereIn('section_id', sectionIds).andWhere('detached', false).select(THREAD_COLUMNS);
      },

      /** The detached threads on some sections of an article. */
      detachedOn(k: Knex, articleRowId: number, sectionIds: string[]): Promise<ThreadRow[]> {
        return k(threads()).where({ article_id: articleRowId, detached: true }).whereIn('section_id', sectionIds).select(THREAD_COLUMNS);
      },

      async moveAnchor(k: Knex, update: AnchorUpdate): Promise<void> {
        await k(threads()).where({ id: update.id }).update({
          section_id: update.sectionId,
          quote_start: update.start,
          quote_end: update.end,
          quote: update.quote,
          quote_prefix: update.prefix,
          quote_suffix: update.suffix,
          detached: update.detached,
        });
      },

      async detach(k: Knex, articleRowId: number, sectionIds: string[]): Promise<void> {
        if (!sectionIds.length) return;
        await k(threads()).where({ article_id: articleRowId }).whereIn('section_id', sectionIds).update({ detached: true });
      },

      async setStatus(k: Knex, id: number, status: 'open' | 'resolved', by: { kind: string; name: string } | null, now: Date): Promise<void> {
        await k(threads())
          .where({ id })
          .update({ status, resolved_at: by ? now : null, resolved_by_kind: by?.kind ?? null, resolved_by_name: by?.name ?? null, updated_at: now });
      },

      /** The comments of some threads, oldest first. */
      commentsOf(k: Knex, threadIds: number[]): Promise<CommentRow[]> {
        if (!threadIds.length) return Promise.resolve([]);
        return k(comments()).whereIn('thread_id', threadIds).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]).select(COMMENT_COLUMNS);
      },

      comment(k: Knex, uuid: string): Promise<CommentRow | undefined> {
        return k(comments()).where({ uuid }).first(COMMENT_COLUMNS);
      },

      /**
       * A comment's mentioned executions, and whether any is still to be waited for (`awaiting`:
       * what a process that starts looks for; its lease is dropped once nothing is).
       */
      async setExecutions(k: Knex, commentId: number, executions: unknown, awaiting = false): Promise<void> {
        await k(comments())
          .where({ id: commentId })
          .update({ executions: JSON.stringify(executions), awaiting, ...(awaiting ? {} : { lease_until: null, lease_by: null }) });
      },

      /**
       * Takes (or renews) the wait for a comment's executions for `by` until `until`: only while
       * they are awaited and nobody else holds an unexpired lease. Whether it was taken.
       */
      async claimWait(k: Knex, commentId: number, by: string, until: Date, now: Date): Promise<boolean> {
        const n = await k(comments())
          .where({ id: commentId, awaiting: true })
          .andWhere((q) => q.whereNull('lease_until').orWhere('lease_until', '<', now).orWhere('lease_by', by))
          .update({ lease_until: until, lease_by: by });
        return Number(n) > 0;
      },

      /** Lets go of a wait (a process stopping): the next process to look takes it at once. */
      async releaseWait(k: Knex, commentId: number, by: string): Promise<void> {
        await k(comments()).where({ id: commentId, lease_by: by }).update({ lease_until: null, lease_by: null });
      },

      /**
       * Comments whose executions are awaited and that no process holds (never taken, let go, or
       * its lease expired: the process stopped), on live articles, oldest first; with what posting
       * in their thread needs.
       */
      unclaimedWaits(k: Knex, now: Date, limit: number): Promise<UnclaimedWait[]> {
        return k(tableName(strapi, COMMENT_TABLE, 'c'))
          .join(tableName(strapi, THREAD_TABLE, 't'), 't.id', 'c.thread_id')
          .join(tableName(strapi, TABLE.articles, 'a'), 'a.id', 'c.article_id')
          .where('c.awaiting', true)
          .andWhere((q) => q.whereNull('c.lease_until').orWhere('c.lease_until', '<', now))
          .whereNotNull('a.user_id')
          .whereNull('a.deleted_at')
          .orderBy('c.id', 'asc')
          .limit(limit)
          .select({ comment_id: 'c.id', comment_uuid: 'c.uuid', created_at: 'c.created_at', thread_uuid: 't.uuid', article_row_id: 'a.id', article_uuid: 'a.uuid', owner_id: 'a.user_id' });
      },

      /** How many open threads each of some articles has (one grouped query; articles with none are absent). */
      async openCounts(k: Knex, articleRowIds: number[]): Promise<Map<number, number>> {
        if (!articleRowIds.length) return new Map();
        const rows = await k(threads()).whereIn('article_id', articleRowIds).andWhere('status', 'open').groupBy('article_id').select('article_id').count({ n: '*' });
        return new Map((rows as Array<{ article_id: unknown; n: unknown }>).map((r) => [Number(r.article_id), Number(r.n)]));
      },

      /** Comments the mention machinery posted in a thread since `since` (skills' replies and notes: the hourly budget). */
      async agentCommentsSince(k: Knex, threadId: number, since: Date): Promise<number> {
        const row = await k(comments()).where({ thread_id: threadId, origin: 'mention' }).andWhere('created_at', '>=', since).count({ n: '*' }).first();
        return Number(row?.n ?? 0);
      },
    }),
    {
      /** A new thread; its row id. */
      async create(data: Record<string, unknown>): Promise<number> {
        const created = await strapi.db.query(THREAD_UID).create({ data, select: ['id'] });
        return Number(created.id);
      },
      /** A new comment; its row id. */
      async addComment(data: Record<string, unknown>): Promise<number> {
        const created = await strapi.db.query(COMMENT_UID).create({ data, select: ['id'] });
        return Number(created.id);
      },
    },
  );
}
