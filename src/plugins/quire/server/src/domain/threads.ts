/**
 * Threads (CONTRACT 24), the pure part: finding a quote in a section's text as a reader sees it,
 * carrying a thread's anchor through a change of that text, and reading mentions and skill
 * replies. No database, no strapi.
 *
 * An anchor is offsets into the section's reader text (`start` inclusive, `end` exclusive), the
 * quoted text and a little context on each side. A write of the section maps it from the old
 * text to the new one with a character diff, the way ProseMirror maps positions through a step:
 * the start sticks to the text after it and the end to the text before it, so typing just
 * outside the quote leaves it alone and typing inside it grows it. When every quoted character
 * is gone the range is empty and the thread is detached. When the mapped range does not read as
 * the quote but the quote stands whole close by (a diff may align a rewritten passage oddly),
 * the nearest occurrence wins.
 */
import { diffChars } from 'diff';

export interface Anchor {
  start: number;
  end: number;
  quote: string;
  prefix: string;
  suffix: string;
}

export interface MappedAnchor extends Anchor {
  detached: boolean;
}

/** Characters of context kept on each side of a quote. */
export const CONTEXT_CHARS = 32;
/** Past this many changed characters the diff gives up and only the quote is looked for. */
const MAX_DIFF_EDIT = 2_000;

/** Where the `occurrence`-th (1-based) `quote` starts in `text`, or -1. Occurrences may not overlap. */
export function locateQuote(text: string, quote: string, occurrence = 1): number {
  if (!quote) return -1;
  let at = -1;
  for (let n = 0, from = 0; n < occurrence; n += 1) {
    at = text.indexOf(quote, from);
    if (at < 0) return -1;
    from = at + quote.length;
  }
  return at;
}

/** The anchor of `text.slice(start, end)`, with its context. */
export function anchorAt(text: string, start: number, end: number): Anchor {
  return {
    start,
    end,
    quote: text.slice(start, end),
    prefix: text.slice(Math.max(0, start - CONTEXT_CHARS), start),
    suffix: text.slice(end, end + CONTEXT_CHARS),
  };
}

/** One replaced range: old [from, to) became `size` new characters. */
interface Change {
  from: number;
  to: number;
  size: number;
}

