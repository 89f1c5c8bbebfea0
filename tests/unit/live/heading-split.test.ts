/**
 * A heading typed in a section (issue 31 point 5, CONTRACT 22): the server splits the section
 * where a heading at its own level or above starts (domain/markdown splitCanvasSection, what the
 * live store writes through the edit engine), a deeper heading stays inside; and the canvas puts
 * the caret where the person was typing, in the new section (canvas/useHeadingSplit).
 */
import { splitCanvasSection } from '../../../src/plugins/quire/server/src/domain/markdown';
import { caretAfterSplit } from '../../../src/plugins/quire/admin/src/canvas/useHeadingSplit';

const parts = (html: string, level: number) => splitCanvasSection({ html, level }).map(({ level: l, title, html: h }) => ({ level: l, title, html: h }));

describe('splitCanvasSection', () => {
  it('a heading at the section\'s level or above starts a new section with the text after it', () => {
    expect(parts('<h2>One</h2><p>Alpha.</p><h2>Two</h2><p>Beta.</p>', 2)).toEqual([
      { level: 2, title: 'One', html: '<h2>One</h2><p>Alpha.</p>' },
      { level: 2, title: 'Two', html: '<h2>Two</h2><p>Beta.</p>' },
    ]);
    expect(parts('<h2>One</h2><p>Alpha.</p><h1>Top</h1><p>Beta.</p><h2>Three</h2>', 2).map((p) => p.title)).toEqual(['One', 'Top', 'Three']);
  });

  it('a deeper heading stays inside, as do headings in a quote or a list', () => {
    expect(parts('<h2>One</h2><p>Alpha.</p><h3>Deeper</h3><p>Beta.</p><blockquote><h2>Quoted</h2></blockquote>', 2)).toEqual([
      { level: 2, title: 'One', html: '<h2>One</h2><p>Alpha.</p><h3>Deeper</h3><p>Beta.</p><blockquote><h2>Quoted</h2></blockquote>' },
    ]);
  });

  it('the section\'s level is its first heading\'s; without one, what it had; the text before the first heading splits at any heading', () => {
    expect(parts('<h3>Small</h3><p>a</p><h3>Also small</h3>', 1).map((p) => p.title)).toEqual(['Small', 'Also small']);
    expect(parts('<p>No heading left.</p><h3>Deeper</h3><h2>Same</h2>', 2).map((p) => p.title)).toEqual(['Deeper', 'Same']); // an html section's title is its first heading anywhere (canvasSection)
    expect(parts('<p>Before any heading.</p><h4>Any</h4><p>x</p>', 0).map((p) => [p.level, p.title])).toEqual([[0, ''], [4, 'Any']]);
  });
});

describe('caretAfterSplit', () => {
  it('a caret in a block that moved goes to the same block and offset of the new section', () => {
    const added = [{ section: 'B', blocks: 2 }, { section: 'C', blocks: 1 }];
    expect(caretAfterSplit(1, 3, 2, added)).toBeNull();
    expect(caretAfterSplit(2, 0, 2, added)).toEqual({ section: 'B', block: 0, offset: 0 });
    expect(caretAfterSplit(3, 5, 2, added)).toEqual({ section: 'B', block: 1, offset: 5 });
    expect(caretAfterSplit(4, 1, 2, added)).toEqual({ section: 'C', block: 0, offset: 1 });
    expect(caretAfterSplit(9, 1, 2, added)).toBeNull();
  });
});
