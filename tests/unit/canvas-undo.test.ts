/**
 * The canvas's one undo history per person per article (admin canvas/undo.ts, issue 36): over
 * the section fragments and the premise of a real Y.Doc, with another client's changes coming
 * in as updates (as the server relays an agent's or another editor's), and note steps on the
 * same timeline. The browser test (tests/e2e/canvas-undo.test.ts) drives it through the keys.
 */
import { ySyncPluginKey } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { ArticleHistory, PREMISE_ORIGIN, UndoRefused, type HistoryStep } from '../../src/plugins/quire/admin/src/canvas/undo';

/** This page's document and another client's (the server's copy, an agent, a second editor), kept in sync. */
function pair() {
  const mine = new Y.Doc();
  const theirs = new Y.Doc();
  mine.on('update', (update: Uint8Array, origin: unknown) => origin !== 'relay' && Y.applyUpdate(theirs, update, 'relay'));
  theirs.on('update', (update: Uint8Array, origin: unknown) => origin !== 'relay' && Y.applyUpdate(mine, update, 'relay'));
  theirs.transact(() => {
    theirs.getArray<string>('order').insert(0, ['a', 'b']);
    for (const id of ['a', 'b']) {
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(`Section ${id}.`)]);
      theirs.getXmlFragment(`section:${id}`).insert(0, [paragraph]);
    }
    theirs.getText('premise').insert(0, 'A premise.');
  });
  return { mine, theirs };
}

const textIn = (doc: Y.Doc, id: string) => ((doc.getXmlFragment(`section:${id}`).get(0) as Y.XmlElement).get(0) as Y.XmlText);
/** Typing in a section's editor: y-tiptap writes with its plugin key as origin. */
const typeIn = (doc: Y.Doc, id: string, words: string) => doc.transact(() => textIn(doc, id).insert(textIn(doc, id).length, words), ySyncPluginKey);
const typePremise = (doc: Y.Doc, words: string) => doc.transact(() => doc.getText('premise').insert(doc.getText('premise').length, words), PREMISE_ORIGIN);
const read = (doc: Y.Doc) => ({ a: textIn(doc, 'a').toString(), b: textIn(doc, 'b').toString(), premise: doc.getText('premise').toString() });

/** A note step that records what it did. */
const noteStep = (log: string[], name: string, refuse = false): HistoryStep => ({
  undo: async () => {
    if (refuse) throw new UndoRefused(`${name} changed since`);
    log.push(`undo ${name}`);
  },
  redo: async () => {
    log.push(`redo ${name}`);
  },
});

it('undoes the newest change first, across sections and the premise, never another client\'s', async () => {
  const { mine, theirs } = pair();
  const history = new ArticleHistory(mine);
  typeIn(mine, 'a', ' Alpha.');
  typeIn(mine, 'b', ' Beta.');
  typePremise(mine, ' Gamma.');
  // Meanwhile another client writes in A and in B.
  theirs.transact(() => textIn(theirs, 'a').insert(0, 'Agent: '));
  theirs.transact(() => textIn(theirs, 'b').insert(textIn(theirs, 'b').length, ' Bob.'));
  expect(read(mine)).toEqual({ a: 'Agent: Section a. Alpha.', b: 'Section b. Beta. Bob.', premise: 'A premise. Gamma.' });

  expect(await history.undo()).toBe(true);
  expect(read(mine).premise).toBe('A premise.');
  expect(await history.undo()).toBe(true);
  expect(read(mine)).toEqual({ a: 'Agent: Section a. Alpha.', b: 'Section b. Bob.', premise: 'A premise.' });
  expect(await history.undo()).toBe(true);
  expect(read(mine).a).toBe('Agent: Section a.');
  // Nothing of this person's left: the others' text stays.
  expect(await history.undo()).toBe(false);
  expect(read(theirs)).toEqual({ a: 'Agent: Section a.', b: 'Section b. Bob.', premise: 'A premise.' });

  // Redo: the last undone first.
  expect(await history.redo()).toBe(true);
  expect(read(mine).a).toBe('Agent: Section a. Alpha.');
  expect(read(mine).b).toBe('Section b. Bob.');
  history.destroy();
});

it('merges quick typing in one place into one step, not typing in two places', async () => {
  const { mine } = pair();
  const history = new ArticleHistory(mine);
  typeIn(mine, 'a', ' One');
  typeIn(mine, 'a', ' two');
  typeIn(mine, 'b', ' Three');
  await history.undo();
  expect(read(mine)).toEqual({ a: 'Section a. One two', b: 'Section b.', premise: 'A premise.' });
  await history.undo();
  expect(read(mine).a).toBe('Section a.');
  history.destroy();
});

it('puts note steps on the same timeline, and a new change ends what could be redone', async () => {
  const { mine } = pair();
  const history = new ArticleHistory(mine);
  const log: string[] = [];
  typeIn(mine, 'a', ' Alpha.');
  history.record(noteStep(log, 'note'));
  typeIn(mine, 'a', ' Later.');
  await history.undo();
  expect(read(mine).a).toBe('Section a. Alpha.');
  expect(log).toEqual([]);
  await history.undo();
  expect(log).toEqual(['undo note']);
  await history.undo();
  expect(read(mine).a).toBe('Section a.');
  await history.redo();
  await history.redo();
  expect(log).toEqual(['undo note', 'redo note']);
  // A new change: nothing to redo any more (the typing " Later." stays undone).
  typePremise(mine, ' New.');
  expect(history.canRedo).toBe(false);
  expect(await history.redo()).toBe(false);
  expect(read(mine).a).toBe('Section a. Alpha.');
  history.destroy();
});

it('merges the saves of one note dialog into one step, and drops a step that cannot be undone, saying why', async () => {
  const { mine } = pair();
  const history = new ArticleHistory(mine);
  const problems: unknown[] = [];
  history.onProblem = (problem) => problems.push(problem);
  const log: string[] = [];
  let after = 'first';
  const step = (key: string, value: string): HistoryStep & { value: string } => {
    const made = {
      key,
      value,
      undo: async () => void log.push(`undo to before, was ${made.value}`),
      redo: async () => void log.push(`redo ${made.value}`),
      absorb: (later: HistoryStep) => {
        made.value = (later as typeof made).value;
        return true;
      },
    };
    return made;
  };
  history.record(step('dialog:1', after));
  after = 'second';
  history.record(step('dialog:1', after));
  history.record(noteStep(log, 'changed by an agent since', true));
  expect(await history.undo()).toBe(false);
  expect(problems).toEqual([expect.any(UndoRefused)]);
  expect(await history.undo()).toBe(true);
  expect(log).toEqual(['undo to before, was second']);
  expect(await history.undo()).toBe(false);
  history.destroy();
});

it('leaves a deleted section\'s changes alone (its text is in the trash)', async () => {
  const { mine, theirs } = pair();
  const history = new ArticleHistory(mine);
  typeIn(mine, 'a', ' Alpha.');
  typeIn(mine, 'b', ' Beta.');
  theirs.transact(() => theirs.getArray<string>('order').delete(1, 1));
  await history.undo();
  expect(read(mine)).toEqual({ a: 'Section a.', b: 'Section b. Beta.', premise: 'A premise.' });
  history.destroy();
});
