/**
 * Search within sections (CONTRACT section 13): a literal, case-insensitive match of the query
 * in a section's text (its Markdown source, heading line included, or the text content of
 * canvas HTML), counted, with up to three snippets around the matches. Pure: the database
 * finds candidate sections with its index (services/search.ts); this decides what matches.
 */

export const MAX_QUERY_LENGTH = 200;
export const MAX_SNIPPETS = 3;
export const SNIPPET_LENGTH = 160;

/** The shortest query the trigram indexes can look up (a trigram is three characters). */
export const MIN_INDEXED_QUERY = 3;

/** Every occurrence, literally and case-insensitively: the query is escaped, never a pattern. */
export function literalPattern(query: string): RegExp {
  return new RegExp(query.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'giu');
}

/** The offsets of the non-overlapping occurrences of the query in `text`. */
export function occurrences(text: string, pattern: RegExp): number[] {
  pattern.lastIndex = 0;
  const found: number[] = [];
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    found.push(m.index);
    // An empty match cannot happen (queries are not empty), but never loop on one.
    if (m[0].length === 0) pattern.lastIndex += 1;
  }
  return found;
}

/** Whitespace runs (line breaks included) as single spaces: a snippet is one line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/**
 * Up to three extracts of about SNIPPET_LENGTH characters, each centred on a match (a match
 * already inside the previous extract does not start another). An extract that does not reach
 * an end of the text says so with "…".
 */
export function snippets(text: string, offsets: readonly number[], matchLength: number): string[] {
  const out: string[] = [];
  let coveredUntil = -1;
  for (const offset of offsets) {
    if (out.length === MAX_SNIPPETS) break;
    if (offset + matchLength <= coveredUntil) continue;
    const room = Math.max(0, SNIPPET_LENGTH - matchLength);
    let start = Math.max(0, offset - Math.floor(room / 2));
    const end = Math.min(text.length, start + Math.max(SNIPPET_LENGTH, matchLength));
    start = Math.max(0, Math.min(start, end - SNIPPET_LENGTH));
    // Never cut a surrogate pair in two.
    const from = start > 0 && isLowSurrogate(text.charCodeAt(start)) ? start - 1 : start;
    const to = end < text.length && isLowSurrogate(text.charCodeAt(end)) ? end + 1 : end;
    out.push(`${from > 0 ? '…' : ''}${oneLine(text.slice(from, to)).trim()}${to < text.length ? '…' : ''}`);
    coveredUntil = to;
  }
  return out;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

export interface TextMatch {
  count: number;
  snippets: string[];
}

/** How often the query occurs in a section's text, with snippets; null when it does not. */
export function matchText(text: string, query: string, pattern = literalPattern(query)): TextMatch | null {
  const found = occurrences(text, pattern);
  if (!found.length) return null;
  return { count: found.length, snippets: snippets(text, found, query.length) };
}

/**
 * The FTS5 (trigram) query that finds every section containing `query` (of 3 code points or
 * more): its trigrams that do not overlap, plus the last one, all required. A text that
 * contains the query contains each of them, so nothing is missed; far fewer lists are read than
 * for the whole phrase (every trigram, in a row), and what they let through that does not hold
 * the query is dropped by the exact match that follows.
 */
export function ftsQuery(query: string): string {
  const chars = [...query];
  const starts = new Set<number>();
  for (let i = 0; i + 3 <= chars.length; i += 3) starts.add(i);
  starts.add(chars.length - 3);
  return [...starts].map((i) => `"${chars.slice(i, i + 3).join('').replace(/"/g, '""')}"`).join(' ');
}

/** A LIKE pattern that contains the query literally (`%`, `_` and `\` escaped with `\`). */
export const likeContains = (query: string) => `%${query.replace(/[\\%_]/g, '\\$&')}%`;

/** The length in code points (what the trigram tokenizers count). */
export const codePoints = (text: string) => [...text].length;
