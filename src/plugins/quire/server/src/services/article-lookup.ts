/**
 * The article and anchor lookups of repositories/store, answered in the API's words: the
 * repositories say null (or what was missing), the services that call them raise the ApiError
 * that names what to do next (a route to call, a longer anchor).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { invalidArgument, notFound } from '#kernel/errors';
import { ambiguousAnchor, normalizeAnchor, normalizeId, unknownAnchor } from '../domain/anchors';
import { decodeCursor, type PagePosition } from '../repositories/articles';
import { articleIdsWithPrefix, findArticleRowId, lockOwnedArticle, MIN_ARTICLE_PREFIX, type AnchorLookup, type AnchorTarget } from '../repositories/store';

export const articleNotFound = (raw: string) =>
  notFound(`No article with id "${raw.length > 40 ? `${raw.slice(0, 40)}...` : raw}".`, 'Call GET /api/articles for your articles.');

/** The stored id of an article path parameter, or 404 (a malformed id is as missing as an unknown one). */
export function articleUuid(raw: string): string {
  const id = normalizeId(raw);
  if (!id) throw articleNotFound(raw);
  return id;
}

/** Takes the article's write lock (repositories/store `lockOwnedArticle`); 404 when the caller does not own it. */
export async function lockArticle(strapi: Core.Strapi, trx: Knex, userId: number, rawId: string, options: { outline: boolean }): Promise<{ id: number; outlineRev: number }> {
  const locked = await lockOwnedArticle(strapi, trx, userId, articleUuid(rawId), options);
  if (!locked) throw articleNotFound(rawId);
  return locked;
}

/** Row id of an owned article (no lock), or 404. */
export async function articleRowId(strapi: Core.Strapi, userId: number, rawId: string): Promise<number> {
  const id = await findArticleRowId(strapi, userId, articleUuid(rawId));
  if (id === null) throw articleNotFound(rawId);
  return id;
}

/**
 * The full id of the caller's article that `raw` addresses: the id itself, or a prefix of it
 * (at least MIN_ARTICLE_PREFIX characters, case-insensitive) that no other article of the
 * caller's shares. A full id costs nothing; a prefix, one indexed range query. No match: 404;
 * several: 400 "Use a longer anchor.". What is not an id prefix at all is passed through, for
 * the owner-scoped lookup to answer 404 as before.
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
  const ids = await articleIdsWithPrefix(strapi, userId, prefix);
  if (ids.length === 0) throw articleNotFound(raw);
  if (ids.length > 1) throw invalidArgument(`The id "${raw}" matches more than one of your articles.`, 'Use a longer anchor.');
  return ids[0];
}

/**
 * The row `find` (a repository's `byAnchor`) finds for `target`, and its anchor; or the error that
 * says what was missing: 404 for the article or the anchor (naming the listing route), 400 "Use a
 * longer anchor." when several match.
 */
export async function foundByAnchor<Row>(find: (target: AnchorTarget) => Promise<AnchorLookup<Row>>, target: AnchorTarget): Promise<{ row: Row; anchor: string }> {
  const lookup = await find(target);
  if ('row' in lookup) return lookup;
  if (lookup.missing === 'several') throw ambiguousAnchor(target.rawAnchor, target.scope);
  throw lookup.missing === 'article' ? articleNotFound(target.rawArticleId) : unknownAnchor(target.rawAnchor, target.scope);
}

/** Where a page of articles starts: after the position a `cursor` (a nextCursor) names; 400 when it names none. */
export function pageAfter(cursor: string | undefined): PagePosition | undefined {
  if (!cursor) return undefined;
  const position = decodeCursor(cursor);
  if (!position) throw invalidArgument('cursor is not valid.', 'Pass the nextCursor of the previous page unchanged, or leave cursor out for the first page.');
  return position;
}
