/**
 * SQL of the articles' trash (the admin panel's Delete, Trash and Restore): an article in the
 * trash keeps every row it has, but its `user_id` is cleared (the owner kept in
 * `deleted_owner_id`), so every owner-scoped query of the content API, search, MCP and the
 * triggers answers 404 for it without knowing the trash exists. Restoring puts the owner back.
 * Rows older than the trash's 30 days are purged with everything that hangs off them.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { iso, repositoryOf, tableName } from '#kernel/db';
import { TABLE, toInt } from '../repositories/store';
import { COMMENT_TABLE, THREAD_TABLE } from './threads';

const USER_UID = 'plugin::users-permissions.user';

/** A trashed article as the panel's Trash view lists it. */
export interface TrashedArticleRow {
  id: string;
  title: string;
  words: number;
  sections: number;
  owner: { id: number; username: string; email: string } | null;
  deletedAt: string;
  deletedBy: string;
}

export const articleTrashRepository = (strapi: Core.Strapi) => {
  const articles = (alias?: string) => tableName(strapi, TABLE.articles, alias);
  const users = (alias: string) => tableName(strapi, strapi.db.metadata.get(USER_UID).tableName, alias);

  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** A live (not trashed) article's row id, owner and status by id, or undefined. */
    async findLive(k: Knex, uuid: string): Promise<{ id: number; ownerId: number; status: string } | undefined> {
      const row = await k(articles()).where({ uuid }).whereNull('deleted_at').whereNotNull('user_id').first(['id', 'user_id', 'status']);
      return row ? { id: Number(row.id), ownerId: Number(row.user_id), status: row.status } : undefined;
    },

    /** A trashed article's row id and owner, or undefined. */
    async findTrashed(k: Knex, uuid: string): Promise<{ id: number; ownerId: number } | undefined> {
      const row = await k(articles()).where({ uuid }).whereNotNull('deleted_at').first(['id', 'deleted_owner_id']);
      return row ? { id: Number(row.id), ownerId: Number(row.deleted_owner_id) } : undefined;
    },

    /**
     * Moves a live article to the trash: its owner set aside, its public copies taken down (the
     * slug stays reserved for it) and its status draft. False when it was not live (any more).
     */
    async trash(trx: Knex, rowId: number, ownerId: number, byName: string, now: Date): Promise<boolean> {
      const moved = await trx(articles())
        .where({ id: rowId, user_id: ownerId })
        .whereNull('deleted_at')
        .update({ user_id: null, deleted_owner_id: ownerId, deleted_at: now, deleted_by_name: byName, status: 'draft', last_published_at: null });
      if (!moved) return false;
      await trx(tableName(strapi, TABLE.publications)).where({ article_id: rowId }).update({ html: null, markdown: null, updated_at: now });
      return true;
    },

    /** Gives a trashed article back to its owner. False when it was not in the trash (any more). */
    async restore(trx: Knex, rowId: number, ownerId: number, now: Date): Promise<boolean> {
      const restored = await trx(articles())
        .where({ id: rowId })
        .whereNotNull('deleted_at')
        .update({ user_id: ownerId, deleted_owner_id: null, deleted_at: null, deleted_by_name: null, updated_at: now });
      return restored > 0;
    },

    /** A page of trashed articles, most recently deleted first, with their totals and owner. */
    async list(k: Knex, page: number, pageSize: number): Promise<{ rows: TrashedArticleRow[]; total: number }> {
      const sections = tableName(strapi, TABLE.sections, 's');
      const [{ total }] = await k(articles('a')).whereNotNull('a.deleted_at').count({ total: '*' });
      const raws = await k(articles('a'))
        .leftJoin(users('u'), 'u.id', 'a.deleted_owner_id')
        .whereNotNull('a.deleted_at')
        .select('a.uuid', 'a.title', 'a.deleted_at', 'a.deleted_by_name')
        .select({ owner_id: 'u.id', owner_username: 'u.username', owner_email: 'u.email' })
        .select(
          k(sections).count('*').whereRaw('?? = ??', ['s.article_id', 'a.id']).as('section_count'),
          k(sections).sum('s.words').whereRaw('?? = ??', ['s.article_id', 'a.id']).as('word_count'),
        )
        .orderBy([
          { column: 'a.deleted_at', order: 'desc' },
          { column: 'a.id', order: 'desc' },
        ])
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return {
        total: toInt(total),
        rows: raws.map((r: any) => ({
          id: r.uuid,
          title: r.title,
          words: toInt(r.word_count),
          sections: toInt(r.section_count),
          owner: r.owner_id == null ? null : { id: Number(r.owner_id), username: r.owner_username, email: r.owner_email },
          deletedAt: iso(r.deleted_at)!,
          deletedBy: r.deleted_by_name ?? '',
        })),
      };
    },

    /** Row ids of the articles trashed before `cutoff` (at most `limit`). */
    async expired(k: Knex, cutoff: Date, limit: number): Promise<number[]> {
      const rows = await k(articles()).whereNotNull('deleted_at').andWhere('deleted_at', '<', cutoff).orderBy('deleted_at').limit(limit).select('id');
      return rows.map((r) => Number(r.id));
    },

    /** Deletes articles for good, with their sections, notes, history, trash, suggestions and publication. */
    async purge(trx: Knex, rowIds: number[]): Promise<void> {
      if (!rowIds.length) return;
      for (const table of [TABLE.sections, TABLE.notes, TABLE.revisions, TABLE.trash, TABLE.suggestions, TABLE.publications, THREAD_TABLE, COMMENT_TABLE]) {
        await trx(tableName(strapi, table)).whereIn('article_id', rowIds).delete();
      }
      await trx(articles()).whereIn('id', rowIds).whereNotNull('deleted_at').delete();
    },

    async userExists(k: Knex, id: number): Promise<boolean> {
      return Boolean(await k(users('u')).where('u.id', id).first('u.id'));
    },

    /** Users of the server whose username or email contains `pattern` (a LIKE pattern), for the panel's owner picker. */
    async users(k: Knex, pattern: string | null, limit: number): Promise<Array<{ id: number; username: string; email: string }>> {
      const query = k(users('u')).select('u.id', 'u.username', 'u.email').orderBy('u.username').limit(limit);
      if (pattern) {
        query.where((q) => q.whereRaw(`lower(??) like ? escape '\\'`, ['u.username', pattern]).orWhereRaw(`lower(??) like ? escape '\\'`, ['u.email', pattern]));
      }
      return (await query).map((r: any) => ({ id: Number(r.id), username: r.username, email: r.email }));
    },

    /**
     * Whether each published article's public copy is older than the article: its sections or
     * title changed since (the publication records the outline revision it was built from;
     * older copies, from before it did, compare times).
     */
    async changedSincePublished(k: Knex, rowIds: number[]): Promise<Set<number>> {
      if (!rowIds.length) return new Set();
      const rows = await k(articles('a'))
        .join(tableName(strapi, TABLE.publications, 'p'), 'p.article_id', 'a.id')
        .whereIn('a.id', rowIds)
        .andWhere('a.status', 'published')
        .whereNotNull('p.html')
        .select('a.id', 'a.title', 'a.outline_rev', 'a.updated_at', 'a.last_published_at', { pub_title: 'p.title', pub_rev: 'p.outline_rev' });
      const changed = new Set<number>();
      for (const r of rows as any[]) {
        const stale =
          r.pub_rev == null
            ? new Date(iso(r.updated_at)!).getTime() > new Date(iso(r.last_published_at) ?? 0).getTime()
            : Number(r.pub_rev) !== Number(r.outline_rev) || r.pub_title !== r.title;
        if (stale) changed.add(Number(r.id));
      }
      return changed;
    },
  });
};
