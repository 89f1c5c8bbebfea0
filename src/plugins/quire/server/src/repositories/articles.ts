/**
 * quire_articles: the article rows and their mapping, always scoped by owner (user_id) when
 * found by public id. The per-article write lock, owner-scoped id lookups and anchor lookups
 * shared with sections and notes are in ./store.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { compiledQuery, iso, repositoryOf, tableName } from '#kernel/db';
import type { ArticleRecord } from '../schemas/records';
import { TABLE, UID } from './store';
import { COMMENT_TABLE, THREAD_TABLE } from './threads';

/** The stored article row, as services (publish, import) need it. */
export interface ArticleRow {
  id: number;
  uuid: string;
  userId: number;
  title: string;
  status: ArticleRecord['status'];
  premise: string | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** Bumped by every write to the article's sections (see services/outlines). */
  outlineRev: number;
  /** The lasting slug of its public page, once it was published (null before). */
  publicSlug: string | null;
}

const ROW_COLUMNS = ['id', 'uuid', 'user_id', 'title', 'status', 'premise', 'created_at', 'updated_at', 'last_published_at', 'outline_rev'];

export function toArticleRow(raw): ArticleRow {
  return {
    id: Number(raw.id),
    uuid: raw.uuid,
    userId: Number(raw.user_id),
    title: raw.title,
    status: raw.status,
    premise: raw.premise ?? null,
    createdAt: iso(raw.created_at)!,
    updatedAt: iso(raw.updated_at)!,
    publishedAt: iso(raw.last_published_at),
    outlineRev: Number(raw.outline_rev ?? 0),
    publicSlug: raw.public_slug ?? null,
  };
}

/** Opaque list cursor: the position after the last article of a page. */
export function encodeCursor(row: { updatedAt: unknown; id: number }): string {
  return Buffer.from(JSON.stringify([row.updatedAt, row.id])).toString('base64url');
}

/** Where a page starts: after the article updated at `updatedAt` with row id `id` (newest first). */
export interface PagePosition {
  updatedAt: Date;
  id: number;
}

/** The position a cursor of `encodeCursor` names, or null when it is not one (services word the error). */
export function decodeCursor(cursor: string): PagePosition | null {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const date = new Date(updatedAt);
    if (typeof updatedAt === 'string' && Number.isInteger(id) && !Number.isNaN(date.getTime())) return { updatedAt: date, id };
  } catch {
    // not base64url JSON: not a cursor
  }
  return null;
}

/**
 * Narrows a query on articles `a` to a page of `limit` (and one more, to tell whether a next
 * page exists), most recently updated first, after `after` (the decoded nextCursor of the last page).
 */
