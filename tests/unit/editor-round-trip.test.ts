/**
 * Tables, code blocks and strikethrough (the canvas toolbar's, issue 23 point 5) survive every
 * form a section takes: Markdown -> HTML -> the shared TipTap schema (the live document the
 * canvas edits) -> the HTML the server stores -> Markdown (`as=markdown`) -> HTML again.
 */
import { getSchema } from '@tiptap/core';
import { prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { htmlToMarkdown } from '../../src/plugins/quire/server/src/domain/html-to-markdown';
import { canvasSection, renderMarkdown } from '../../src/plugins/quire/server/src/domain/markdown';
import { fragmentToHtml, htmlToJSON } from '../../src/plugins/quire/server/src/live/content';
import { editorExtensions } from '../../src/plugins/quire/shared/editor-extensions';

/** What the canvas stores for some HTML: through a Y.XmlFragment of the shared schema, then sanitised. */
const throughCanvas = (html: string) => {
  const fragment = new Y.Doc().getXmlFragment('section');
  prosemirrorJSONToYXmlFragment(getSchema(editorExtensions()), htmlToJSON(html), fragment);
  return canvasSection(fragmentToHtml(fragment)).html;
};

/** The HTML's text per block, for comparing structures that differ only in wrappers (thead, p in cells). */
const cells = (html: string) => [...html.matchAll(/<(t[hd])\b[^>]*>([\s\S]*?)<\/\1>/g)].map(([, tag, body]) => `${tag}:${body.replace(/<[^>]+>/g, '').trim()}`);

const MARKDOWN = [
  '## Results',
  '',
  '| Name | Score |',
  '| --- | --- |',
  '| Ada | 3 \\| 4 |',
  '| Grace | 5 |',
  '',
  '```ts',
  'const total = 1 + 2;',
  '```',
  '',
  'This is ~gone~ now.',
].join('\n');

describe('table, code block and strikethrough round-trips', () => {
  const rendered = renderMarkdown(MARKDOWN);
  const stored = throughCanvas(rendered);

  test('the shared schema keeps them: what the canvas stores has the table, the code block and the strikethrough', () => {
    expect(stored).toContain('<table>');
    expect(cells(stored)).toEqual(['th:Name', 'th:Score', 'td:Ada', 'td:3 | 4', 'td:Grace', 'td:5']);
    expect(stored).toContain('<pre><code class="language-ts">const total = 1 + 2;\n</code></pre>');
    expect(stored).toMatch(/<s>gone<\/s>/);
    // Styles (column widths) are the editor's, not content: the sanitiser drops them.
    expect(stored).not.toMatch(/style=|colgroup/);
  });

  test('as Markdown: a GFM table (header row, escaped pipe), a fenced block with its language, ~strikethrough~ (GFM takes one tilde or two)', () => {
    const markdown = htmlToMarkdown(stored);
    expect(markdown).toBe(MARKDOWN);
  });

  test('and back: the Markdown renders to the same table, code and strikethrough', () => {
    const again = renderMarkdown(htmlToMarkdown(stored));
    expect(cells(again)).toEqual(cells(rendered));
    expect(again).toContain('<pre><code class="language-ts">const total = 1 + 2;\n</code></pre>');
    expect(again).toContain('<del>gone</del>');
    expect(throughCanvas(again)).toBe(stored);
  });

  test('a cell of several paragraphs stays one table row (joined by <br>)', () => {
    const html = '<table><tbody><tr><th><p>A</p></th></tr><tr><td><p>one</p><p>two</p></td></tr></tbody></table>';
    expect(htmlToMarkdown(html)).toBe('| A |\n| --- |\n| one<br>two |');
  });
});
