/**
 * Search (CONTRACT section 13): in one article, and across the caller's articles.
 *
 * The database finds the candidate sections with an index, never by reading the sections
 * table (repositories/search.ts); what matches, how often, and the snippets are then decided
 * exactly, in JavaScript (domain/search.ts).
 *
 * A query shorter than a trigram (one or two characters) has nothing to look up in either
 * index: it is matched in the sections of the caller's articles, found by article (the
 * (article_id, uuid) index), a page of articles at a time; still never the whole table.
 */
import type { Core } from '@strapi/strapi';
import { iso } from '#kernel/db';
import { literalPattern, matchText } from '../domain/search';
import type { Outline } from '../domain/outline';
import type { SearchMatch } from '../schemas/records';
import { articleRepository, encodeCursor } from '../repositories/articles';
import { searchRepository, type CandidateRow } from '../repositories/search';
import { articleNotFound, articleUuid, pageAfter } from './article-lookup';
import { getService } from './get-service';


export const DEFAULT_ARTICLE_MATCHES = 50;
export const DEFAULT_ARTICLES_PAGE = 20;
/** Across articles, each article shows at most this many matching sections (its own search shows all). */
export const MATCHES_PER_ARTICLE = 10;

const textOfRow = (row: CandidateRow) => (row.source === 'html' ? (row.html_text ?? row.html ?? '') : (row.markdown ?? ''));

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const search = searchRepository(strapi);
  const articles = articleRepository(strapi);
  const outlines = () => getService(strapi, 'sections');

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
      // The article's lookup and its candidates in one query; only when none is found is the article looked up, for the 404.
      const rows = await search.inOwnedArticle(userId, uuid, q);
      if (!rows.length) {
        if (!(await articles.outlineRevOf(userId, uuid))) throw articleNotFound(rawArticleId);
        return { matches: [] };
      }
      const outline: Outline = await outlines().outlineOfRow(Number(rows[0].article_id), Number(rows[0].outline_rev));
      return { matches: matchesIn(outline, rows, q, limit) };
    },

    /**
     * `GET /api/search`: the caller's articles with a matching section, most recently updated
     * first, a page of `limit` articles at a time (`cursor`: the nextCursor of the last page).
     */
    async everywhere(userId: number, q: string, options: { limit?: number; cursor?: string } = {}) {
      const limit = options.limit ?? DEFAULT_ARTICLES_PAGE;
      const found = await search.articlesPage(userId, q, limit, pageAfter(options.cursor));
      const shown = found.slice(0, limit);
      // Their outlines first (cached by revision): how many sections they hold decides how the candidates are read.
      const outlinesOf = new Map<number, Outline>();
      for (const article of shown) outlinesOf.set(Number(article.id), await outlines().outlineOfRow(Number(article.id), Number(article.outline_rev)));
      const sectionCount = [...outlinesOf.values()].reduce((n, o) => n + o.size, 0);
      const rows = await search.inArticles(shown.map((a) => Number(a.id)), q, sectionCount);
      const byArticle = new Map<number, CandidateRow[]>();
      for (const row of rows) {
        const id = Number(row.article_id);
        byArticle.set(id, [...(byArticle.get(id) ?? []), row]);
      }
      const results: Array<{ article: { id: string; title: string }; matches: SearchMatch[] }> = [];
      for (const article of shown) {
        const candidates = byArticle.get(Number(article.id));
        if (!candidates) continue;
        const matches = matchesIn(outlinesOf.get(Number(article.id))!, candidates, q, MATCHES_PER_ARTICLE);
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
