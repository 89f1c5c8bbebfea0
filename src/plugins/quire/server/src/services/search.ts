/**
 * Search (CONTRACT section 13): in one article, and across the caller's articles.
 *
 * The database finds the candidate sections with an index, never by reading the sections
 * table: PostgreSQL a `pg_trgm` GIN index on the section's search text (`ILIKE`), SQLite an
 * FTS5 table with the trigram tokenizer (a phrase `MATCH`), kept in step with every write by
 * triggers. Both are created at boot (services/search-index.ts). What matches, how often, and
 * the snippets are then decided exactly, in JavaScript (domain/search.ts).
 *
 * A section's search text is its Markdown source, or for html sections the text content of
 * its HTML (column html_text, written with the HTML): SEARCH_TEXT below, the very expression
 * the PostgreSQL index is built on and the SQLite triggers copy.
 *
 * A query shorter than a trigram (one or two characters) has nothing to look up in either
 * index: it is matched in the sections of the caller's articles, found by article (the
 * (article_id, uuid) index), a page of articles at a time; still never the whole table.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { iso, knexOf, tableName } from '../../../../../kernel/db';
import { codePoints, ftsQuery, likeContains, literalPattern, matchText, MIN_INDEXED_QUERY } from '../domain/search';
import type { Outline } from '../domain/outline';
import type { SearchMatch } from '../schemas/records';
import { encodeCursor, newestFirst } from './articles';
import { articleNotFound, articleUuid, TABLE } from '../repositories/store';

/** The search text of a section row (`s` the table's alias, or `new` in a trigger). */
export const searchTextOf = (s: string) => `(CASE WHEN ${s}.source = 'html' THEN coalesce(${s}.html_text, ${s}.html) ELSE coalesce(${s}.markdown, '') END)`;

/** The SQLite FTS5 table of section search texts (rowid = the section's row id). */
export const FTS_TABLE = 'quire_sections_search';
/** The PostgreSQL trigram index. */
export const TRGM_INDEX = 'quire_sections_search_trgm_idx';

export const DEFAULT_ARTICLE_MATCHES = 50;
export const DEFAULT_ARTICLES_PAGE = 20;
/** Across articles, each article shows at most this many matching sections (its own search shows all). */
export const MATCHES_PER_ARTICLE = 10;

interface CandidateRow {
  article_id: number;
  uuid: string;
  source: string;
  markdown: string | null;
  html: string | null;
  html_text: string | null;
}

const CANDIDATE_COLUMNS = ['s.article_id', 's.uuid', 's.source', 's.markdown', 's.html', 's.html_text'];

const textOfRow = (row: CandidateRow) => (row.source === 'html' ? (row.html_text ?? row.html ?? '') : (row.markdown ?? ''));

