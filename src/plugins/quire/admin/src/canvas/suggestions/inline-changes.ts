/**
 * Pending change sets shown inline in a section's editor as tracked changes (CONTRACT 23):
 * ProseMirror decorations, `<del data-change="<anchor>">` over the words a suggestion deletes
 * and a widget `<ins data-change="<anchor>">` with the words it inserts, where they go.
 *
 * Decorations, not document changes: the live Y.Doc, the other editors and the stored text are
 * untouched (a suggestion is not the text until it is accepted), so nothing has to be taken out
 * again when it is rejected, and an editor typing meanwhile types into the real text.
 *
 * How a change finds its place: the suggestion's section text before and after (its stored
 * HTML now and what it makes of it) are read as text the way the editor's text is read
 * (threads/thread-marks textOf: textblocks joined by a blank line), and diffed word by word.
 * When the editor's text is that same text, the diff's offsets are the editor's; when it moved
 * on (someone typing, not yet stored), the offsets are mapped through a diff of the stored text
 * against the editor's, and a passage that was itself changed since no longer matches: the
 * whole suggestion is then not shown inline (its card says so). Pure code apart from `parse`.
 */
import { Extension } from '@tiptap/core';
import { DOMParser as PMDOMParser, type Node as PMNode, type Schema } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { diffArrays } from 'diff';
import { textOf } from '../threads/thread-marks';

/** One pending change set on this section, as the canvas has it. */
export interface InlineChange {
  /** The change set's anchor (data-change). */
  anchor: string;
  /** The section's stored HTML the suggestion was diffed against, and what it makes of it ('' when it deletes the section). */
  current: string;
  suggested: string;
  /** Shown as the marks' tooltip: who suggested it, and why. */
  title: string;
}

/** One place a change set changes the text: the words it deletes [from, to) and those it inserts at `to`. */
export interface Hunk {
  from: number;
  to: number;
  inserted: string;
}

/** Past this many changed tokens the diff gives up (a rewrite): the card shows it. */
const MAX_EDIT_LENGTH = 1_000;

/** Words, runs of spaces, and each punctuation mark apart ("numbers." -> "numbers", "."). */
const TOKEN = /\s+|[\p{L}\p{N}\p{M}_'’-]+|[^\s\p{L}\p{N}\p{M}_'’-]/gu;
export const tokens = (text: string): string[] => text.match(TOKEN) ?? [];
const blank = (text: string) => !/\S/.test(text);

/**
 * The word-level changes from `before` to `after`, as places in `before`: null when they
 * differ too much to mark. Changes only spaces apart are one (all the old words, then all the
 * new ones); changes of spaces alone are left out (not a change a reader sees).
 */
