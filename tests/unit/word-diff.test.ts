/** Word-level marks between two versions of a section's HTML (src/plugins/quire/shared/word-diff.ts). */
import { inlineWordChanges, markWordChanges, tokenize } from '../../src/plugins/quire/shared/word-diff';

describe('markWordChanges', () => {
  it('wraps the removed words in del on the old side and the added ones in ins on the new side', () => {
    const marks = markWordChanges('<p>The quick brown fox jumps.</p>', '<p>The slow brown fox leaps high.</p>');
    expect(marks).toEqual({
      before: '<p>The <del>quick</del> brown fox <del>jumps.</del></p>',
      after: '<p>The <ins>slow</ins> brown fox <ins>leaps high.</ins></p>',
      marked: true,
      changed: true,
    });
  });

  it('never wraps across a tag: each side keeps its own elements, marks only around text', () => {
    const marks = markWordChanges('<h2>Title</h2><p>Old <strong>bold</strong> words</p>', '<h2>Title</h2><p>New <em>words</em> here</p>');
    expect(marks.before).toBe('<h2>Title</h2><p><del>Old</del> <strong><del>bold</del></strong> words</p>');
    expect(marks.after).toBe('<h2>Title</h2><p><ins>New</ins> <em>words</em> <ins>here</ins></p>');
  });

  it('keeps entities and quoted attributes whole, and leaves equal versions unmarked', () => {
    expect(tokenize('<a href="x>y" title=\'a b\'>R&amp;D</a> ok')).toEqual(['<a href="x>y" title=\'a b\'>', 'R&amp;D', '</a>', ' ', 'ok']);
    const same = markWordChanges('<p>R&amp;D</p>', '<p>R&amp;D</p>');
    expect(same).toEqual({ before: '<p>R&amp;D</p>', after: '<p>R&amp;D</p>', marked: true, changed: false });
    expect(markWordChanges('<p>R&amp;D</p>', '<p>R&amp;D!</p>').after).toBe('<p><ins>R&amp;D!</ins></p>');
  });

  it('says a change of spacing or markup alone is no word change', () => {
    expect(markWordChanges('<p>a  b</p>', '<p>a b</p>').changed).toBe(false);
    expect(markWordChanges('<p>a b</p>', '<p>a <strong>b</strong></p>')).toEqual(expect.objectContaining({ after: '<p>a <strong>b</strong></p>', changed: false }));
  });

  it('gives up marking past its bound (a rewrite), returning the versions as they were', () => {
    const a = `<p>${Array.from({ length: 300 }, (_, i) => `a${i}`).join(' ')}</p>`;
    const b = `<p>${Array.from({ length: 300 }, (_, i) => `b${i}`).join(' ')}</p>`;
    expect(markWordChanges(a, b, 100)).toEqual({ before: a, after: b, marked: false, changed: true });
    expect(markWordChanges(a, b).marked).toBe(true);
  });
});

describe('inlineWordChanges (a suggestion shown in place)', () => {
  it('marks both kinds in one version: the removed words in del where they stood, the added in ins', () => {
    const marks = inlineWordChanges('<h2>Numbers</h2><p>The engine computes Bernoulli numbers.</p>', '<h2>Numbers</h2><p>The engine tabulates Bernoulli numbers.</p>');
    expect(marks).toEqual({ html: '<h2>Numbers</h2><p>The engine <del>computes</del><ins>tabulates</ins> Bernoulli numbers.</p>', marked: true, changed: true });
  });

  it('keeps a removed element whole, marked as removed', () => {
    expect(inlineWordChanges('<p>a b</p><p>c d</p>', '<p>a b</p>').html).toBe('<p>a b</p><p><del>c d</del></p>');
  });

  it('shows changes only spaces apart as one: the old words, then the new ones', () => {
    expect(inlineWordChanges('<p>The engine computes Bernoulli numbers.</p>', '<p>The engine tabulates polynomials by differences.</p>').html).toBe(
      '<p>The engine <del>computes Bernoulli numbers.</del><ins>tabulates polynomials by differences.</ins></p>',
    );
    expect(inlineWordChanges('<p>It might compose elaborate pieces.</p>', '<p>It might compose scientific pieces.</p>').html).toBe(
      '<p>It might compose <del>elaborate</del><ins>scientific</ins> pieces.</p>',
    );
  });

  it('keeps only the words of removed text that ran across tags, so the markup is the new version\'s', () => {
    const { html } = inlineWordChanges('<p>a b</p><p>c d</p>', '<p>a b c d</p>');
    expect(html).toBe('<p>a b c d</p>');
    // A removed element that closes what it opens stays as it was.
    expect(inlineWordChanges('<p>a <strong>b</strong> c</p>', '<p>a x c</p>').html).toBe('<p>a <strong><del>b</del></strong><ins>x</ins> c</p>');
  });

  it('says when nothing differs, and when the versions differ too much to mark', () => {
    expect(inlineWordChanges('<p>same</p>', '<p>same</p>')).toEqual({ html: '<p>same</p>', marked: true, changed: false });
    const many = (word: string) => `<p>${Array.from({ length: 50 }, (_, i) => `${word}${i}`).join(' ')}</p>`;
    expect(inlineWordChanges(many('a'), many('b'), 10)).toEqual({ html: many('b'), marked: false, changed: true });
  });
});
