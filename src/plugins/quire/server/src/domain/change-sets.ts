/**
 * Change sets (CONTRACT 23), the pure part: the word-level diff of a section's text, the words
 * a change inserted and deleted, the revert of a change in the text as it is now (a word-level
 * three-way merge of the text before the change, after it, and now), and who wrote which
 * passage (the section's change sets replayed in order).
 *
 * A section's text here is what the rest of the service diffs and searches: its Markdown source
 * (heading line included), or its HTML when the canvas made HTML canonical. Tokens are words
 * (runs of anything but whitespace), runs of whitespace, HTML tags, and single CJK characters
 * (they have no spaces between words); joined they give back the text exactly.
 *
 * Time is bounded: past `maxEditLength` changed tokens the diff is coarse (the shared head and
 * tail kept, one deletion and one insertion between), so a rewrite never costs quadratic time.
 */
import { diffArrays } from 'diff';
import { countWords } from './markdown';

export type DiffOpKind = '=' | '+' | '-';
export interface DiffOp {
  op: DiffOpKind;
  text: string;
}

/**
 * 1,000: a change set is recorded inside the write's transaction, on the event loop; a diff of
 * 20,000 tokens bounded at 4,000 changes took 1.5 s there (tests/api/edits-event-loop), at
 * 1,000 about 0.1 s.
 */
export const WORD_DIFF_MAX_EDIT_LENGTH = 1_000;

const CJK = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}';
/** A tag, a CJK character, a word (letters, digits, marks, inner apostrophes and hyphens), a run of whitespace, or any other one character (punctuation). */
const TOKEN = new RegExp(`<[^<>\\n]*>|[${CJK}]|[\\p{L}\\p{N}\\p{M}_]+(?:['’-][\\p{L}\\p{N}\\p{M}_]+)*|\\s+|[^]`, 'gu');

/** The tokens of a text; joined, they are the text. */
export const tokensOf = (text: string): string[] => text.match(TOKEN) ?? [];

interface TokenOp {
  op: DiffOpKind;
  tokens: string[];
}

/** The token-level diff of two token lists: shared head and tail, Myers' diff between (bounded), adjacent ops of a kind merged. */
function diffTokens(a: string[], b: string[], maxEditLength = WORD_DIFF_MAX_EDIT_LENGTH): TokenOp[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: TokenOp[] = [];
  const push = (op: DiffOpKind, tokens: string[]) => {
    if (!tokens.length) return;
    const last = out[out.length - 1];
    if (last && last.op === op) last.tokens.push(...tokens);
    else out.push({ op, tokens: [...tokens] });
  };
  push('=', a.slice(0, head));
  if (midA.length || midB.length) {
    const parts = midA.length && midB.length ? diffArrays(midA, midB, { maxEditLength }) : undefined;
    if (!parts) {
      push('-', midA);
      push('+', midB);
    } else {
      for (const part of parts) push(part.added ? '+' : part.removed ? '-' : '=', part.value);
    }
  }
  push('=', a.slice(a.length - tail));
  return out;
}

/** The word-level diff of one section's text (CONTRACT 23): `=` and `-` joined give `before`, `=` and `+` give `after`. */
export function wordDiff(before: string, after: string, maxEditLength = WORD_DIFF_MAX_EDIT_LENGTH): DiffOp[] {
  if (before === after) return before ? [{ op: '=', text: before }] : [];
  return diffTokens(tokensOf(before), tokensOf(after), maxEditLength).map((part) => ({ op: part.op, text: part.tokens.join('') }));
}

/** The words a diff inserted and deleted. */
export function wordCounts(diff: DiffOp[]): { inserted: number; deleted: number } {
  const words = (op: DiffOpKind) =>
    diff
      .filter((part) => part.op === op)
      .reduce((n, part) => n + countWords(part.text), 0);
  return { inserted: words('+'), deleted: words('-') };
}

/** A passage that a revert leaves as it is, and why. */
export interface RevertConflict {
  text: string;
  reason: string;
}

export interface RevertPlan {
  /** The text with the revertable passages reverted. */
  text: string;
  /** Passages reverted. */
  reverted: number;
  /** Passages left as they are. */
  conflicts: RevertConflict[];
}

const shorten = (text: string, max = 200) => {
  const clean = text.trim();
  return clean.length > max ? `${clean.slice(0, max - 3)}...` : clean;
};

/**
 * Undoes the change `before` -> `after` in `current` (the text as it is now): every passage the
 * change wrote that is still there, unchanged and in one piece, is replaced by what it replaced;
 * every passage it deleted is put back between the words it stood between, when one of them is
 * still there. What others wrote since, anywhere else, stays. A passage that was changed since
 * (a word of it rewritten or deleted, or something typed inside it) is not touched: it is a
 * conflict, with the text the change wrote there.
 */
