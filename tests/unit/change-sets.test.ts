/**
 * domain/change-sets (CONTRACT 23): the word-level diff joins back to both texts, word counts,
 * the three-way revert (others' later writing kept, passages changed since are conflicts) and
 * the authors' replay (spans join to the text).
 */
import { applyToSpans, planRevert, replaySpans, tokensOf, wordCounts, wordDiff } from '../../src/plugins/quire/server/src/domain/change-sets';

const side = (diff: Array<{ op: string; text: string }>, keep: string) =>
  diff
    .filter((p) => p.op === '=' || p.op === keep)
    .map((p) => p.text)
    .join('');

describe('tokensOf', () => {
  it('joins back to the text: words, spaces, punctuation, tags, CJK characters, a lone <', () => {
    const text = "# Title\n\nThe quick brown-fox don't jump.  中文字 <b>x</b> a<b\ttail";
    const tokens = tokensOf(text);
    expect(tokens.join('')).toBe(text);
    expect(tokens).toEqual(expect.arrayContaining(['brown-fox', "don't", '中', '<b>', '</b>', '.', '\t']));
  });
});

describe('wordDiff', () => {
  it('= and - give the text before, = and + the text after, whitespace kept', () => {
    const before = 'The quick brown fox jumps.';
    const after = 'The slow brown fox  jumps high.';
    const diff = wordDiff(before, after);
    expect(side(diff, '-')).toBe(before);
    expect(side(diff, '+')).toBe(after);
    expect(diff).toEqual(expect.arrayContaining([{ op: '-', text: 'quick' }, { op: '+', text: 'slow' }]));
    expect(wordCounts(diff)).toEqual({ inserted: 2, deleted: 1 });
  });

  it('handles empty sides and equal texts', () => {
    expect(wordDiff('', '')).toEqual([]);
    expect(wordDiff('same', 'same')).toEqual([{ op: '=', text: 'same' }]);
    expect(wordDiff('', 'new words')).toEqual([{ op: '+', text: 'new words' }]);
    expect(wordCounts(wordDiff('old words here', ''))).toEqual({ inserted: 0, deleted: 3 });
  });

  it('is coarse, and still exact when joined, past its bound', () => {
    const before = Array.from({ length: 300 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 300 }, (_, i) => `b${i}`).join(' ');
    const diff = wordDiff(before, after, 10);
    expect(side(diff, '-')).toBe(before);
    expect(side(diff, '+')).toBe(after);
  });
});

describe('planRevert', () => {
  it('undoes the change when nothing changed since', () => {
    expect(planRevert('a b c', 'a X c', 'a X c')).toEqual({ text: 'a b c', reverted: 1, conflicts: [] });
  });

  it('keeps what others wrote elsewhere since', () => {
    const plan = planRevert('One two.\n\nThree four.', 'One two, said the agent.\n\nThree four.', 'One two, said the agent.\n\nThree four five.');
    expect(plan.text).toBe('One two.\n\nThree four five.');
    expect(plan.conflicts).toEqual([]);
  });

  it('puts a deletion back between the words it stood between', () => {
    expect(planRevert('a b c d', 'a d', 'Z a d').text).toBe('Z a b c d');
  });

  it('lists a passage changed since as a conflict and reverts the rest', () => {
    const plan = planRevert('Alpha beta gamma. Delta epsilon.', 'Alpha BETA gamma. Delta EPSILON.', 'Alpha Bêta gamma. Delta EPSILON.');
    expect(plan.text).toBe('Alpha Bêta gamma. Delta epsilon.');
    expect(plan.reverted).toBe(1);
    expect(plan.conflicts).toEqual([{ text: 'BETA', reason: expect.stringContaining('changed since') }]);
  });

  it('does not revert a passage someone typed inside of', () => {
    const plan = planRevert('a b', 'a x y b', 'a x NEW y b');
    expect(plan.reverted).toBe(0);
    expect(plan.text).toBe('a x NEW y b');
    expect(plan.conflicts).toHaveLength(1);
  });

  it('reverts an insertion of a whole text to nothing', () => {
    expect(planRevert('', 'All new.', 'All new.').text).toBe('');
  });
});

describe('spans', () => {
  const agent = { kind: 'agent' as const, name: 'bot' };
  const human = { kind: 'human' as const, name: 'ada' };

  it('replays change sets: each keeps its words, later ones add theirs; joined, the text', () => {
    const changes = [
      { before: '# H\n\nStart.', after: '# H\n\nStart. Agent text.', by: agent, change: 'c1' },
      { before: '# H\n\nStart. Agent text.', after: '# H\n\nStart. Agent text. Human text.', by: human, change: 'c2' },
    ];
    const current = '# H\n\nStart. Agent text. Human text.';
    const spans = replaySpans(changes, current);
    expect(spans.map((s) => s.text).join('')).toBe(current);
    expect(spans[0]).toMatchObject({ by: null, change: null });
    expect(spans.find((s) => s.text.includes('Agent'))).toMatchObject({ by: agent, change: 'c1' });
    expect(spans.find((s) => s.text.includes('Human'))).toMatchObject({ by: human, change: 'c2' });
  });

  it('text changed outside change sets is unattributed, and the spans still join to the text now', () => {
    const spans = replaySpans([{ before: '', after: 'one two', by: agent, change: 'c1' }], 'one two three');
    expect(spans.map((s) => s.text).join('')).toBe('one two three');
    expect(spans[spans.length - 1]).toMatchObject({ by: null });
  });

  it('applyToSpans drops deleted text and merges neighbours of one change', () => {
    const spans = applyToSpans([{ text: 'ab', by: agent, change: 'c1' }], [{ op: '=', text: 'a' }, { op: '-', text: 'b' }, { op: '+', text: 'c' }], agent, 'c1');
    expect(spans).toEqual([{ text: 'ac', by: agent, change: 'c1' }]);
  });
});