/** The changes from `a` to `b`, in order; null when they are too many to diff cheaply. */
export function changesBetween(a: string, b: string): Change[] | null {
  if (a === b) return [];
  let head = 0;
  const most = Math.min(a.length, b.length);
  while (head < most && a.charCodeAt(head) === b.charCodeAt(head)) head += 1;
  let tail = 0;
  while (tail < most - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail += 1;
  const oldMiddle = a.slice(head, a.length - tail);
  const newMiddle = b.slice(head, b.length - tail);
  if (!oldMiddle || !newMiddle) return [{ from: head, to: head + oldMiddle.length, size: newMiddle.length }];
  const parts = diffChars(oldMiddle, newMiddle, { maxEditLength: MAX_DIFF_EDIT });
  if (!parts) return null;
  const changes: Change[] = [];
  let at = head;
  let open: Change | null = null;
  for (const part of parts) {
    const n = part.value.length;
    if (!part.added && !part.removed) {
      if (open) changes.push(open);
      open = null;
      at += n;
      continue;
    }
    open ??= { from: at, to: at, size: 0 };
    if (part.removed) {
      open.to += n;
      at += n;
    } else {
      open.size += n;
    }
  }
  if (open) changes.push(open);
  return changes;
}

/**
 * Where old position `pos` is in the new text. `assoc` -1 keeps it before text inserted there,
 * +1 after; a position inside a replaced range goes to its start (-1) or end (+1).
 */
export function mapPosition(changes: Change[], pos: number, assoc: -1 | 1): number {
  let delta = 0;
  for (const c of changes) {
    if (c.from > pos) break;
    if (c.to < pos) {
      delta += c.size - (c.to - c.from);
      continue;
    }
    const side = c.from === c.to ? assoc : pos === c.from ? -1 : pos === c.to ? 1 : assoc;
    return c.from + delta + (side < 0 ? 0 : c.size);
  }
  return pos + delta;
}

/** The start of the occurrence of `quote` in `text` nearest to `near` within `window` characters, or -1. */
function nearestOccurrence(text: string, quote: string, near: number, window: number): number {
  let best = -1;
  for (let at = text.indexOf(quote, Math.max(0, near - window - quote.length)); at >= 0 && at <= near + window; at = text.indexOf(quote, at + 1)) {
    if (best < 0 || Math.abs(at - near) < Math.abs(best - near)) best = at;
  }
  return best;
}

/** Where `quote` stands in `text` at `at` or within a few dozen characters of it (the nearest), or -1. */
export const nearestQuote = (text: string, quote: string, at: number) => (quote ? nearestOccurrence(text, quote, at, Math.max(64, quote.length)) : -1);

/** The anchor as it stands in `newText` after `oldText` became it (see the file's comment). */
export function mapAnchor(oldText: string, newText: string, anchor: Anchor): MappedAnchor {
  if (oldText === newText) return { ...anchor, detached: false };
  const changes = changesBetween(oldText, newText);
  let start: number;
  let end: number;
  if (changes) {
    start = mapPosition(changes, anchor.start, 1);
    end = mapPosition(changes, anchor.end, -1);
  } else {
    // Too much changed to diff: the quote itself, nearest its old place.
    const at = nearestOccurrence(newText, anchor.quote, anchor.start, newText.length);
    if (at < 0) return { ...anchor, start: Math.min(anchor.start, newText.length), end: Math.min(anchor.start, newText.length), detached: true };
    start = at;
    end = at + anchor.quote.length;
  }
  if (end <= start) return { ...anchor, start, end: start, detached: true };
  if (newText.slice(start, end) !== anchor.quote) {
    const at = nearestOccurrence(newText, anchor.quote, start, Math.max(64, anchor.quote.length));
    if (at >= 0) {
      start = at;
      end = at + anchor.quote.length;
    }
  }
  return { ...anchorAt(newText, start, end), detached: false };
}

/**
 * Where a position of texts joined with `separator` falls: the index of the text and the
 * offset in it (a position in a separator goes to the start of the next text).
 */
export function splitPosition(lengths: number[], separator: number, pos: number): { index: number; offset: number } {
  let base = 0;
  for (const [index, length] of lengths.entries()) {
    if (pos <= base + length || index === lengths.length - 1) return { index, offset: Math.max(0, Math.min(pos - base, length)) };
    base += length + separator;
    if (pos < base) return { index: index + 1, offset: 0 };
  }
  return { index: 0, offset: 0 };
}

/** Skill names a comment mentions (`@name`, not inside a word or an e-mail address), each once, in order. */
export function mentionsOf(body: string, max = 5): string[] {
  const names: string[] = [];
  for (const match of body.matchAll(/(^|[^A-Za-z0-9_.@/\\`])@([a-z0-9_]{1,64})(?![A-Za-z0-9_@-])/g)) {
    const name = match[2];
    if (!names.includes(name)) names.push(name);
    if (names.length >= max) break;
  }
  return names;
}

/**
 * What a finished skill says back (CONTRACT 24): the output's `reply`, else the `reply` of an
 * `http` action's JSON answer (`body`), else the output itself when it is a string; null when
 * none of these is a non-empty string.
 */
export function replyOf(output: unknown): string | null {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);
  if (typeof output === 'string') return text(output);
  if (!output || typeof output !== 'object') return null;
  const record = output as Record<string, unknown>;
  if (text(record.reply)) return record.reply as string;
  let body = record.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      body = null;
    }
  }
  if (body && typeof body === 'object' && text((body as Record<string, unknown>).reply)) return (body as Record<string, unknown>).reply as string;
  return null;
}
