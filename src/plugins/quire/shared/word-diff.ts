/**
 * Word-level marks between two versions of a section's HTML (the panel's history compare; any
 * view that shows what changed in place): the words removed are wrapped in `<del>` in the old
 * version, the words added in `<ins>` in the new one. Only runs of text between tags are
 * wrapped, so each side stays the HTML it was (same elements, same nesting), plus the marks.
 * The inputs are sanitised HTML (what the server stores); nothing here adds markup but ins/del.
 *
 * Pure code. Time is bounded: past `maxEditLength` changed tokens (a rewrite, not an edit) the
 * versions come back unmarked, `marked: false`, and the view says so.
 */
import { diffArrays } from 'diff';

/** A tag (attributes may hold `>` inside quotes), a word (entities included), or a run of spaces. */
const TOKEN = /<(?:[^>"']|"[^"]*"|'[^']*')*>|(?:[^\s<&]|&#?\w+;|&)+|\s+/g;

export const WORD_DIFF_MAX_EDIT_LENGTH = 2_000;

export interface WordMarks {
  /** The old version with the removed words in `<del>`. */
  before: string;
  /** The new version with the added words in `<ins>`. */
  after: string;
  /** False when the versions differed too much to mark (they come back as they were). */
  marked: boolean;
  /** Whether any word differs. */
  changed: boolean;
}

export const tokenize = (html: string): string[] => html.match(TOKEN) ?? [];

const isTag = (token: string) => token.startsWith('<');
const isSpace = (token: string) => /^\s+$/.test(token);

/** Tokens of one side's changed part: text runs between tags wrapped in `tag`, tags kept as they are. */
function wrapRuns(tokens: string[], tag: 'ins' | 'del'): string {
  let out = '';
  let run: string[] = [];
  const flush = () => {
    if (!run.length) return;
    const text = run.join('');
    // Spaces alone are not a change a reader sees: left unmarked.
    if (run.every(isSpace)) out += text;
    else {
      const lead = isSpace(run[0]) ? run[0] : '';
      const trail = run.length > 1 && isSpace(run[run.length - 1]) ? run[run.length - 1] : '';
      out += `${lead}<${tag}>${text.slice(lead.length, text.length - trail.length)}</${tag}>${trail}`;
    }
    run = [];
  };
  for (const token of tokens) {
    if (isTag(token)) {
      flush();
      out += token;
    } else run.push(token);
  }
  flush();
  return out;
}

/** Marks the words that differ between two versions of HTML (see the module's comment). */
export function markWordChanges(beforeHtml: string, afterHtml: string, maxEditLength = WORD_DIFF_MAX_EDIT_LENGTH): WordMarks {
  if (beforeHtml === afterHtml) return { before: beforeHtml, after: afterHtml, marked: true, changed: false };
  const parts = diffArrays(tokenize(beforeHtml), tokenize(afterHtml), { maxEditLength });
  if (!parts) return { before: beforeHtml, after: afterHtml, marked: false, changed: true };
  let before = '';
  let after = '';
  let changed = false;
  for (const part of parts) {
    if (part.added) {
      after += wrapRuns(part.value, 'ins');
      changed ||= part.value.some((t) => !isTag(t) && !isSpace(t));
    } else if (part.removed) {
      before += wrapRuns(part.value, 'del');
      changed ||= part.value.some((t) => !isTag(t) && !isSpace(t));
    } else {
      const same = part.value.join('');
      before += same;
      after += same;
    }
  }
  return { before, after, marked: true, changed };
}

export interface InlineMarks {
  /** The new version, the words it adds in `<ins>` and the words it removes in `<del>` where they were. */
  html: string;
  /** False when the versions differed too much to mark (`html` is then the new version as it is). */
  marked: boolean;
  /** Whether any word differs. */
  changed: boolean;
}

/** Elements that have no closing tag. */
const VOID = /^<(area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr)\b/i;

/** Whether the tags among `tokens` close every element they open (so they can be kept as they are). */
function balanced(tokens: string[]): boolean {
  const open: string[] = [];
  for (const token of tokens) {
    if (!isTag(token) || token.startsWith('<!') || VOID.test(token) || token.endsWith('/>')) continue;
    const name = /^<\/?\s*([\w-]+)/.exec(token)?.[1]?.toLowerCase();
    if (!name) continue;
    if (token.startsWith('</')) {
      if (open.pop() !== name) return false;
    } else open.push(name);
  }
  return open.length === 0;
}

/**
 * One version with both kinds of marks, for a change shown in place (a suggestion over the
 * section it changes): the new version's HTML, its added words in `<ins>`, and the removed words
 * in `<del>` where they stood. Removed whole elements (a paragraph) stay elements; removed text
 * that ran across tags keeps only its words, so the result is always the new version's markup
 * plus self-contained insertions.
 */
export function inlineWordChanges(beforeHtml: string, afterHtml: string, maxEditLength = WORD_DIFF_MAX_EDIT_LENGTH): InlineMarks {
  if (beforeHtml === afterHtml) return { html: afterHtml, marked: true, changed: false };
  const parts = diffArrays(tokenize(beforeHtml), tokenize(afterHtml), { maxEditLength });
  if (!parts) return { html: afterHtml, marked: false, changed: true };
  // Changes only spaces apart are one change (all the old words, then all the new ones), not
  // old and new words interleaved: "<del>computes Bernoulli</del><ins>tabulates polynomial</ins>".
  type Block = { same: string[] } | { removed: string[]; added: string[] };
  const blocks: Block[] = [];
  for (const [i, part] of parts.entries()) {
    const last = blocks[blocks.length - 1];
    if (!part.added && !part.removed) {
      const next = parts[i + 1];
      if (last && 'removed' in last && part.value.every(isSpace) && next && (next.added || next.removed)) {
        last.removed.push(...part.value);
        last.added.push(...part.value);
      } else blocks.push({ same: part.value });
      continue;
    }
    const change = last && 'removed' in last ? last : { removed: [] as string[], added: [] as string[] };
    if (change !== last) blocks.push(change);
    (part.added ? change.added : change.removed).push(...part.value);
  }
  let html = '';
  let changed = false;
  const hasWords = (tokens: string[]) => tokens.some((t) => !isTag(t) && !isSpace(t));
  for (const block of blocks) {
    if ('same' in block) {
      html += block.same.join('');
      continue;
    }
    changed ||= hasWords(block.removed) || hasWords(block.added);
    // Removed markup alone (a tag, spaces) is not shown: the new version's own markup says it.
    if (hasWords(block.removed)) html += wrapRuns(balanced(block.removed) ? block.removed : block.removed.filter((t) => !isTag(t)), 'del');
    html += wrapRuns(block.added, 'ins');
  }
  return { html, marked: true, changed };
}
