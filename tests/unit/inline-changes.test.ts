/**
 * Suggestions inline (admin canvas/suggestions/inline-changes.ts, CONTRACT 23): a pending change
 * set's words found in the section's editor text, word by word, and mapped onto the text as it
 * moved on since (someone typing); a passage changed since no longer matches.
 */
import { getSchema } from '@tiptap/core';
import { changeDecorations, hunksOf, newInlineCache, offsetMap, placeHunks, type InlineChange } from '../../src/plugins/quire/admin/src/canvas/suggestions/inline-changes';
import { textOf } from '../../src/plugins/quire/admin/src/canvas/threads/thread-marks';
import { editorExtensions } from '../../src/plugins/quire/shared/editor-extensions';

const schema = getSchema(editorExtensions());
const docOf = (...paragraphs: string[]) =>
  schema.nodeFromJSON({
    type: 'doc',
    content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Numbers' }] }, ...paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] }))],
  });

const apply = (text: string, hunks: Array<{ from: number; to: number; inserted: string }>) => {
  let out = text;
  for (const hunk of [...hunks].reverse()) out = out.slice(0, hunk.from) + hunk.inserted + out.slice(hunk.to);
  return out;
};

it('finds the words a change deletes and inserts, one change where only spaces part them', () => {
  const before = 'Numbers\n\nThe engine computes Bernoulli numbers.';
  const after = 'Numbers\n\nThe engine tabulates polynomial numbers, step by step.';
  const hunks = hunksOf(before, after)!;
  expect(hunks.map((h) => [before.slice(h.from, h.to), h.inserted])).toEqual([
    ['computes Bernoulli', 'tabulates polynomial'],
    ['', ', step by step'],
  ]);
  expect(apply(before, hunks)).toBe(after);
  expect(hunksOf(before, before)).toEqual([]);
  // Spaces alone are no change a reader sees.
  expect(hunksOf('a b', 'a  b')).toEqual([]);
});

it('maps a change onto text that moved on elsewhere, and refuses one whose passage changed', () => {
  const stored = 'The engine computes Bernoulli numbers. It weaves.';
  const hunks = hunksOf(stored, 'The engine tabulates Bernoulli numbers. It weaves.')!;
  // Someone typed before the passage: the change moves with it.
  const typed = 'Surely the engine computes Bernoulli numbers. It weaves.';
  const placed = placeHunks(hunks, offsetMap(stored, typed)!)!;
  expect(placed.map((h) => typed.slice(h.from, h.to))).toEqual(['computes']);
  expect(apply(typed, placed)).toBe('Surely the engine tabulates Bernoulli numbers. It weaves.');
  // Someone rewrote the passage itself: it no longer matches.
  expect(placeHunks(hunks, offsetMap(stored, 'The engine calculates Bernoulli numbers. It weaves.')!)).toBeNull();
  // An insertion at the end, after typing at the start.
  const atEnd = hunksOf(stored, `${stored} By hand.`)!;
  const moved = placeHunks(atEnd, offsetMap(stored, `Yes. ${stored}`)!)!;
  expect(apply(`Yes. ${stored}`, moved)).toBe(`Yes. ${stored} By hand.`);
});

it('decorates the deleted words as del and the inserted ones as an ins widget, with data-change', () => {
  const doc = docOf('The engine computes Bernoulli numbers.');
  const change: InlineChange = {
    anchor: 'abc123',
    current: '<h1>Numbers</h1><p>The engine computes Bernoulli numbers.</p>',
    suggested: '<h1>Numbers</h1><p>The engine tabulates Bernoulli numbers.</p>',
    title: 'bot',
  };
  // The HTML as the editor reads it (parseText needs a DOM; the unit tier has none).
  const cache = newInlineCache();
  cache.texts.set(change.current, textOf(doc).text);
  cache.texts.set(change.suggested, textOf(docOf('The engine tabulates Bernoulli numbers.')).text);
  const { set, shown } = changeDecorations(doc, [change], schema, cache);
  expect(shown).toEqual(['abc123']);
  const found = set.find();
  const deleted = found.find((d) => d.from !== d.to)!;
  expect(doc.textBetween(deleted.from, deleted.to)).toBe('computes');
  expect((deleted as unknown as { type: { attrs: Record<string, string> } }).type.attrs).toEqual(expect.objectContaining({ nodeName: 'del', 'data-change': 'abc123' }));
  const widget = found.find((d) => d.from === d.to)!;
  expect(widget.from).toBe(deleted.to);

  // A deletion of the whole section: every word struck through, block by block.
  const gone: InlineChange = { ...change, anchor: 'def456', suggested: '' };
  const all = changeDecorations(doc, [gone], schema, cache);
  expect(all.shown).toEqual(['def456']);
  expect(all.set.find().map((d) => doc.textBetween(d.from, d.to))).toEqual(['Numbers', 'The engine computes Bernoulli numbers.']);

  // The text rewritten since where it changes: not inline.
  const rewritten = docOf('The engine calculates Bernoulli numbers.');
  expect(changeDecorations(rewritten, [change], schema, cache)).toEqual(expect.objectContaining({ shown: [], moved: ['abc123'] }));
});