const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sections = (alias?: string) => tableName(strapi, TABLE.sections, alias);
  const articles = (alias?: string) => tableName(strapi, TABLE.articles, alias);
  const isPostgres = () => strapi.db.dialect.client === 'postgres';
  const outlines = () => strapi.plugin('quire').service('sections');

  /**
   * Narrows a query on sections `s` to those whose search text may contain `q`, through the
   * index. Short queries: by SQL only where the database's case folding is known to be a
   * superset of ours (PostgreSQL ILIKE; SQLite LIKE for ASCII), else every section the rest of
   * the query selects (by article).
   */
  function whereMayContain(query: Knex.QueryBuilder, q: string): Knex.QueryBuilder {
    const indexed = codePoints(q) >= MIN_INDEXED_QUERY;
    if (isPostgres()) return query.whereRaw(`${searchTextOf('s')} ILIKE ?`, [likeContains(q)]);
    if (indexed) return query.whereRaw(`s.id IN (SELECT rowid FROM ${FTS_TABLE} WHERE ${FTS_TABLE} MATCH ?)`, [ftsQuery(q)]);
    if (isAscii(q)) return query.whereRaw(`${searchTextOf('s')} LIKE ? ESCAPE '\\'`, [likeContains(q)]);
    return query;
  }

  /** The matches of one article's candidate rows, in outline order (rows not in the outline are skipped). */
  function matchesIn(outline: Outline, rows: CandidateRow[], q: string, limit: number): SearchMatch[] {
    const pattern = literalPattern(q);
    const position = new Map(outline.items.map((item, i) => [item.uuid, i]));
    const found: Array<{ at: number; match: SearchMatch }> = [];
    for (const row of rows) {
      const at = position.get(row.uuid);
      if (at === undefined) continue;
      const hit = matchText(textOfRow(row), q, pattern);
      if (!hit) continue;
      const item = outline.items[at];
      found.push({ at, match: { anchor: outline.anchorOf(item.uuid), level: item.level, title: item.title, count: hit.count, snippets: hit.snippets } });
    }
    return found
      .sort((a, b) => a.at - b.at)
      .slice(0, limit)
      .map((f) => f.match);
  }

  const api = {
    /** `GET /api/articles/{id}/search`: the article's matching sections, in outline order. */
    async inArticle(userId: number, rawArticleId: string, q: string, limit = DEFAULT_ARTICLE_MATCHES): Promise<{ matches: SearchMatch[] }> {
      const uuid = articleUuid(rawArticleId);
      const k = await knexOf(strapi);
      const article = await k(articles()).where({ uuid, user_id: userId }).first(['id', 'outline_rev']);
      if (!article) throw articleNotFound(rawArticleId);
      const rows: CandidateRow[] = await whereMayContain(k(sections('s')).where('s.article_id', article.id).select(CANDIDATE_COLUMNS), q);
      if (!rows.length) return { matches: [] };
      const outline: Outline = await outlines().outlineOfRow(Number(article.id), Number(article.outline_rev));
      return { matches: matchesIn(outline, rows, q, limit) };
    },

    /**
     * `GET /api/search`: the caller's articles with a matching section, most recently updated
     * first, a page of `limit` articles at a time (`cursor`: the nextCursor of the last page).
     */
    async everywhere(userId: number, q: string, options: { limit?: number; cursor?: string } = {}) {
      const limit = options.limit ?? DEFAULT_ARTICLES_PAGE;
      const k = await knexOf(strapi);
      const page = k(articles('a')).where('a.user_id', userId);
      if (codePoints(q) >= MIN_INDEXED_QUERY) {
        // The index finds the matching sections of every article; the owner's are kept.
        page.whereIn('a.id', whereMayContain(k(sections('s')).select('s.article_id'), q));
      } else {
        // Nothing to look up: each of the caller's articles is checked through its own sections.
        page.whereExists(whereMayContain(k(sections('s')).select(k.raw('1')).whereRaw('?? = ??', ['s.article_id', 'a.id']), q));
      }
      const found = await newestFirst(page.select(['a.id', 'a.uuid', 'a.title', 'a.updated_at', 'a.outline_rev']), limit, options.cursor);
      const shown = found.slice(0, limit);
      const rows: CandidateRow[] = shown.length
        ? await whereMayContain(k(sections('s')).whereIn('s.article_id', shown.map((a) => a.id)).select(CANDIDATE_COLUMNS), q)
        : [];
      const byArticle = new Map<number, CandidateRow[]>();
      for (const row of rows) {
        const id = Number(row.article_id);
        byArticle.set(id, [...(byArticle.get(id) ?? []), row]);
      }
      const results: Array<{ article: { id: string; title: string }; matches: SearchMatch[] }> = [];
      for (const article of shown) {
        const candidates = byArticle.get(Number(article.id));
        if (!candidates) continue;
        const outline: Outline = await outlines().outlineOfRow(Number(article.id), Number(article.outline_rev));
        const matches = matchesIn(outline, candidates, q, MATCHES_PER_ARTICLE);
        // The index's case folding can be wider than ours: an article whose candidates all fail is not a result.
        if (matches.length) results.push({ article: { id: article.uuid, title: article.title }, matches });
      }
      const last = shown[shown.length - 1];
      return {
        results,
        nextCursor: found.length > limit ? encodeCursor({ updatedAt: iso(last.updated_at), id: Number(last.id) }) : null,
      };
    },
  };
  return api;
};
