/**
 * domain/diff (issue 25, item 1): exact diffs within DIFF_MAX_EDIT_LENGTH changed lines, one
 * coarse hunk past it; both are patches that turn the old text into the new one.
 */
import { applyPatch } from 'diff';
import { coarseDiff, DIFF_MAX_EDIT_LENGTH, sectionDiff } from '../../src/plugins/quire/server/src/domain/diff';

const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}`).join('\n');
const withNewline = (text: string) => (text ? `${text}\n` : '');

describe('sectionDiff', () => {
  it('is exact for a small change', () => {
    const before = lines(50, 'line');
    const after = before.replace('line 25', 'line twenty-five');
    const diff = sectionDiff({ anchor: 'abc123', before, after });
    expect(diff).toBe(
      '===================================================================\n--- a/abc123\n+++ b/abc123\n' +
        '@@ -23,7 +23,7 @@\n line 22\n line 23\n line 24\n-line 25\n+line twenty-five\n line 26\n line 27\n line 28\n',
    );
  });

  it('past the bound, gives one hunk between the shared head and tail, which still applies', () => {
    const before = `# Title\n\n${lines(2000, 'old')}\n\nThe end.`;
    const after = `# Title\n\n${lines(2000, 'new')}\n\nThe end.`;
    const diff = sectionDiff({ anchor: 'abc123', before, after });
    expect(diff).toBe(coarseDiff('abc123', before, after));
    expect(diff).toContain('@@ -1,2004 +1,2004 @@\n # Title\n \n-old 0\n');
    expect(diff).toContain('\n-old 1999\n+new 0\n');
    expect(diff.endsWith('+new 1999\n \n The end.\n')).toBe(true);
    expect(applyPatch(withNewline(before), diff)).toBe(withNewline(after));
    expect(DIFF_MAX_EDIT_LENGTH).toBeLessThan(4000); // 2,000 removed + 2,000 added;
  });

  it('coarse diffs apply for insertions, deletions, and changes at either end', () => {
    const cases: [string, string][] = [
      ['', 'a\nb'],
      ['a\nb', ''],
      ['a\nb\nc\nd\ne\nf\ng\nh', 'a\nb\nc\nX\nY\nf\ng\nh'],
      ['a\nb\nc', 'a\nb\nc\nd'],
      ['a\nb\nc', 'z\na\nb\nc'],
      ['same', 'same'],
      ['a\nb\nc\nd\ne\nf\ng\nh\ni\nj', 'a\nb\nc\nd\ne\nf\ng\nh\ni\nk'],
    ];
    for (const [before, after] of cases) {
      const diff = coarseDiff('s', before, after);
      expect([before, after, applyPatch(withNewline(before), diff)]).toEqual([before, after, withNewline(after)]);
    }
  });
});