export function newestFirst(query: Knex.QueryBuilder, limit: number, after?: PagePosition): Knex.QueryBuilder {
  query
    .orderBy([
      { column: 'a.updated_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ])
    .limit(limit + 1);
  if (after) {
    const { updatedAt, id } = after;
    query.andWhere((q) => q.where('a.updated_at', '<', updatedAt).orWhere((q2) => q2.where('a.updated_at', '=', updatedAt).andWhere('a.id', '<', id)));
  }
  return query;
}

export function articleRepository(strapi: Core.Strapi) {
  const articles = (alias?: string) => tableName(strapi, TABLE.articles, alias);
  const owned = (userId: number, uuid: string) => ({ uuid, user_id: userId });
  // Every outline read runs it (the outline is cached against the revision): compiled once (kernel/db compiledQuery).
  const outlineRevQuery = compiledQuery((k: Knex, _shape: null, userId: number, uuid: string) => k(articles()).where(owned(userId, uuid)).select(['id', 'outline_rev']).limit(1));
  /** The row's columns on `a` and the slug of its publication (one per article at most). */
  const rowColumns = (k: Knex) => [
    ...ROW_COLUMNS.map((c) => `a.${c}`),
    k(tableName(strapi, TABLE.publications, 'p')).select('p.slug').whereRaw('?? = ??', ['p.article_id', 'a.id']).limit(1).as('public_slug'),
  ];

  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return Object.assign(
    repositoryOf(strapi, {
      /** The owner's article row, or undefined. */
      async find(k: Knex, userId: number, uuid: string): Promise<ArticleRow | undefined> {
        const raw = await k(articles('a')).where({ 'a.uuid': uuid, 'a.user_id': userId }).first(rowColumns(k));
        return raw ? toArticleRow(raw) : undefined;
      },

      /** The owner's article's row id and outline revision, or undefined. */
      async outlineRevOf(k: Knex, userId: number, uuid: string): Promise<{ id: number; outlineRev: number } | undefined> {
        const [row] = await outlineRevQuery<{ id: number; outline_rev: number }>(k, 'rev', null, userId, uuid);
        return row ? { id: Number(row.id), outlineRev: Number(row.outline_rev) } : undefined;
      },

      /** The outline revision of an article row (0 when it is gone). */
      async outlineRevOfRow(k: Knex, articleRowId: number): Promise<number> {
        return Number((await k(articles()).where({ id: articleRowId }).first('outline_rev'))?.outline_rev ?? 0);
      },

      /** The owner's article's row id and premise, or undefined. */
      async premiseOf(k: Knex, userId: number, uuid: string): Promise<{ id: number; premise: string | null } | undefined> {
        const row = await k(articles()).where(owned(userId, uuid)).first(['id', 'premise']);
        return row ? { id: Number(row.id), premise: row.premise ?? null } : undefined;
      },

      /** A page of the owner's articles with their section and word totals, newest first. */
      async page(k: Knex, userId: number, limit: number, after?: PagePosition): Promise<Array<{ row: ArticleRow; sections: unknown; words: unknown }>> {
        const sections = tableName(strapi, TABLE.sections, 's');
        const query = k(articles('a'))
          .where('a.user_id', userId)
          .select(rowColumns(k))
          .select(
            k(sections).count('*').whereRaw('?? = ??', ['s.article_id', 'a.id']).as('section_count'),
            k(sections).sum('s.words').whereRaw('?? = ??', ['s.article_id', 'a.id']).as('word_count'),
          );
        const raws = await newestFirst(query, limit, after);
        return raws.map((raw) => ({ row: toArticleRow(raw), sections: raw.section_count, words: raw.word_count }));
      },

      /** Changes fields of the owner's article (and its updatedAt); false when there is none. */
      async update(k: Knex, userId: number, uuid: string, changes: { title?: string; premise?: string | null }): Promise<boolean> {
        return (await k(articles()).where(owned(userId, uuid)).update({ ...changes, updated_at: new Date() })) > 0;
      },

      /** Sets the publication state of an article row. */
      async setStatus(k: Knex, articleRowId: number, state: { status: 'published'; at: Date } | { status: 'draft' }): Promise<void> {
        await k(articles())
          .where({ id: articleRowId })
          .update(state.status === 'published' ? { status: 'published', last_published_at: state.at } : { status: 'draft' });
      },

      /** The owner's article's row id (no lock), or undefined. */
      async idOf(k: Knex, userId: number, uuid: string): Promise<number | undefined> {
        const row = await k(articles()).where(owned(userId, uuid)).first('id');
        return row ? Number(row.id) : undefined;
      },

      /** Deletes an article row with everything it holds: sections, notes, history, trash, suggestions, its publication. */
      async removeWithContent(k: Knex, articleRowId: number): Promise<void> {
        for (const table of [TABLE.sections, TABLE.notes, TABLE.revisions, TABLE.trash, TABLE.suggestions, TABLE.premiseRevisions, TABLE.liveStates, TABLE.liveUpdates, TABLE.publications, THREAD_TABLE, COMMENT_TABLE]) {
          await k(tableName(strapi, table)).where({ article_id: articleRowId }).delete();
        }
        await k(articles()).where({ id: articleRowId }).delete();
      },
    }),
    {
      /** A new draft article (joining the open transaction); its row id. */
      async create(data: { uuid: string; userId: number; title: string; premise: string | null; now: Date }): Promise<number> {
        const created = await strapi.db.query(UID.article).create({
          data: { uuid: data.uuid, userId: data.userId, title: data.title, status: 'draft', premise: data.premise, lastPublishedAt: null, outlineRev: 0, createdAt: data.now, updatedAt: data.now },
          select: ['id'],
        });
        return Number(created.id);
      },
    },
  );
}
