/**
 * The canvas's thread marks (admin canvas/threads/thread-marks.ts, CONTRACT 24): the editor's
 * text is the section's reader text (blocks apart by a blank line), so a selection is sent as
 * the words and the occurrence the server finds, and a thread's quote is marked nearest its
 * stored offset.
 */
import { getSchema } from '@tiptap/core';
import { EditorState, TextSelection } from '@tiptap/pm/state';
import { occurrences, selectionQuote, textOf } from '../../src/plugins/quire/admin/src/canvas/threads/thread-marks';
import { editorExtensions } from '../../src/plugins/quire/shared/editor-extensions';

const schema = getSchema(editorExtensions());
const doc = schema.nodeFromJSON({
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Two' }] },
    { type: 'paragraph', content: [{ type: 'text', text: 'As the loom weaves flowers, ' }, { type: 'text', text: 'the loom', marks: [{ type: 'bold' }] }, { type: 'text', text: '.' }] },
  ],
});

it('builds the reader text with each character\'s position', () => {
  const { text, positions } = textOf(doc);
  expect(text).toBe('Two\n\nAs the loom weaves flowers, the loom.');
  expect(positions).toHaveLength(text.length);
  expect(doc.textBetween(positions[5], positions[5] + 2)).toBe('As');
  expect(occurrences(text, 'the loom')).toEqual([8, 33]);
});

it('sends a selection as its words and which occurrence of them it is', () => {
  const { positions } = textOf(doc);
  const select = (from: number, to: number) => selectionQuote(EditorState.create({ doc, selection: TextSelection.create(doc, positions[from], positions[to - 1] + 1) }));
  expect(select(33, 41)).toEqual({ quote: 'the loom', occurrence: 2 });
  expect(select(8, 16)).toEqual({ quote: 'the loom', occurrence: 1 });
  // Across blocks, as the server's text has them.
  expect(select(0, 7)).toEqual({ quote: 'Two\n\nAs', occurrence: 1 });
  expect(selectionQuote(EditorState.create({ doc }))).toBeNull();
});
