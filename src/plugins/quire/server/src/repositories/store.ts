/**
 * Data access shared by the repositories and services of articles, sections and notes:
 * content-type uids and tables, the owner-scoped article lookup, the per-article write lock
 * and anchor lookups. They answer null (or what was missing), never an HTTP error: the
 * services say it (services/article-lookup).
 * (Table names, the Knex handle and ISO dates are the kernel's: src/kernel/db.ts.)
 *
 * Hot paths use Knex directly (joins, correlated subqueries, `rev = rev + 1`) with the
 * columns they need; the Query Engine is used for inserts, where its defaults (documentId,
 * timestamps) matter more than a few microseconds.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { anchorOf, normalizeAnchor, normalizeId, prefixUpperBound, type AnchorScope } from '../domain/anchors';
import { compiledQuery, knexOf, tableName } from '#kernel/db';

export const UID = {
  article: 'plugin::quire.article',
  section: 'plugin::quire.section',
  note: 'plugin::quire.note',
  publication: 'plugin::quire.publication',
  revision: 'plugin::quire.section-revision',
  trash: 'plugin::quire.trashed-section',
  suggestion: 'plugin::quire.suggestion',
  premiseRevision: 'plugin::quire.premise-revision',
} as const;

export const TABLE = {
  articles: 'quire_articles',
  sections: 'quire_sections',
  notes: 'quire_notes',
  publications: 'quire_publications',
  revisions: 'quire_section_revisions',
  trash: 'quire_trash',
  suggestions: 'quire_suggestions',
  premiseRevisions: 'quire_premise_revisions',
  liveStates: 'quire_live_states',
  liveUpdates: 'quire_live_updates',
} as const;

/**
 * Takes the article's write lock and returns its row id, or null when the caller does not own
 * it (services/article-lookup `lockArticle` answers 404). Updating the row first serialises writers to one article: PostgreSQL holds the row lock
 * until commit, and SQLite has a single writer. It also records the change in `updatedAt`,
 * and, for writes that change the sections (`outline: true`), bumps `outlineRev`, which tells
 * cached outlines they are stale. Must run inside a transaction.
 */
export async function lockOwnedArticle(
  strapi: Core.Strapi,
  trx: Knex,
  userId: number,
  uuid: string,
  options: { outline: boolean },
): Promise<{ id: number; outlineRev: number } | null> {
  const rows = await lockQuery<{ id: number; outline_rev: number }>(trx, options.outline ? 'outline' : 'article', { strapi, outline: options.outline }, new Date(), uuid, userId);
  if (!rows.length) return null;
  const row = rows[0];
  return { id: Number(row.id), outlineRev: Number(row.outline_rev) };
}

/** The lock's update, compiled once (kernel/db compiledQuery): every write runs it. */
const lockQuery = compiledQuery((k: Knex, { strapi, outline }: { strapi: Core.Strapi; outline: boolean }, now: Date, uuid: string, userId: number) => {
  const changes: Record<string, unknown> = { updated_at: now };
  if (outline) changes.outline_rev = k.raw('?? + 1', ['outline_rev']);
  return k(tableName(strapi, TABLE.articles)).where({ uuid, user_id: userId }).update(changes).returning(['id', 'outline_rev']);
});

/** Article ids may be shortened like anchors, to a unique prefix of at least this many characters. */
export const MIN_ARTICLE_PREFIX = 4;

/** The ids of the caller's articles that start with `prefix` (normalised), at most two: one indexed range query on (user_id, uuid). */
export async function articleIdsWithPrefix(strapi: Core.Strapi, userId: number, prefix: string): Promise<string[]> {
  const k = await knexOf(strapi);
  const rows = await k(tableName(strapi, TABLE.articles))
    .where('user_id', userId)
    .andWhere('uuid', '>=', prefix)
    .andWhere('uuid', '<', prefixUpperBound(prefix))
    .orderBy('uuid')
    .limit(2)
    .select('uuid');
  return rows.map((row) => row.uuid as string);
}

