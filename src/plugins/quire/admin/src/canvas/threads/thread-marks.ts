/**
 * Threads' quotes marked in a section's editor (CONTRACT 24): a ProseMirror decoration around
 * each open thread's quote, `<span data-thread="<anchor>">`. The server keeps a thread's
 * offsets in the section's text as a reader sees it (blocks apart); the editor's text is built
 * the same way (textblocks joined by a blank line), the quote searched in it, and the
 * occurrence nearest the stored offset marked. A quote no longer found is not marked (its
 * thread still shows under the section). Decorations are not content: nothing reaches the
 * live document.
 */
import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

export interface ThreadMark {
  anchor: string;
  quote: string;
  start: number;
}

const BLOCK_JOIN = '\n\n';

/** The document's text as a reader sees it, with each character's document position (-1: between blocks). */
export function textOf(doc: PMNode): { text: string; positions: number[] } {
  let text = '';
  const positions: number[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    if (text.length) {
      text += BLOCK_JOIN;
      for (let i = 0; i < BLOCK_JOIN.length; i += 1) positions.push(-1);
    }
    node.forEach((child, offset) => {
      const at = pos + 1 + offset;
      if (child.isText) {
        text += child.text!;
        for (let i = 0; i < child.text!.length; i += 1) positions.push(at + i);
      } else if (child.type.name === 'hardBreak') {
        text += '\n';
        positions.push(at);
      }
    });
    return false;
  });
  return { text, positions };
}

/** Where each occurrence of `quote` starts in `text`. */
export function occurrences(text: string, quote: string): number[] {
  const found: number[] = [];
  if (!quote) return found;
  for (let at = text.indexOf(quote); at >= 0; at = text.indexOf(quote, at + 1)) found.push(at);
  return found;
}

/** The selection as the server takes a new thread: its text and which occurrence of it (1-based). */
export function selectionQuote(state: EditorState): { quote: string; occurrence: number } | null {
  const { from, to, empty } = state.selection;
  if (empty) return null;
  const { text, positions } = textOf(state.doc);
  const first = positions.findIndex((pos) => pos >= from);
  let last = -1;
  for (let i = positions.length - 1; i >= 0; i -= 1) {
    if (positions[i] >= 0 && positions[i] < to) {
      last = i;
      break;
    }
  }
  if (first < 0 || last < first) return null;
  const quote = text.slice(first, last + 1).trim();
  if (!quote) return null;
  const start = first + text.slice(first, last + 1).indexOf(quote);
  return { quote, occurrence: occurrences(text, quote).filter((at) => at <= start).length };
}

function decorations(doc: PMNode, marks: ThreadMark[]): DecorationSet {
  if (!marks.length) return DecorationSet.empty;
  const { text, positions } = textOf(doc);
  const found: Decoration[] = [];
  for (const mark of marks) {
    const starts = occurrences(text, mark.quote);
    if (!starts.length) continue;
    const at = starts.reduce((best, s) => (Math.abs(s - mark.start) < Math.abs(best - mark.start) ? s : best));
    const inside = positions.slice(at, at + mark.quote.length).filter((pos) => pos >= 0);
    if (!inside.length) continue;
    found.push(Decoration.inline(inside[0], inside[inside.length - 1] + 1, { 'data-thread': mark.anchor, class: 'quire-thread-quote' }));
  }
  return DecorationSet.create(doc, found);
}

export const threadMarksKey = new PluginKey<DecorationSet>('quireThreadMarks');

/** The extension, reading the marks through `current` (the editor lives longer than one list of threads). */
export const ThreadMarks = (current: () => ThreadMark[]) =>
  Extension.create({
    name: 'quireThreadMarks',
    addProseMirrorPlugins() {
      return [
        new Plugin<DecorationSet>({
          key: threadMarksKey,
          state: {
            init: (_config, state) => decorations(state.doc, current()),
            apply: (tr, old) => (tr.docChanged || tr.getMeta(threadMarksKey) ? decorations(tr.doc, current()) : old),
          },
          props: { decorations: (state) => threadMarksKey.getState(state) },
        }),
      ];
    },
  });
