/**
 * Anchors: a section or note is addressed by any prefix of its id (a lowercase UUID v4) that
 * is unique among its siblings. Pure code; the services do the indexed lookups.
 */
import { randomUUID } from 'node:crypto';
import { invalidArgument, notFound } from '#kernel/errors';

/** Anchors handed out are never shorter than this, so they stay valid as an article grows. */
export const MIN_ANCHOR_LENGTH = 6;

const UUID_LENGTH = 36;
const DASHES = new Set([8, 13, 18, 23]);
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A new public id: a random UUID v4 (never time-ordered: anchors are prefixes). */
export const newId = (): string => randomUUID();

/** The id in its stored form, or null when it is not a UUID v4 (matching is case-insensitive). */
export function normalizeId(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const id = raw.toLowerCase();
  return UUID_PATTERN.test(id) ? id : null;
}

/**
 * The anchor in its stored form (lowercase), or null when it cannot be the prefix of any id:
 * hex digits with dashes exactly where a UUID has them, 1 to 36 characters.
 */
export function normalizeAnchor(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > UUID_LENGTH) return null;
  const anchor = raw.toLowerCase();
  for (let i = 0; i < anchor.length; i += 1) {
    const c = anchor.charCodeAt(i);
    const ok = DASHES.has(i) ? c === 45 : (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
    if (!ok) return null;
  }
  return anchor;
}

/**
 * Upper bound of the ids that start with `prefix`: every such id is >= prefix and < this.
 * Ids use only [0-9a-f-], all below 'g', so a range query finds them through an ordinary
 * index, where LIKE would need a special operator class (PostgreSQL) or case rules (SQLite).
 */
export const prefixUpperBound = (prefix: string) => prefix + 'g';

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

/**
 * The shortest prefix of `id` that no sibling shares, never shorter than MIN_ANCHOR_LENGTH.
 * Only the neighbours in sorted order matter: no other sibling shares a longer prefix.
 */
export function anchorOf(id: string, previous?: string | null, next?: string | null): string {
  let length = MIN_ANCHOR_LENGTH;
  if (previous) length = Math.max(length, commonPrefixLength(id, previous) + 1);
  if (next) length = Math.max(length, commonPrefixLength(id, next) + 1);
  return id.slice(0, length);
}

/** Ids sorted the way anchors are computed and looked up (plain code-unit order). */
export function sortIds(ids: string[]): string[] {
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Anchors of all siblings at once, from their ids. */
export function anchorsOf(ids: string[]): Map<string, string> {
  return anchorsOfSorted(sortIds(ids));
}

/** Anchors of all siblings at once, from their ids already sorted with sortIds. */
export function anchorsOfSorted(sorted: string[]): Map<string, string> {
  const anchors = new Map<string, string>();
  sorted.forEach((id, i) => anchors.set(id, anchorOf(id, sorted[i - 1], sorted[i + 1])));
  return anchors;
}

/** Index of the first id >= prefix in a sorted list (binary search). */
function lowerBound(sorted: string[], prefix: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export type Match = { kind: 'one'; id: string } | { kind: 'none' } | { kind: 'many' };

/** Resolves a normalised anchor among sorted ids: one, none, or more than one. */
export function matchInSorted(sorted: string[], anchor: string): Match {
  const i = lowerBound(sorted, anchor);
  if (i >= sorted.length || !sorted[i].startsWith(anchor)) return { kind: 'none' };
  if (i + 1 < sorted.length && sorted[i + 1].startsWith(anchor)) return { kind: 'many' };
  return { kind: 'one', id: sorted[i] };
}

/** What an anchor addresses, for messages: the kind of item and where to list current anchors. */
export interface AnchorScope {
  /** "section" or "note". */
  item: string;
  /** The route that lists the current anchors, e.g. "GET /api/articles/{id}/outline". */
  listRoute: string;
}

/** User input echoed in a message, cut short. */
const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}...` : text);

export const ambiguousAnchor = (anchor: string, scope: AnchorScope) =>
  invalidArgument(`The anchor "${shown(anchor)}" matches more than one ${scope.item} of this article.`, 'Use a longer anchor.');

export const unknownAnchor = (anchor: string, scope: AnchorScope) =>
  notFound(
    `No ${scope.item} of this article matches the anchor "${shown(anchor)}".`,
    `Call ${scope.listRoute} for the current anchors.`,
  );

/**
 * The one id an anchor addresses among sorted ids, or the error the API gives: 404 when
 * nothing matches (a malformed anchor matches nothing), 400 when several do.
 */
export function resolveAnchor(sorted: string[], raw: string, scope: AnchorScope): string {
  const anchor = normalizeAnchor(raw);
  const match = anchor === null ? ({ kind: 'none' } as Match) : matchInSorted(sorted, anchor);
  if (match.kind === 'one') return match.id;
  throw match.kind === 'many' ? ambiguousAnchor(raw, scope) : unknownAnchor(raw, scope);
}
