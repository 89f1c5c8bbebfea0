/**
 * Conditional requests (RFC 9110 §13): `If-Match` on writes, `If-None-Match` on reads. The
 * entity tags themselves are the resource's business (opaque strings in double quotes); this
 * file parses the headers and compares, so every route answers the same way: a malformed
 * header is 400, a stale tag 412 (the caller's), a fresh one on a GET 304.
 */
import { ApiError, invalidArgument } from './errors';

/** What an `If-Match` header asks: any existing item (`*`), or one of these entity tags. */
export type Precondition = { any: true } | { tags: string[] };

/** `"opaque"` or `W/"opaque"`: the characters RFC 9110 allows in an entity tag, no comma. */
const ENTITY_TAG = /\s*((?:W\/)?"[\x21\x23-\x2b\x2d-\x7e\x80-\xff]*")\s*(?:,|$)/y;

const MALFORMED_NEXT = 'Send back the ETag header exactly as you received it, double quotes included (or * for any version).';

/** The entity tags of a header value, or null when it is not a list of them. */
function parseTags(value: string): string[] | null {
  const tags: string[] = [];
  ENTITY_TAG.lastIndex = 0;
  while (ENTITY_TAG.lastIndex < value.length) {
    const at = ENTITY_TAG.lastIndex;
    const match = ENTITY_TAG.exec(value);
    if (!match || ENTITY_TAG.lastIndex === at) return null;
    tags.push(match[1]);
  }
  return tags.length ? tags : null;
}

/** The precondition of an `If-Match` header (undefined without one); 400 when it is malformed. */
export function parseIfMatch(header: string | undefined, name = 'If-Match'): Precondition | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return { any: true };
  const tags = value.length <= 4096 ? parseTags(value) : null;
  if (!tags) throw invalidArgument(`${name} is not an entity tag (got ${JSON.stringify(value.slice(0, 80))}).`, MALFORMED_NEXT);
  return { tags };
}

/** True when the precondition holds for an existing item whose current tag is `current` (strong comparison: weak tags never match). */
export function preconditionHolds(precondition: Precondition | undefined, current: string): boolean {
  if (!precondition) return true;
  if ('any' in precondition) return true;
  return precondition.tags.some((tag) => tag === current);
}

/** True when an `If-None-Match` header names the current tag (weak comparison) or is `*`: answer 304. */
export function notModified(header: string | undefined, current: string): boolean {
  if (header === undefined) return false;
  const value = header.trim();
  if (value === '*') return true;
  const tags = parseTags(value);
  if (!tags) return false; // a malformed If-None-Match is ignored, as RFC 9110 lets a server do
  const strip = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return tags.some((tag) => strip(tag) === strip(current));
}

/**
 * 412 `precondition-failed`: nothing changed; the nextAction names the GET that returns the
 * current version, and `ETag` carries that version's tag so a client can tell whether it must
 * re-read (CONTRACT section 20). Without a current version (it was made in the failed request) no ETag.
 */
export const preconditionFailed = (message: string, nextAction: string, currentTag?: string) =>
  new ApiError('precondition-failed', message, nextAction, currentTag ? { headers: { ETag: currentTag } } : {});
