/**
 * Data access shared by the article, section and note services: table names, the current
 * Knex handle, the owner-scoped article lookup and the per-article write lock.
 *
 * Hot paths use Knex directly (joins, correlated subqueries, `rev = rev + 1`) with the
 * columns they need; the Query Engine is used for inserts, where its defaults (documentId,
 * timestamps) matter more than a few microseconds.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { ambiguousAnchor, anchorOf, normalizeAnchor, normalizeId, prefixUpperBound, unknownAnchor, type AnchorScope } from '../domain/anchors';
import { notFound } from '../domain/errors';

export const UID = {
  article: 'plugin::quire.article',
  section: 'plugin::quire.section',
  note: 'plugin::quire.note',
  publication: 'plugin::quire.publication',
} as const;

export const TABLE = {
  articles: 'quire_articles',
  sections: 'quire_sections',
  notes: 'quire_notes',
  publications: 'quire_publications',
} as const;

/** Indexes of the hot lookups, created at boot (see bootstrap). */
export const ARTICLE_INDEXES = [
  { table: TABLE.articles, columns: ['uuid'], unique: true },
  { table: TABLE.articles, columns: ['user_id', 'updated_at'] },
  { table: TABLE.sections, columns: ['article_id', 'uuid'], unique: true },
  { table: TABLE.notes, columns: ['article_id', 'uuid'], unique: true },
  // One publication per article; a slug names one publication (see services/publications).
  { table: TABLE.publications, columns: ['article_id'], unique: true },
  { table: TABLE.publications, columns: ['slug'], unique: true },
];

/** A table name, schema-qualified when the connection has a schema (PostgreSQL). */
export function tableName(strapi: Core.Strapi, table: string, alias?: string): string {
  const schema = strapi.db.getSchemaName?.();
  const name = schema ? `${schema}.${table}` : table;
  return alias ? `${name} as ${alias}` : name;
}

/**
 * The Knex handle to query with: the open transaction when there is one (SQLite has a single
 * connection, so a query outside it would wait for it forever), the pool otherwise.
 */
export async function knexOf(strapi: Core.Strapi): Promise<Knex> {
  if (strapi.db.inTransaction()) return (await strapi.db.transaction()).get() as Knex;
  return strapi.db.connection as unknown as Knex;
}

/** Runs `work` in a transaction (joining the caller's, if any), with its Knex handle. */
export function inTransaction<T>(strapi: Core.Strapi, work: (trx: Knex) => Promise<T>): Promise<T> {
  return strapi.db.transaction(({ trx }) => work(trx as unknown as Knex)) as unknown as Promise<T>;
}

/** Datetime column value (Date from pg, milliseconds from SQLite) as ISO-8601, or null. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

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
export async function findByAnchor(
  strapi: Core.Strapi,
  table: string,
  columns: string[],
  { userId, rawArticleId, rawAnchor, scope }: { userId: number; rawArticleId: string; rawAnchor: string; scope: AnchorScope },
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
