/**
 * The Brief's list of suggestions says what each changes (issue 36 point 4): one phrase per
 * operation, sections named by title, with the words of translations/en.json.
 */
import { summarizeOps } from '../../src/plugins/quire/admin/src/canvas/suggestions/summary';
import en from '../../src/plugins/quire/admin/src/translations/en.json';

/** The canvas's m(): the English translation with its {placeholders} filled. */
const m = (id: string, fallback: string, values: Record<string, string | number> = {}) => {
  const text = (en as Record<string, string>)[id.replace(/^quire\./, '')] ?? `MISSING ${id}`;
  expect(text).toBe(fallback);
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
};
const sections = [
  { id: 'aaaaaaaa-1111', anchor: 'aaaaaa', title: 'Intro' },
  { id: 'bbbbbbbb-2222', anchor: 'bbbbbb', title: '' },
];

it('names each operation and the sections it touches', () => {
  const ops = [
    { op: 'replace', section: 'aaaaaa', markdown: '# Intro\n\nNew.' },
    { op: 'insert', markdown: '## Method\n\nSteps.', after: 'aaaaaa' },
    { op: 'insert', markdown: 'Plain words at the end of it all, more than forty characters long.' },
    { op: 'move', section: 'bbbbbbbb', before: 'aaaaaa' },
    { op: 'delete', section: '$1' },
    { op: 'replaceText', find: 'teh', replace: 'the', section: 'aaaaaa' },
    { op: 'replaceText', find: 'very ', replace: '' },
  ];
  expect(summarizeOps(ops, sections, m, 'Untitled').split('; ')).toEqual([
    'Rewrites "Intro"',
    'Adds "Method" after "Intro"',
    'Adds "Plain words at the end of it all, more…" at the end',
    'Moves "Untitled"',
    'Deletes a new section',
    'Replaces "teh" with "the" in "Intro"',
    'Removes "very"',
  ]);
});

it('a section that is gone is "a section"', () => {
  expect(summarizeOps([{ op: 'delete', section: 'zzzzzz' }], sections, m, 'Untitled')).toBe('Deletes a section');
});
