/**
 * Undo across the article (issue 36): one history per person per open article, over every
 * section, the premise and the notes, as Docs and Notion have it. Ctrl+Z (Cmd+Z) anywhere in
 * the canvas undoes this person's last change wherever it was and brings it into view;
 * Ctrl+Shift+Z or Ctrl+Y redoes it.
 *
 * The text is one `Y.UndoManager` over the live document's section fragments and premise. It
 * records only this page's own typing (the origins of the TipTap editors' sync plugin and of the
 * premise), so what others and agents write, which arrives from the server, is never undone:
 * undoing a word of ours removes that word and leaves theirs around it. Each section editor gets
 * a view of the one manager (`editorManager`) in place of the one y-tiptap would make per
 * editor. Notes live outside the document (REST): their saves are recorded as steps that undo
 * through the notes API (BriefPanel). Both kinds go on one timeline: every entry carries a
 * sequence number, and undo takes the newest of the two stacks' tops.
 */
import { defaultDeleteFilter, defaultProtectedNodes, ySyncPluginKey } from '@tiptap/y-tiptap';
import * as React from 'react';
import * as Y from 'yjs';

/** The origin of the premise's typing (canvas/BriefPanel.tsx), so the history records it. */
export const PREMISE_ORIGIN = { quire: 'premise' } as const;

/** A change made outside the live document (a note's save), with what undoes and redoes it. */
export interface HistoryStep {
  /** Steps with one key may merge (the saves of one note's dialog are one step). */
  key?: unknown;
  /** Throws, with words for the editor, when it cannot be undone (someone changed it since). */
  undo: () => Promise<void>;
  redo: () => Promise<void>;
  /** Takes a later step of the same key into this one; false when it cannot. */
  absorb?: (later: HistoryStep) => boolean;
}

/** A step that cannot be undone (the note changed since): its message is for the editor. */
export class UndoRefused extends Error {}

interface Entry {
  seq: number;
  step: HistoryStep;
}

/**
 * Changes in one place (a section, the premise) without a pause this long are one step. Yjs's
 * default, 500 ms, cut a word in two when a busy page stalled between two keystrokes.
 */
export const CAPTURE_MS = 1500;

const SEQ = 'quire-seq';
const seqOf = (item: { meta: Map<any, any> } | undefined) => (item ? (item.meta.get(SEQ) as number) ?? 0 : -1);
const top = <T,>(stack: T[]): T | undefined => stack[stack.length - 1];

export class ArticleHistory {
  readonly manager: Y.UndoManager;
  private seq = 0;
  private undoSteps: Entry[] = [];
  private redoSteps: Entry[] = [];
  /** The part (a section's fragment, the premise) the last recorded change was in. */
  private lastPart: Y.AbstractType<any> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly order: Y.Array<string>;
  /** Told a step that could not be undone or redone, with the error's words. */
  onProblem: (problem: unknown) => void = () => undefined;

  constructor(readonly doc: Y.Doc) {
    this.order = doc.getArray<string>('order');
    this.manager = new Y.UndoManager([doc.getText('premise')], {
      captureTimeout: CAPTURE_MS,
      trackedOrigins: new Set<any>([ySyncPluginKey, PREMISE_ORIGIN]),
      // As y-tiptap's own: a paragraph others wrote in is not removed with ours.
      deleteFilter: (item) => defaultDeleteFilter(item, defaultProtectedNodes),
      captureTransaction: (transaction) => this.capture(transaction),
    });
    this.manager.on('stack-item-added', ({ stackItem, type }) => {
      stackItem.meta.set(SEQ, ++this.seq);
      // A new change (not an undo or redo) ends what could be redone, notes included.
      if (type === 'undo' && !this.manager.redoing) this.redoSteps = [];
    });
    // A change merged into the last entry (typing without a pause) makes it the newest.
    this.manager.on('stack-item-updated', ({ stackItem }) => stackItem.meta.set(SEQ, ++this.seq));
    this.order.observe(this.scope);
    this.scope();
  }

  /** The sections in the live document's order are in scope; a deleted section's changes are not undone (its text is in the trash). */
  private scope = () => {
    const premise = this.doc.getText('premise');
    this.manager.scope = [premise, ...this.order.toArray().map((id) => this.doc.getXmlFragment(`section:${id}`))];
  };

  /** Which changes the manager records: not those marked addToHistory false; a change in another part starts a new entry. */
  private capture(transaction: Y.Transaction): boolean {
    if (transaction.meta.get('addToHistory') === false) return false;
    if (transaction.origin !== ySyncPluginKey && transaction.origin !== PREMISE_ORIGIN) return true;
    const part = this.manager.scope.find((type) => transaction.changedParentTypes.has(type as Y.AbstractType<any>)) as Y.AbstractType<any> | undefined;
    if (part && part !== this.lastPart) {
      this.manager.stopCapturing();
      this.lastPart = part;
    }
    return true;
  }

