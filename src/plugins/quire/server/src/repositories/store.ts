/**
 * Data access shared by the repositories and services of articles, sections and notes:
 * content-type uids and tables, the owner-scoped article lookup, the per-article write lock
 * and anchor lookups.
 * (Table names, the Knex handle and ISO dates are the kernel's: src/kernel/db.ts.)
 *
 * Hot paths use Knex directly (joins, correlated subqueries, `rev = rev + 1`) with the
 * columns they need; the Query Engine is used for inserts, where its defaults (documentId,
 * timestamps) matter more than a few microseconds.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { ambiguousAnchor, anchorOf, normalizeAnchor, normalizeId, prefixUpperBound, unknownAnchor, type AnchorScope } from '../domain/anchors';
import { knexOf, tableName } from '#kernel/db';
import { invalidArgument, notFound } from '#kernel/errors';

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
} as const;

export const articleNotFound = (raw: string) =>
  notFound(`No article with id "${raw.length > 40 ? `${raw.slice(0, 40)}...` : raw}".`, 'Call GET /api/articles for your articles.');

/** The stored id of an article path parameter, or 404 (a malformed id is as missing as an unknown one). */
export function articleUuid(raw: string): string {
  const id = normalizeId(raw);
  if (!id) throw articleNotFound(raw);
  return id;
}

/**
 * Takes the article's write lock and returns its row id, or 404 when the caller does not own
 * it. Updating the row first serialises writers to one article: PostgreSQL holds the row lock
 * until commit, and SQLite has a single writer. It also records the change in `updatedAt`,
 * and, for writes that change the sections (`outline: true`), bumps `outlineRev`, which tells
 * cached outlines they are stale. Must run inside a transaction.
 */
export async function lockArticle(
  strapi: Core.Strapi,
  trx: Knex,
  userId: number,
  rawId: string,
  options: { outline: boolean },
): Promise<{ id: number; outlineRev: number }> {
  const uuid = articleUuid(rawId);
  const changes: Record<string, unknown> = { updated_at: new Date() };
  if (options.outline) changes.outline_rev = trx.raw('?? + 1', ['outline_rev']);
  const rows = await trx(tableName(strapi, TABLE.articles))
    .where({ uuid, user_id: userId })
    .update(changes)
    .returning(['id', 'outline_rev']);
  if (!rows.length) throw articleNotFound(rawId);
  const row = rows[0] as { id: number; outline_rev: number };
  return { id: Number(row.id), outlineRev: Number(row.outline_rev) };
}

/** Article ids may be shortened like anchors, to a unique prefix of at least this many characters. */
export const MIN_ARTICLE_PREFIX = 4;

/**
 * The full id of the caller's article that `raw` addresses: the id itself, or a prefix of it
 * (at least MIN_ARTICLE_PREFIX characters, case-insensitive) that no other article of the
 * caller's shares. A full id costs nothing; a prefix, one indexed range query on
 * (user_id, uuid), so another user's article is never matched. No match: 404; several: 400
 * "Use a longer anchor.". What is not an id prefix at all is passed through, for the owner-scoped
 * lookup to answer 404 as before.
 */
export async function resolveArticleId(strapi: Core.Strapi, userId: number, raw: string): Promise<string> {
  if (normalizeId(raw)) return raw;
  const prefix = normalizeAnchor(raw);
  if (prefix === null) return raw;
  if (prefix.length < MIN_ARTICLE_PREFIX) {
    throw notFound(
      `No article with id "${raw}": a shortened id needs at least ${MIN_ARTICLE_PREFIX} characters.`,
      'Call GET /api/articles for your articles.',
    );
  }
  const k = await knexOf(strapi);
  const rows = await k(tableName(strapi, TABLE.articles))
    .where('user_id', userId)
    .andWhere('uuid', '>=', prefix)
    .andWhere('uuid', '<', prefixUpperBound(prefix))
    .orderBy('uuid')
    .limit(2)
    .select('uuid');
  if (rows.length === 0) throw articleNotFound(raw);
  if (rows.length > 1) throw invalidArgument(`The id "${raw}" matches more than one of your articles.`, 'Use a longer anchor.');
  return rows[0].uuid as string;
}

/** Row id of an owned article (no lock), or 404. */
export async function articleRowId(strapi: Core.Strapi, userId: number, rawId: string): Promise<number> {
  const uuid = articleUuid(rawId);
  const k = await knexOf(strapi);
  const row = await k(tableName(strapi, TABLE.articles)).where({ uuid, user_id: userId }).first('id');
  if (!row) throw articleNotFound(rawId);
  return Number(row.id);
}

export const toInt = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));

/**
 * The one row of `table` (sections or notes) in the caller's article whose id starts with the
 * anchor: a single indexed range query on (article_id, uuid) joined to the owner's article,
 * with the id's sorted neighbours, from which its own anchor follows. Unknown article: 404;
 * no match: 404 naming the listing route; two matches: 400 "Use a longer anchor.".
 */
/** What a section's or note's anchor is looked up for: the caller, the article and the anchor as the path names them. */
export interface AnchorTarget {
  userId: number;
  rawArticleId: string;
  rawAnchor: string;
  scope: AnchorScope;
}

export async function findByAnchor(
  strapi: Core.Strapi,
  table: string,
  columns: string[],
  { userId, rawArticleId, rawAnchor, scope }: AnchorTarget,
): Promise<{ row: any; anchor: string }> {
  const uuid = articleUuid(rawArticleId);
  const k = await knexOf(strapi);
  const anchor = normalizeAnchor(rawAnchor);
  const missing = async () => {
    const article = await k(tableName(strapi, TABLE.articles)).where({ uuid, user_id: userId }).first('id');
    return article ? unknownAnchor(rawAnchor, scope) : articleNotFound(rawArticleId);
  };
  if (anchor === null) throw await missing();
  const neighbour = (op: '<' | '>', direction: 'asc' | 'desc', as: string) =>
    k(tableName(strapi, table, 'p'))
      .select('p.uuid')
      .whereRaw('?? = ??', ['p.article_id', 'r.article_id'])
      .andWhere('p.uuid', op, k.ref('r.uuid'))
      .orderBy('p.uuid', direction)
      .limit(1)
      .as(as);
  const rows = await k(tableName(strapi, table, 'r'))
    .join(tableName(strapi, TABLE.articles, 'a'), 'a.id', 'r.article_id')
    .where({ 'a.uuid': uuid, 'a.user_id': userId })
    .andWhere('r.uuid', '>=', anchor)
    .andWhere('r.uuid', '<', prefixUpperBound(anchor))
    .orderBy('r.uuid')
    .limit(2)
    .select(
      columns.map((c) => `r.${c}`),
      neighbour('<', 'desc', 'prev'),
      neighbour('>', 'asc', 'next'),
    );
  if (rows.length === 0) throw await missing();
  if (rows.length > 1) throw ambiguousAnchor(rawAnchor, scope);
  return { row: rows[0], anchor: anchorOf(rows[0].uuid, rows[0].prev, rows[0].next) };
}
