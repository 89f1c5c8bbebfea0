import { anchorAt, changesBetween, locateQuote, mapAnchor, mapPosition, mentionsOf, nearestQuote, replyOf, splitPosition } from '../../src/plugins/quire/server/src/domain/threads';

const anchor = (text: string, quote: string, occurrence = 1) => {
  const at = locateQuote(text, quote, occurrence);
  if (at < 0) throw new Error(`no ${quote}`);
  return anchorAt(text, at, at + quote.length);
};

describe('locateQuote', () => {
  it('finds the occurrence-th, without overlaps, or -1', () => {
    expect(locateQuote('aaa', 'aa')).toBe(0);
    expect(locateQuote('aaa', 'aa', 2)).toBe(-1);
    expect(locateQuote('red, red, red', 'red', 3)).toBe(10);
    expect(locateQuote('red', 'blue')).toBe(-1);
    expect(locateQuote('red', '')).toBe(-1);
  });
  it('keeps context on both sides', () => {
    expect(anchorAt('one two three', 4, 7)).toEqual({ start: 4, end: 7, quote: 'two', prefix: 'one ', suffix: ' three' });
  });
});

describe('mapping positions through changes', () => {
  it('keeps the start after text inserted at it and the end before', () => {
    const changes = changesBetween('ab', 'aXb')!;
    expect(changes).toEqual([{ from: 1, to: 1, size: 1 }]);
    expect(mapPosition(changes, 1, 1)).toBe(2);
    expect(mapPosition(changes, 1, -1)).toBe(1);
    expect(mapPosition(changes, 2, -1)).toBe(3);
  });
  it('shifts positions after a change by its size', () => {
    const changes = changesBetween('hello world', 'hello big world')!;
    expect(mapPosition(changes, 6, 1)).toBe(10);
    expect(mapPosition(changes, 11, -1)).toBe(15);
  });
});

describe('mapAnchor', () => {
  const text = 'The quick brown fox jumps over the lazy dog.';
  const a = anchor(text, 'brown fox');

  it('follows the words through typing before and after them', () => {
    const next = 'Yesterday the very quick brown fox leaped over a dog.';
    expect(mapAnchor(text, next, a)).toMatchObject({ quote: 'brown fox', start: next.indexOf('brown fox'), detached: false });
  });
  it('grows with typing inside and shrinks with deletions inside', () => {
    expect(mapAnchor(text, text.replace('brown fox', 'brown sly fox'), a)).toMatchObject({ quote: 'brown sly fox', detached: false });
    expect(mapAnchor(text, text.replace('brown fox', 'fox'), a)).toMatchObject({ quote: 'fox', detached: false });
  });
  it('is detached when every quoted character is deleted, keeping its quote', () => {
    expect(mapAnchor(text, 'The quick jumps over the lazy dog.', a)).toMatchObject({ quote: 'brown fox', detached: true });
    expect(mapAnchor(text, '', a)).toMatchObject({ detached: true });
  });
  it('survives a rewrite all around that keeps the quote, even one a diff aligns oddly', () => {
    const next = 'Brown foxes aside, a brown fox is what we saw: nothing else at all, truly.';
    const mapped = mapAnchor(text, next, a);
    expect(mapped).toMatchObject({ detached: false, quote: 'brown fox' });
  });
  it('finds the quote when the change is too large to diff', () => {
    const big = `${'x'.repeat(5_000)} brown fox ${'y'.repeat(5_000)}`;
    const before = `${'a'.repeat(5_000)} brown fox ${'b'.repeat(5_000)}`;
    const mapped = mapAnchor(before, big, anchor(before, 'brown fox'));
    expect(mapped).toMatchObject({ quote: 'brown fox', start: 5_001, detached: false });
    expect(mapAnchor(before, 'z'.repeat(12_000), anchor(before, 'brown fox')).detached).toBe(true);
  });
  it('leaves an unchanged text alone', () => {
    expect(mapAnchor(text, text, a)).toEqual({ ...a, detached: false });
  });
});

describe('nearestQuote', () => {
  it('finds the quote at its place or near it, the nearest first, else -1', () => {
    expect(nearestQuote('a fox and a fox', 'fox', 12)).toBe(12);
    expect(nearestQuote('a fox and a fox', 'fox', 4)).toBe(2);
    expect(nearestQuote(`${'x'.repeat(500)} fox`, 'fox', 0)).toBe(-1);
    expect(nearestQuote('fox', '', 0)).toBe(-1);
  });
});

describe('splitPosition', () => {
  it('tells which of joined texts a position is in', () => {
    expect(splitPosition([5, 3], 2, 0)).toEqual({ index: 0, offset: 0 });
    expect(splitPosition([5, 3], 2, 5)).toEqual({ index: 0, offset: 5 });
    expect(splitPosition([5, 3], 2, 6)).toEqual({ index: 1, offset: 0 });
    expect(splitPosition([5, 3], 2, 8)).toEqual({ index: 1, offset: 1 });
  });
});

describe('mentionsOf', () => {
  it('reads @skill names once each, not inside words, e-mail addresses or code', () => {
    expect(mentionsOf('@factcheck please, and @summarise; @factcheck again')).toEqual(['factcheck', 'summarise']);
    expect(mentionsOf('mail ann@example.com or see `@code`')).toEqual([]);
    expect(mentionsOf('(@a_b) @Upper')).toEqual(['a_b']);
    expect(mentionsOf('@a @b @c @d', 2)).toEqual(['a', 'b']);
  });
});

describe('replyOf', () => {
  it('takes output.reply, else an http answer body\'s reply, else a string output', () => {
    expect(replyOf({ reply: 'hi' })).toBe('hi');
    expect(replyOf({ status: 200, body: '{"reply":"from http"}' })).toBe('from http');
    expect(replyOf({ status: 200, body: { reply: 'object body' } })).toBe('object body');
    expect(replyOf('plain')).toBe('plain');
    expect(replyOf({ status: 200, body: 'not json' })).toBeNull();
    expect(replyOf({ reply: '  ' })).toBeNull();
    expect(replyOf(null)).toBeNull();
    expect(replyOf(42)).toBeNull();
  });
});