export function hunksOf(before: string, after: string): Hunk[] | null {
  if (before === after) return [];
  const parts = diffArrays(tokens(before), tokens(after), { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return null;
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const [i, part] of parts.entries()) {
    const text = part.value.join('');
    if (!part.added && !part.removed) {
      const next = parts[i + 1];
      // Spaces between two changes: part of one change (deleted and inserted again).
      if (open && blank(text) && next && (next.added || next.removed)) {
        open.to = at + text.length;
        open.inserted += text;
      } else open = null;
      at += text.length;
      continue;
    }
    if (!open) {
      open = { from: at, to: at, inserted: '' };
      hunks.push(open);
    }
    if (part.removed) {
      at += text.length;
      open.to = at;
    } else open.inserted += text;
  }
  // Trim each change's shared spaces at its edges; drop those left with no words.
  const out: Hunk[] = [];
  for (const hunk of hunks) {
    let { from, to, inserted } = hunk;
    while (from < to && /\s/.test(before[from]) && inserted.length && inserted[0] === before[from]) {
      from += 1;
      inserted = inserted.slice(1);
    }
    while (from < to && /\s/.test(before[to - 1]) && inserted.length && inserted[inserted.length - 1] === before[to - 1]) {
      to -= 1;
      inserted = inserted.slice(0, -1);
    }
    if (blank(before.slice(from, to)) && blank(inserted)) continue;
    out.push({ from, to, inserted });
  }
  return out;
}

/**
 * Each character of `from`, where it is in `to` (-1: changed since), by a word diff; null when
 * the texts differ too much to map.
 */
export function offsetMap(from: string, to: string): Int32Array | null {
  const map = new Int32Array(from.length + 1).fill(-1);
  if (from === to) {
    for (let i = 0; i <= from.length; i += 1) map[i] = i;
    return map;
  }
  const parts = diffArrays(tokens(from), tokens(to), { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return null;
  let a = 0;
  let b = 0;
  for (const part of parts) {
    const length = part.value.join('').length;
    if (part.added) b += length;
    else if (part.removed) a += length;
    else {
      for (let i = 0; i < length; i += 1) map[a + i] = b + i;
      a += length;
      b += length;
    }
  }
  // The end maps when the last character does (an insertion at the very end).
  map[from.length] = from.length && map[from.length - 1] >= 0 ? map[from.length - 1] + 1 : from.length === 0 && to.length === 0 ? 0 : -1;
  return map;
}

/**
 * The hunks moved onto the editor's text through `map` (offsetMap(stored, editor)), or null
 * when one of them no longer matches: a word it deletes, or the words on both sides of where
 * it inserts, were changed since.
 */
export function placeHunks(hunks: Hunk[], map: Int32Array): Hunk[] | null {
  const placed: Hunk[] = [];
  for (const { from, to, inserted } of hunks) {
    if (from < to) {
      const start = map[from];
      const end = map[to - 1];
      // Every deleted character still there, in one piece.
      if (start < 0 || end < 0 || end - start !== to - 1 - from) return null;
      for (let i = from; i < to; i += 1) if (map[i] !== start + (i - from)) return null;
      placed.push({ from: start, to: end + 1, inserted });
      continue;
    }
    // After the word before it, or else before the word after it.
    const before = from > 0 ? map[from - 1] : -1;
    const at = before >= 0 ? before + 1 : map[from];
    if (at < 0) return null;
    placed.push({ from: at, to: at, inserted });
  }
  return placed;
}

/** HTML read with the editor's schema, as the editor's own text (what a suggestion's texts are compared in). */
export function parseText(html: string, schema: Schema): string {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  return textOf(PMDOMParser.fromSchema(schema).parse(holder)).text;
}

/**
 * What one change set shows in an editor: its hunks on the editor's text; 'moved' when a
 * passage it changes was changed since; 'none' when it changes no words (formatting only, or
 * too much to mark): both are shown by the card alone.
 */
export function inlineHunks(change: InlineChange, editorText: string, schema: Schema, cache?: InlineCache): Hunk[] | 'moved' | 'none' {
  const read = (html: string): string => {
    const known = cache?.texts.get(html);
    if (known !== undefined) return known;
    const text = parseText(html, schema);
    cache?.texts.set(html, text);
    return text;
  };
  const stored = read(change.current);
  // The change's own diff does not depend on the editor's text: diffed once per pair.
  const pair = `${change.current}\u0000${change.suggested}`;
  let hunks = cache?.hunks.get(pair);
  if (hunks === undefined) {
    hunks = hunksOf(stored, change.suggested ? read(change.suggested) : '');
    cache?.hunks.set(pair, hunks);
  }
  if (!hunks || !hunks.length) return 'none';
  if (stored === editorText) return hunks;
  const map = offsetMap(stored, editorText);
  return (map && placeHunks(hunks, map)) || 'moved';
}

/** What an editor keeps between transactions: HTML read as text, and each change's own hunks. */
export interface InlineCache {
  texts: Map<string, string>;
  hunks: Map<string, Hunk[] | null>;
}
export const newInlineCache = (): InlineCache => ({ texts: new Map(), hunks: new Map() });

/** Which change sets show in the text, and which do not because their passage changed since. */
export interface Shown {
  shown: string[];
  moved: string[];
}

const insertedNode = (change: InlineChange, text: string) => () => {
  const ins = document.createElement('ins');
  ins.setAttribute('data-change', change.anchor);
  ins.className = 'quire-change';
  ins.title = change.title;
  // Spaces at its edges stay outside the mark (an underlined space reads as a typo).
  const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  // New paragraphs in an insertion: line breaks (a widget sits inside one textblock).
  core.split(/\n/).forEach((line, i) => {
    if (i) ins.appendChild(document.createElement('br'));
    if (line) ins.appendChild(document.createTextNode(line));
  });
  const holder = document.createElement('span');
  holder.contentEditable = 'false';
  holder.className = 'quire-change-widget';
  if (lead) holder.appendChild(document.createTextNode(lead.replace(/\n/g, ' ')));
  holder.appendChild(ins);
  if (trail) holder.appendChild(document.createTextNode(trail.replace(/\n/g, ' ')));
  return holder;
};

/** The decorations of the changes that match, and which matched (their anchors). */
export function changeDecorations(doc: PMNode, changes: InlineChange[], schema: Schema, cache?: InlineCache): Shown & { set: DecorationSet } {
  if (!changes.length) return { set: DecorationSet.empty, shown: [], moved: [] };
  const { text, positions } = textOf(doc);
  const found: Decoration[] = [];
  const shown: string[] = [];
  const moved: string[] = [];
  /** The document position where text offset `at` is (an insertion there). */
  const positionAt = (at: number): number => {
    if (at > 0 && positions[at - 1] >= 0) return positions[at - 1] + 1;
    if (at < positions.length && positions[at] >= 0) return positions[at];
    for (let i = at - 1; i >= 0; i -= 1) if (positions[i] >= 0) return positions[i] + 1;
    return positions.find((p) => p >= 0) ?? 1;
  };
  for (const change of changes) {
    const hunks = inlineHunks(change, text, schema, cache);
    if (hunks === 'moved') moved.push(change.anchor);
    if (typeof hunks === 'string') continue;
    shown.push(change.anchor);
    for (const [index, hunk] of hunks.entries()) {
      // The deleted words, one decoration per run of characters in one textblock.
      let runStart = -1;
      let runEnd = -1;
      const flush = () => {
        if (runStart >= 0) found.push(Decoration.inline(runStart, runEnd + 1, { nodeName: 'del', 'data-change': change.anchor, class: 'quire-change', title: change.title }));
        runStart = runEnd = -1;
      };
      for (let i = hunk.from; i < hunk.to; i += 1) {
        const pos = positions[i];
        if (pos < 0 || (runEnd >= 0 && pos !== runEnd + 1)) flush();
        if (pos < 0) continue;
        if (runStart < 0) runStart = pos;
        runEnd = pos;
      }
      flush();
      if (!blank(hunk.inserted)) {
        const inserted = hunk.inserted.replace(/^\n+|\n+$/g, '');
        const at = positionAt(hunk.to);
        found.push(Decoration.widget(at, insertedNode(change, inserted.replace(/\n{2,}/g, '\n')), { side: -1, key: `${change.anchor}:${index}:${inserted}`, ignoreSelection: true }));
      }
    }
  }
  return { set: DecorationSet.create(doc, found), shown, moved };
}

export const inlineChangesKey = new PluginKey<DecorationSet>('quireInlineChanges');

/**
 * The extension: reads the changes through `current` (the editor lives longer than one list)
 * and tells `onShown` which of them show inline whenever that changes.
 */
export const InlineChanges = (current: () => InlineChange[], onShown: (shown: Shown) => void) =>
  Extension.create({
    name: 'quireInlineChanges',
    addProseMirrorPlugins() {
      const schema = this.editor.schema;
      const cache = newInlineCache();
      let last = '';
      const compute = (doc: PMNode) => {
        const changes = current();
        // Kept small: the suggestions of one section, as they come and go.
        if (cache.texts.size > 50) cache.texts.clear();
        if (cache.hunks.size > 50) cache.hunks.clear();
        const { set, shown, moved } = changeDecorations(doc, changes, schema, cache);
        const key = `${shown.join(' ')}|${moved.join(' ')}`;
        if (key !== last) {
          last = key;
          // After this transaction (a React state change must not run inside ProseMirror's dispatch).
          queueMicrotask(() => onShown({ shown, moved }));
        }
        return set;
      };
      return [
        new Plugin<DecorationSet>({
          key: inlineChangesKey,
          state: {
            init: (_config, state) => compute(state.doc),
            apply: (tr, old) => (tr.docChanged || tr.getMeta(inlineChangesKey) ? compute(tr.doc) : old.map(tr.mapping, tr.doc)),
          },
          props: { decorations: (state) => inlineChangesKey.getState(state) },
        }),
      ];
    },
  });
