/** The pure part of search: literal matching, counts, snippets, and the index queries. */
import { ftsQuery, likeContains, matchText, snippets } from '../../src/plugins/quire/server/src/domain/search';

describe('matchText', () => {
  it('matches literally and in any case, counting non-overlapping occurrences', () => {
    expect(matchText('Aa aA aa', 'aa')?.count).toBe(3);
    expect(matchText('aaaa', 'aa')?.count).toBe(2);
    expect(matchText('a.b a*b (x) [y] \\z $1 ^', 'a.b')?.count).toBe(1);
    expect(matchText('axb', 'a.b')).toBeNull();
    for (const q of ['a*b', '(x)', '[y]', '\\z', '$1', '^', '/', '|']) expect(matchText('a*b (x) [y] \\z $1 ^ / |', q)?.count).toBe(1);
    expect(matchText('ÄRGER ärger', 'äRGER')?.count).toBe(2);
  });
});

describe('snippets', () => {
  it('gives up to three extracts of about 160 characters, on one line, marked where cut', () => {
    const text = `${'x'.repeat(300)} needle\n${'y'.repeat(300)} needle ${'z'.repeat(300)} needle ${'w'.repeat(300)} needle end`;
    const offsets = [...text.matchAll(/needle/g)].map((m) => m.index!);
    const out = snippets(text, offsets, 6);
    expect(out).toHaveLength(3);
    for (const s of out) {
      expect(s).toContain('needle');
      expect(s.length).toBeLessThanOrEqual(162);
      expect(s).toMatch(/^…/);
      expect(s).not.toContain('\n');
    }
    expect(snippets('short needle', [6], 6)).toEqual(['short needle']);
  });

  it('starts no new extract for a match inside the previous one', () => {
    expect(snippets('needle needle needle', [0, 7, 14], 6)).toEqual(['needle needle needle']);
  });
});

describe('the index queries', () => {
  it('FTS5: the non-overlapping trigrams and the last one, quoted', () => {
    expect(ftsQuery('section 117')).toBe('"sec" "tio" "n 1" "117"');
    expect(ftsQuery('abc')).toBe('"abc"');
    expect(ftsQuery('ab"cd')).toBe('"ab""" """cd"');
    expect(ftsQuery('naïve😀x')).toBe('"naï" "ve😀" "e😀x"');
  });

  it('LIKE: % _ and \\ escaped', () => {
    expect(likeContains('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
  });
});
