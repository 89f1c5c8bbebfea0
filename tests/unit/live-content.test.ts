/** The live document's content forms (src/plugins/quire/server/src/live/content.ts): HTML in and out of a Y.XmlFragment. */
import * as Y from 'yjs';
import { fillFragment, fragmentToHtml, renderedHtml, updateFragment } from '../../src/plugins/quire/server/src/live/content';

const fragmentOf = (html: string) => {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment('section');
  fillFragment(fragment, html);
  return { doc, fragment };
};

describe('live content', () => {
  it('keeps a space typed at the end of a paragraph through a store and a merge of an agent change elsewhere', () => {
    // What a store caught mid-typing ("on " before "and on."), then an agent's replaceText on that stored HTML.
    const { doc, fragment } = fragmentOf('<p>It might compose elaborate pieces.</p><p>The person types on </p>');
    expect(fragmentToHtml(fragment)).toBe('<p>It might compose elaborate pieces.</p><p>The person types on </p>');
    updateFragment(doc, fragment, '<p>It might compose scientific pieces.</p><p>The person types on </p>');
    expect(fragmentToHtml(fragment)).toBe('<p>It might compose scientific pieces.</p><p>The person types on </p>');
  });

  it('keeps runs of spaces a person typed', () => {
    expect(renderedHtml('<p>two  spaces and  more</p>')).toBe('<p>two  spaces and  more</p>');
  });

  it('reads Markdown\'s HTML (line breaks between blocks, in lists and in text) without stray paragraphs or spaces', () => {
    const html = '<h2>Music</h2>\n<p>It might <em>compose</em> <strong>elaborate</strong>\npieces.</p>\n<ul>\n<li>\n<p>one</p>\n</li>\n<li>two</li>\n</ul>\n<blockquote>\n<p>quoted</p>\n</blockquote>\n';
    expect(renderedHtml(html)).toBe('<h2>Music</h2><p>It might <em>compose</em> <strong>elaborate</strong> pieces.</p><ul><li><p>one</p></li><li><p>two</p></li></ul><blockquote><p>quoted</p></blockquote>');
  });

  it('keeps a code block\'s text exactly', () => {
    expect(renderedHtml('<pre><code>a\n  b\n</code></pre>')).toBe('<pre><code>a\n  b\n</code></pre>');
  });
});
