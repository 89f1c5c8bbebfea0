/**
 * The caret stays where the person types when a heading they typed splits their section
 * (CONTRACT 22): the server stores the section as two (or more), and the update that brings
 * the split removes the blocks from the heading on from this section's fragment and puts them
 * in new sections right after it in `order`. Just before the editors see that update
 * (`beforeObserverCalls`), the focused editor still shows the section whole: if its caret is
 * in a block that moved, the same block and offset are noted in the new section, and its
 * editor, once mounted, takes the focus there.
 */
import type { Editor } from '@tiptap/core';
import * as React from 'react';
import * as Y from 'yjs';

/** Where the caret goes: a section, a top-level block of it, an offset inside that block. */
export interface CaretTarget {
  section: string;
  block: number;
  offset: number;
}

type Blocks = Array<Record<string, unknown>>;

/** The TipTap editor of a section, from its DOM (TipTap keeps it on the editor's element). */
const editorOf = (sectionId: string): Editor | null => {
  const element = document.querySelector(`[data-section-editor="${CSS.escape(sectionId)}"]`) as (HTMLElement & { editor?: Editor }) | null;
  return element?.editor && !element.editor.isDestroyed ? element.editor : null;
};

/**
 * Where a caret in block `block` (at `offset`) of a section that kept `kept` blocks goes, when
 * the blocks after those moved to `added` (new sections, in order, with their block counts).
 * Null: the caret stays in the section.
 */
export function caretAfterSplit(block: number, offset: number, kept: number, added: Array<{ section: string; blocks: number }>): CaretTarget | null {
  let index = block - kept;
  if (index < 0) return null;
  for (const part of added) {
    if (index < part.blocks) return { section: part.section, block: index, offset };
    index -= part.blocks;
  }
  return null;
}

export function useHeadingSplit(doc: Y.Doc | null) {
  React.useEffect(() => {
    if (!doc) return;
    let pending: CaretTarget | null = null;
    let frame = 0;
    const order = doc.getArray<string>('order');
    let before = order.toArray();

    const place = (tries = 0) => {
      const target = pending;
      if (!target) return;
      const editor = editorOf(target.section);
      if (!editor) {
        // Its editor mounts with the next render.
        if (tries < 120) frame = window.requestAnimationFrame(() => place(tries + 1));
        else {
          pending = null;
          held.length = 0;
          window.removeEventListener('keydown', hold, true);
        }
        return;
      }
      pending = null;
      // The moved blocks as this editor had them: typing the split missed is put back.
      for (const [sectionId, blocks] of carry) {
        const into = editorOf(sectionId);
        if (into && blocks.length && JSON.stringify(into.state.doc.toJSON().content ?? []) !== JSON.stringify(blocks)) into.commands.setContent({ type: 'doc', content: blocks });
      }
      carry.clear();
      const content = editor.state.doc;
      const block = Math.min(target.block, content.childCount - 1);
      let pos = 0;
      for (let i = 0; i < block; i += 1) pos += content.child(i).nodeSize;
      const inside = Math.min(target.offset, Math.max(0, content.child(block).nodeSize - 2));
      editor.commands.focus(pos + 1 + inside);
      const keys = held.splice(0);
      window.removeEventListener('keydown', hold, true);
      for (const key of keys) {
        if (key === '\n') editor.commands.splitBlock();
        else editor.commands.insertContent(key);
      }
    };

    /** New section id -> the blocks this editor had for it before the split. */
    const carry = new Map<string, Blocks>();
    /** Keys typed while the new section's editor is not there yet. */
    const held: string[] = [];
    const hold = (event: KeyboardEvent) => {
      if (!pending || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (event.key.length !== 1 && event.key !== 'Enter') return;
      event.preventDefault();
      event.stopPropagation();
      held.push(event.key === 'Enter' ? '\n' : event.key);
    };

    const beforeObservers = (transaction: Y.Transaction) => {
      if (!transaction.changed.has(order as unknown as Y.AbstractType<Y.YEvent<any>>)) return;
      const now = order.toArray();
      const was = before;
      before = now;
      if (transaction.local) return;
      const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-section-editor]')?.dataset.sectionEditor;
      const at = focused ? now.indexOf(focused) : -1;
      if (!focused || at < 0) return;
      const added: Array<{ section: string; blocks: number }> = [];
      for (const id of now.slice(at + 1)) {
        if (was.includes(id)) break;
        added.push({ section: id, blocks: doc.getXmlFragment(`section:${id}`).length });
      }
      const editor = editorOf(focused);
      if (!added.length || !editor) return;
      // The editor has not seen this update yet: its selection is in the section as it was.
      const { $head } = editor.state.selection;
      const block = $head.index(0);
      const offset = $head.depth >= 1 ? $head.pos - $head.start(1) : 0;
      const kept = doc.getXmlFragment(`section:${focused}`).length;
      const target = caretAfterSplit(block, offset, kept, added);
      if (!target) return;
      const blocks = (editor.state.doc.toJSON().content ?? []) as Blocks;
      let from = kept;
      for (const [k, part] of added.entries()) {
        const to = k === added.length - 1 ? blocks.length : from + part.blocks;
        carry.set(part.section, blocks.slice(from, to));
        from = to;
      }
      pending = target;
      window.addEventListener('keydown', hold, true);
      window.cancelAnimationFrame(frame);
      frame = window.requestAnimationFrame(() => place());
    };
    doc.on('beforeObserverCalls', beforeObservers);
    return () => {
      doc.off('beforeObserverCalls', beforeObservers);
      window.removeEventListener('keydown', hold, true);
      window.cancelAnimationFrame(frame);
    };
  }, [doc]);
}