/** Row id of an owned article (no lock), or null. */
export async function findArticleRowId(strapi: Core.Strapi, userId: number, uuid: string): Promise<number | null> {
  const k = await knexOf(strapi);
  const row = await k(tableName(strapi, TABLE.articles)).where({ uuid, user_id: userId }).first('id');
  return row ? Number(row.id) : null;
}

export const toInt = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));

/** What a section's or note's anchor is looked up for: the caller, the article and the anchor as the path names them. */
export interface AnchorTarget {
  userId: number;
  rawArticleId: string;
  rawAnchor: string;
  scope: AnchorScope;
}

/** What an anchor lookup found: the row and its anchor, or what was missing (the article, any match) or that several matched. */
export type AnchorLookup<Row = any> = { row: Row; anchor: string } | { missing: 'article' | 'anchor' | 'several' };

/**
 * findByAnchor's query, compiled once per table and columns (kernel/db compiledQuery): every
 * read and write of a section or note by anchor runs it.
 */
const anchorQuery = compiledQuery((k: Knex, { strapi, table, columns }: { strapi: Core.Strapi; table: string; columns: string[] }, uuid: string, userId: number, anchor: string, upperBound: string) => {
  const neighbour = (op: '<' | '>', direction: 'asc' | 'desc', as: string) =>
    k(tableName(strapi, table, 'p'))
      .select('p.uuid')
      .whereRaw('?? = ??', ['p.article_id', 'r.article_id'])
      .andWhere('p.uuid', op, k.ref('r.uuid'))
      .orderBy('p.uuid', direction)
      .limit(1)
      .as(as);
  return k(tableName(strapi, table, 'r'))
    .join(tableName(strapi, TABLE.articles, 'a'), 'a.id', 'r.article_id')
    .where({ 'a.uuid': uuid, 'a.user_id': userId })
    .andWhere('r.uuid', '>=', anchor)
    .andWhere('r.uuid', '<', upperBound)
    .orderBy('r.uuid')
    .limit(2)
    // One list: given an array first, Knex's select drops its other arguments (the neighbours were lost so).
    .select([...columns.map((c) => `r.${c}`), neighbour('<', 'desc', 'prev'), neighbour('>', 'asc', 'next')]);
});

/**
 * The one row of `table` (sections or notes) in the caller's article whose id starts with the
 * anchor: a single indexed range query on (article_id, uuid) joined to the owner's article,
 * with the id's sorted neighbours, from which its own anchor follows. Or what was missing:
 * the article, a match, or a unique one (services/article-lookup `foundByAnchor` says it as
 * 404 or 400 "Use a longer anchor.").
 */
export async function findByAnchor(
  strapi: Core.Strapi,
  table: string,
  columns: string[],
  { userId, rawArticleId, rawAnchor }: AnchorTarget,
): Promise<AnchorLookup> {
  const uuid = normalizeId(rawArticleId);
  if (!uuid) return { missing: 'article' };
  const k = await knexOf(strapi);
  const anchor = normalizeAnchor(rawAnchor);
  const missing = async (): Promise<AnchorLookup> => {
    const article = await k(tableName(strapi, TABLE.articles)).where({ uuid, user_id: userId }).first('id');
    return { missing: article ? 'anchor' : 'article' };
  };
  if (anchor === null) return missing();
  const rows = await anchorQuery<Record<string, any> & { uuid: string; prev: string | null; next: string | null }>(k, `${table} ${columns.join(',')}`, { strapi, table, columns }, uuid, userId, anchor, prefixUpperBound(anchor));
  if (rows.length === 0) return missing();
  if (rows.length > 1) return { missing: 'several' };
  return { row: rows[0], anchor: anchorOf(rows[0].uuid, rows[0].prev, rows[0].next) };
}