  /** Records a note's save, the newest change; merged into the last step when it is the same note's and nothing came between. */
  record(step: HistoryStep) {
    const last = top(this.undoSteps);
    const newest = last && last.seq === this.seq && last.seq > seqOf(top(this.manager.undoStack));
    if (!(newest && step.key !== undefined && last!.step.key === step.key && last!.step.absorb?.(step))) {
      this.undoSteps.push({ seq: ++this.seq, step });
    }
    this.redoSteps = [];
    this.manager.clear(false, true);
    this.manager.stopCapturing();
    this.lastPart = null;
  }

  get canUndo() {
    return this.manager.undoStack.length > 0 || this.undoSteps.length > 0;
  }

  get canRedo() {
    return this.manager.redoStack.length > 0 || this.redoSteps.length > 0;
  }

  /** Undoes this person's newest change, wherever it was (one at a time: a note's takes a request). */
  undo(): Promise<boolean> {
    return this.run(() => this.travel(this.manager.undoStack, this.undoSteps, this.redoSteps, 'undo'));
  }

  redo(): Promise<boolean> {
    return this.run(() => this.travel(this.manager.redoStack, this.redoSteps, this.undoSteps, 'redo'));
  }

  private run(work: () => Promise<boolean>): Promise<boolean> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async travel(texts: Y.UndoManager['undoStack'], from: Entry[], to: Entry[], way: 'undo' | 'redo'): Promise<boolean> {
    const text = top(texts);
    const step = top(from);
    if (!text && !step) return false;
    this.lastPart = null;
    if (!step || (text && seqOf(text) > step.seq)) {
      const done = way === 'undo' ? this.manager.undo() : this.manager.redo();
      return done !== null;
    }
    from.pop();
    try {
      await (way === 'undo' ? step.step.undo() : step.step.redo());
      to.push({ seq: ++this.seq, step: step.step });
      return true;
    } catch (problem) {
      // Dropped: someone changed the note since. The next Ctrl+Z goes on to the change before.
      this.onProblem(problem);
      return false;
    }
  }

  /**
   * The manager as one section editor's y-tiptap undo plugin sees it: the same stacks, but its
   * listeners are its own to remove (the plugin destroys "its" manager when the editor goes),
   * and Ctrl+Z from the editor takes the article's history.
   */
  editorManager(): Y.UndoManager {
    const shared = this.manager;
    const view: any = Object.create(shared);
    const mine: Array<[string, (...args: any[]) => void]> = [];
    view.on = (name: string, listener: (...args: any[]) => void) => {
      mine.push([name, listener]);
      shared.on(name as any, listener as any);
    };
    view.destroy = () => {
      for (const [name, listener] of mine.splice(0)) shared.off(name as any, listener as any);
    };
    view.stopCapturing = () => shared.stopCapturing();
    view.undo = () => void this.undo();
    view.redo = () => void this.redo();
    return view as Y.UndoManager;
  }

  destroy() {
    this.order.unobserve(this.scope);
    this.manager.destroy();
  }
}

export const UndoContext = React.createContext<ArticleHistory | null>(null);
export const useArticleHistory = () => React.useContext(UndoContext);

/** Ctrl+Z in a field that is not the article's (a note's dialog, a reply, the title) keeps the browser's own undo there. */
const ownsUndo = (target: EventTarget | null) => {
  const element = target instanceof HTMLElement ? target : null;
  if (!element) return true;
  if (element.closest('[role="dialog"], [role="alertdialog"]')) return false;
  if (element.closest('[data-section-editor]') || element.matches('[data-live-premise]')) return true;
  return !(element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName));
};

/**
 * The article's history while the page shows its live document (a new one when the document is
 * reopened), and the keys: Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo, from anywhere
 * on the page but another field (caught before the section editors' own keymaps).
 */
export const useArticleUndo = (doc: Y.Doc | null, editable: boolean, onProblem: (problem: unknown) => void): ArticleHistory | null => {
  const [history, setHistory] = React.useState<ArticleHistory | null>(null);
  React.useEffect(() => {
    if (!doc) return;
    const made = new ArticleHistory(doc);
    setHistory(made);
    return () => {
      made.destroy();
      setHistory(null);
    };
  }, [doc]);
  const problemRef = React.useRef(onProblem);
  problemRef.current = onProblem;
  React.useEffect(() => {
    if (history) history.onProblem = (problem) => problemRef.current(problem);
  }, [history]);

  React.useEffect(() => {
    if (!history || !editable) return;
    const keydown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.isComposing) return;
      const key = event.key.toLowerCase();
      const undo = key === 'z' && !event.shiftKey;
      const redo = (key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey);
      if ((!undo && !redo) || !ownsUndo(event.target)) return;
      event.preventDefault();
      event.stopPropagation();
      void (undo ? history.undo() : history.redo());
    };
    window.addEventListener('keydown', keydown, true);
    return () => window.removeEventListener('keydown', keydown, true);
  }, [history, editable]);

  return history;
};
