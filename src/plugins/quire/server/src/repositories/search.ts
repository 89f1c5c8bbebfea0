/**
 * Search queries over quire_sections (services/search.ts decides what matches): candidates
 * found through the index, never by reading the sections table. PostgreSQL: a `pg_trgm` GIN
 * index on the section's search text (`ILIKE`); SQLite: an FTS5 table with the trigram
 * tokenizer (a phrase `MATCH`), kept in step by triggers. Both are made at boot
 * (repositories/search-index.ts).
 *
 * A section's search text is its Markdown source, or for html sections the text content of
 * its HTML (column html_text): `searchTextOf`, the very expression the PostgreSQL index is
 * built on and the SQLite triggers copy.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { compiledQuery, repositoryOf, tableName } from '#kernel/db';
import { codePoints, ftsQuery, likeContains, MIN_INDEXED_QUERY } from '../domain/search';
import { newestFirst, type PagePosition } from './articles';
import { TABLE } from './store';

/** The search text of a section row (`s` the table's alias, or `new` in a trigger). */
export const searchTextOf = (s: string) => `(CASE WHEN ${s}.source = 'html' THEN coalesce(${s}.html_text, ${s}.html) ELSE coalesce(${s}.markdown, '') END)`;

/** The SQLite FTS5 table of section search texts (rowid = the section's row id). */
export const FTS_TABLE = 'quire_sections_search';
/** The PostgreSQL trigram index. */
export const TRGM_INDEX = 'quire_sections_search_trgm_idx';

export interface CandidateRow {
  article_id: number;
  uuid: string;
  source: string;
  markdown: string | null;
  html: string | null;
  html_text: string | null;
}

const CANDIDATE_COLUMNS = ['s.article_id', 's.uuid', 's.source', 's.markdown', 's.html', 's.html_text'];

const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);

/** Sections `s` whose search text SQLite's LIKE finds `like` in (its ASCII case folding is a superset of ours). */
const whereLike = (query: Knex.QueryBuilder, like: string) => query.whereRaw(`${searchTextOf('s')} LIKE ? ESCAPE '\\'`, [like]);

/** Up to this many sections in all, a page of articles' candidates are read by article rather than through the FTS index. */
export const SCAN_MAX_SECTIONS = 2_000;

/** The candidates of one article by its own sections (SQLite, ASCII queries): compiled once (kernel/db compiledQuery). */
const inArticleByScan = compiledQuery((k: Knex, { strapi }: { strapi: Core.Strapi }, uuid: string, userId: number, like: string) =>
  whereLike(
    k(tableName(strapi, TABLE.sections, 's'))
      .join(tableName(strapi, TABLE.articles, 'a'), 'a.id', 's.article_id')
      .where({ 'a.uuid': uuid, 'a.user_id': userId }),
    like,
  ).select([...CANDIDATE_COLUMNS, 'a.outline_rev']),
);

export function searchRepository(strapi: Core.Strapi) {
  const sections = (alias?: string) => tableName(strapi, TABLE.sections, alias);
  const articles = (alias?: string) => tableName(strapi, TABLE.articles, alias);
  const isPostgres = () => strapi.db.dialect.client === 'postgres';

  /**
   * Narrows a query on sections `s` to those whose search text may contain `q`, through the
   * index. Short queries: by SQL only where the database's case folding is known to be a
   * superset of ours (PostgreSQL ILIKE; SQLite LIKE for ASCII), else every section the rest of
   * the query selects (by article). `byArticle`: the rest of the query selects few sections, so
   * on SQLite an ASCII query is narrowed by LIKE even when the index could serve it (the index
   * would look its trigrams up among every article's sections).
   */
  function whereMayContain(query: Knex.QueryBuilder, q: string, byArticle = false): Knex.QueryBuilder {
    const indexed = codePoints(q) >= MIN_INDEXED_QUERY;
    if (isPostgres()) return query.whereRaw(`${searchTextOf('s')} ILIKE ?`, [likeContains(q)]);
    if (isAscii(q) && (byArticle || !indexed)) return whereLike(query, likeContains(q));
    if (indexed) return query.whereRaw(`s.id IN (SELECT rowid FROM ${FTS_TABLE} WHERE ${FTS_TABLE} MATCH ?)`, [ftsQuery(q)]);
    return query;
  }

  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /**
     * The candidate sections of the owner's article `uuid`, each with the article's outline
     * revision: the article's lookup and the search in one query (no row: no match, or no such
     * article of the owner's).
     */
    inOwnedArticle(k: Knex, userId: number, uuid: string, q: string): Promise<Array<CandidateRow & { outline_rev: number }>> {
      // SQLite, an ASCII query: the article's own sections, narrowed by LIKE (a superset of our
      // matching, as for short queries). The FTS index would look the trigrams up in every
      // article's sections: 0.5 ms of CPU for common ones in the bench's 12,000 sections, and
      // more as the database grows, where this grows with the article alone.
      if (!isPostgres() && isAscii(q)) return inArticleByScan<CandidateRow & { outline_rev: number }>(k, 'like', { strapi }, uuid, userId, likeContains(q));
      return whereMayContain(
        k(sections('s'))
          .join(articles('a'), 'a.id', 's.article_id')
          .where({ 'a.uuid': uuid, 'a.user_id': userId })
          .select([...CANDIDATE_COLUMNS, 'a.outline_rev']),
        q,
      );
    },

    /** The candidate sections of several article rows. */
    inArticles(k: Knex, articleRowIds: number[], q: string, articleSections = Infinity): Promise<CandidateRow[]> {
      if (!articleRowIds.length) return Promise.resolve([]);
      // Articles of few sections in all (their outlines say how many): their own sections cost
      // less than the index's second lookup of the trigrams.
      return whereMayContain(k(sections('s')).whereIn('s.article_id', articleRowIds).select(CANDIDATE_COLUMNS), q, articleSections <= SCAN_MAX_SECTIONS);
    },

    /**
     * A page of the owner's articles (and one more) that may hold a match, most recently
     * updated first, after `cursor`.
     */
    articlesPage(k: Knex, userId: number, q: string, limit: number, after?: PagePosition): Promise<Array<{ id: number; uuid: string; title: string; updated_at: unknown; outline_rev: number }>> {
      const page = k(articles('a')).where('a.user_id', userId);
      if (codePoints(q) >= MIN_INDEXED_QUERY) {
        // The index finds the matching sections of every article; the owner's are kept.
        page.whereIn('a.id', whereMayContain(k(sections('s')).select('s.article_id'), q));
      } else {
        // Nothing to look up: each of the caller's articles is checked through its own sections.
        page.whereExists(whereMayContain(k(sections('s')).select(k.raw('1')).whereRaw('?? = ??', ['s.article_id', 'a.id']), q));
      }
      return newestFirst(page.select(['a.id', 'a.uuid', 'a.title', 'a.updated_at', 'a.outline_rev']), limit, after);
    },
  });
}