export function planRevert(before: string, after: string, current: string, maxEditLength = WORD_DIFF_MAX_EDIT_LENGTH): RevertPlan {
  const a = tokensOf(after);
  const x = tokensOf(current);
  // The change's hunks, as regions of `after` ([start, end) token indexes) and the tokens they replaced.
  const hunks: Array<{ start: number; end: number; replaced: string[] }> = [];
  let pos = 0;
  let open: { start: number; end: number; replaced: string[] } | null = null;
  for (const part of diffTokens(tokensOf(before), a, maxEditLength)) {
    if (part.op === '=') {
      if (open) hunks.push(open);
      open = null;
      pos += part.tokens.length;
      continue;
    }
    open ??= { start: pos, end: pos, replaced: [] };
    if (part.op === '+') {
      pos += part.tokens.length;
      open.end = pos;
    } else open.replaced.push(...part.tokens);
  }
  if (open) hunks.push(open);
  if (!hunks.length) return { text: current, reverted: 0, conflicts: [] };

  // Where each token of `after` is in `current` (-1: changed or deleted since).
  const at = new Array<number>(a.length).fill(-1);
  let ai = 0;
  let xi = 0;
  for (const part of diffTokens(a, x, maxEditLength)) {
    if (part.op === '=') {
      for (let k = 0; k < part.tokens.length; k += 1) at[ai + k] = xi + k;
      ai += part.tokens.length;
      xi += part.tokens.length;
    } else if (part.op === '-') ai += part.tokens.length;
    else xi += part.tokens.length;
  }

  const edits: Array<{ from: number; to: number; tokens: string[] }> = [];
  const conflicts: RevertConflict[] = [];
  for (const hunk of hunks) {
    const written = a.slice(hunk.start, hunk.end).join('');
    if (hunk.end > hunk.start) {
      let intact = true;
      for (let i = hunk.start; i < hunk.end && intact; i += 1) {
        if (at[i] === -1 || (i > hunk.start && at[i] !== at[i - 1] + 1)) intact = false;
      }
      if (!intact) {
        conflicts.push({ text: shorten(written), reason: 'This passage was changed since: it is left as it is now.' });
        continue;
      }
      edits.push({ from: at[hunk.start], to: at[hunk.end - 1] + 1, tokens: hunk.replaced });
      continue;
    }
    // A deletion: put back after the word it followed, or before the word it preceded.
    const afterWord = hunk.start > 0 ? at[hunk.start - 1] : -1;
    const beforeWord = hunk.start < a.length ? at[hunk.start] : -1;
    const place = afterWord !== -1 ? afterWord + 1 : beforeWord !== -1 ? beforeWord : hunk.start === 0 && a.length === 0 ? 0 : -1;
    if (place === -1) {
      conflicts.push({ text: shorten(hunk.replaced.join('')), reason: 'The text around this deleted passage was changed since: it cannot be put back in place.' });
      continue;
    }
    edits.push({ from: place, to: place, tokens: hunk.replaced });
  }
  const out = [...x];
  for (const edit of edits.sort((p, q) => q.from - p.from || q.to - p.to)) out.splice(edit.from, edit.to - edit.from, ...edit.tokens);
  return { text: out.join(''), reverted: edits.length, conflicts };
}

// ---- Who wrote what ----

export interface Author {
  kind: 'agent' | 'human' | 'editor';
  name: string;
}

export interface Span {
  text: string;
  by: Author | null;
  change: string | null;
}

/** Applies a diff of the spans' text to them: kept text keeps its author, inserted text is `by`'s. */
export function applyToSpans(spans: Span[], diff: DiffOp[], by: Author | null, change: string | null): Span[] {
  const out: Span[] = [];
  const queue = spans.map((s) => ({ ...s }));
  let q = 0;
  const emit = (span: Span) => {
    if (!span.text) return;
    const last = out[out.length - 1];
    if (last && last.change === span.change && last.by?.name === span.by?.name && last.by?.kind === span.by?.kind) last.text += span.text;
    else out.push({ ...span });
  };
  const take = (n: number, keep: boolean) => {
    while (n > 0 && q < queue.length) {
      const head = queue[q];
      const part = head.text.slice(0, n);
      if (keep) emit({ ...head, text: part });
      head.text = head.text.slice(part.length);
      n -= part.length;
      if (!head.text) q += 1;
    }
  };
  for (const part of diff) {
    if (part.op === '+') emit({ text: part.text, by, change });
    else take(part.text.length, part.op === '=');
  }
  return out;
}

/** One change set's change to a section, for the replay. */
export interface SectionChange {
  before: string;
  after: string;
  by: Author;
  change: string;
}

/**
 * The spans of a section's text: its change sets replayed in order, each inserting its words
 * with its author. Text no change set accounts for (written before change sets were kept, or
 * with the article) has `by` and `change` null. Joined, the spans are `current`.
 */
export function replaySpans(changes: SectionChange[], current: string): Span[] {
  let spans: Span[] = [];
  const textOf = () => spans.map((s) => s.text).join('');
  for (const change of changes) {
    if (textOf() !== change.before) spans = applyToSpans(spans, wordDiff(textOf(), change.before), null, null);
    spans = applyToSpans(spans, wordDiff(change.before, change.after), change.by, change.change);
  }
  if (textOf() !== current) spans = applyToSpans(spans, wordDiff(textOf(), current), null, null);
  return spans;
}
