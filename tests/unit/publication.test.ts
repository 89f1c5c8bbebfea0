import { absoluteUrl, absolutizeHtml } from '../../src/plugins/quire/server/src/domain/absolute-urls';
import { splitFrontMatter } from '../../src/plugins/quire/server/src/domain/front-matter';
import { htmlToMarkdown } from '../../src/plugins/quire/server/src/domain/html-to-markdown';
import { cleanTitle, htmlToImportMarkdown, resolveTitle, withoutTitleHeading } from '../../src/plugins/quire/server/src/domain/import-document';
import { renderMarkdown, sanitizeHtml, splitMarkdown } from '../../src/plugins/quire/server/src/domain/markdown';
import { buildPublication, isPublishableMarkdown } from '../../src/plugins/quire/server/src/domain/publication';
import { renderNotFoundPage } from '../../src/plugins/quire/server/src/pages/public-page';

describe('absolute URLs under a PUBLIC_URL with a path', () => {
  it('hangs root-relative URLs off the base path; protocol-relative ones stay other hosts', () => {
    expect(absoluteUrl('/uploads/a.png', 'https://example.com/quire')).toBe('https://example.com/quire/uploads/a.png');
    expect(absoluteUrl('/uploads/a.png', 'https://example.com/quire/')).toBe('https://example.com/quire/uploads/a.png');
    expect(absoluteUrl('uploads/a.png', 'https://example.com/quire')).toBe('https://example.com/quire/uploads/a.png');
    expect(absoluteUrl('//cdn.example/x.png', 'https://example.com/quire')).toBe('https://cdn.example/x.png');
    expect(absoluteUrl('/\\evil.example/x', 'https://example.com/quire')).toBe('https://evil.example/x');
    expect(absolutizeHtml('<img src="/uploads/a.png">', 'https://example.com/quire')).toBe('<img src="https://example.com/quire/uploads/a.png">');
  });
});

describe('HTML to Markdown: text stays text', () => {
  it('escapes "<" and character references found in text', () => {
    const md = htmlToMarkdown('<p>&lt;script&gt;alert(1)&lt;/script&gt; and &amp;copy; and a &amp; b</p>');
    expect(md).toBe('\\<script>alert(1)\\</script> and \\&copy; and a & b');
    expect(renderMarkdown(md)).toBe('<p>&#x3C;script>alert(1)&#x3C;/script> and &#x26;copy; and a &#x26; b</p>');
  });

  it('does not crash on a table without rows, and keeps captions apart', () => {
    expect(htmlToMarkdown('<p>a</p><table></table><table>text</table><p>b</p>')).toBe('a\n\ntext\n\nb');
    expect(htmlToMarkdown('<figure><img src="https://a.example/i.png" alt="i"><figcaption>The caption</figcaption></figure>')).toBe(
      '![i](https://a.example/i.png)\n\nThe caption',
    );
  });
});

describe('sanitizeHtml', () => {
  it('is the sections\' sanitiser', () => {
    expect(sanitizeHtml('<p onclick="x()">a<script>b</script><a href="javascript:c">d</a><img src="data:image/png;base64,AA"></p>')).toBe('<p>a<a>d</a><img></p>');
  });
});

describe('importing HTML', () => {
  it('takes the body, drops head, style and script contents, keeps the <title>', () => {
    const result = htmlToImportMarkdown(
      '<!doctype html><html><head><title> A  page </title><style>p{color:red}</style><script>x()</script></head>' +
        '<body><noscript>enable js</noscript><template><p>t</p></template><h2>Part</h2><p>Text <style>.a{}</style>here.</p><textarea>typed</textarea></body></html>',
    );
    expect(result).toEqual({ title: 'A page', markdown: '## Part\n\nText here.' });
  });

  it('a fragment has no title', () => {
    expect(htmlToImportMarkdown('<p>Just <em>this</em>.</p>')).toEqual({ title: null, markdown: 'Just *this*.' });
  });

  it('drops hostile URLs and handlers before converting', () => {
    const { markdown } = htmlToImportMarkdown('<p><a href="javascript:alert(1)">a</a> <img src="x" onerror="alert(2)" alt="b"> <a href="https://ok.example/">c</a></p>');
    expect(markdown).toBe('a ![b](x) [c](https://ok.example/)');
  });
});

describe('titles of imports', () => {
  it('cleanTitle collapses whitespace and cuts at 300 characters without splitting a character', () => {
    expect(cleanTitle('  a \n b  ')).toBe('a b');
    expect(cleanTitle('   ')).toBeNull();
    expect(cleanTitle(null)).toBeNull();
    const emoji = cleanTitle('😀'.repeat(400))!;
    expect(Array.from(emoji)).toHaveLength(300);
    expect(emoji).toBe('😀'.repeat(300));
  });

  it('an explicit title keeps the body whole', () => {
    expect(resolveTitle('# Heading\n\nText', { explicit: 'Given' })).toEqual({ title: 'Given', markdown: '# Heading\n\nText' });
  });

  it('a page title drops a leading heading that repeats it, and only that', () => {
    expect(resolveTitle('# The  Page\n\nText', { page: 'The page' })).toEqual({ title: 'The page', markdown: 'Text' });
    expect(resolveTitle('# Other\n\nText', { page: 'The page' })).toEqual({ title: 'The page', markdown: '# Other\n\nText' });
    expect(resolveTitle('# The page\n\nText', { explicit: 'Mine', page: 'The page' })).toEqual({ title: 'Mine', markdown: 'Text' });
    expect(withoutTitleHeading('## The page\n\nText', 'The page')).toBe('## The page\n\nText');
  });

  it('otherwise the leading level-1 heading, the first heading, or "Untitled"', () => {
    expect(resolveTitle('# Lead\n\nText', {})).toEqual({ title: 'Lead', markdown: 'Text' });
    expect(resolveTitle('Text\n\n### Later', {})).toEqual({ title: 'Later', markdown: 'Text\n\n### Later' });
    expect(resolveTitle('Text only', {})).toEqual({ title: 'Untitled', markdown: 'Text only' });
    expect(resolveTitle('', { explicit: '  ' })).toEqual({ title: 'Untitled', markdown: '' });
  });
});

describe('publishable Markdown', () => {
  it('is Markdown without raw HTML and without URLs the sanitiser would drop', () => {
    expect(isPublishableMarkdown('# A\n\n[b](https://b.example) ![c](/uploads/c.png) [d](mailto:d@e.f) [e](#top) [f](relative/page)')).toBe(true);
    expect(isPublishableMarkdown('Text with <b>raw</b> HTML')).toBe(false);
    expect(isPublishableMarkdown('<!-- a comment -->')).toBe(false);
    expect(isPublishableMarkdown('[x](javascript:alert(1))')).toBe(false);
    expect(isPublishableMarkdown('[x](&#106;avascript:alert(1))')).toBe(false);
    expect(isPublishableMarkdown('<javascript:alert(1)>')).toBe(false);
    expect(isPublishableMarkdown('![x](data:image/png;base64,AA)')).toBe(false);
    expect(isPublishableMarkdown('![x](mailto:a@b.c)')).toBe(false);
    expect(isPublishableMarkdown('[x][r]\n\n[r]: vbscript:msgbox')).toBe(false);
    expect(isPublishableMarkdown('```\n<script>in code</script>\n```')).toBe(true);
  });
});

describe('buildPublication', () => {
  const sectionOf = (markdown: string) => ({ ...splitMarkdown(markdown)[0] });
  const input = {
    title: 'On: anchors',
    slug: 'on-anchors',
    publicUrl: 'https://q.example/base/',
    publishedAt: '2026-11-22T10:00:00.000Z',
    sections: [
      sectionOf('Intro with ![cover](/uploads/cover.png) and [a link](/p/x).'),
      sectionOf('## Raw\n\n<p onclick="x()">Raw <b>bold</b> <img src="/uploads/raw.png" alt="raw"></p>'),
      { source: 'html', markdown: null, html: '<h2>Canvas</h2><p><a href="/p/y">y</a></p>' },
    ],
  };

  it('gives the public URLs from PUBLIC_URL and the slug', () => {
    const copy = buildPublication(input);
    expect(copy.url).toBe('https://q.example/base/p/on-anchors');
    expect(copy.markdownUrl).toBe('https://q.example/base/p/on-anchors.md');
  });

  it('builds the Markdown: front matter, clean sections as written, the others from their sanitised HTML', () => {
    const { markdown } = buildPublication(input);
    expect(markdown).toBe(
      [
        '---',
        'title: "On: anchors"',
        'description: Intro with cover and a link.',
        'date: 2026-11-22T10:00:00.000Z',
        'canonical_url: https://q.example/base/p/on-anchors',
        '---',
        '',
        'Intro with ![cover](https://q.example/base/uploads/cover.png) and [a link](https://q.example/base/p/x).',
        '',
        '## Raw',
        '',
        'Raw **bold** ![raw](https://q.example/base/uploads/raw.png)',
        '',
        '## Canvas',
        '',
        '[y](https://q.example/base/p/y)',
        '',
      ].join('\n'),
    );
    expect(splitFrontMatter(markdown).data).toEqual({
      title: 'On: anchors',
      description: 'Intro with cover and a link.',
      date: '2026-11-22T10:00:00.000Z',
      canonical_url: 'https://q.example/base/p/on-anchors',
    });
  });

  it('builds the page: sanitised sections with absolute URLs, the first image for OpenGraph', () => {
    const { html } = buildPublication(input);
    expect(html).toContain('<p>Intro with <img src="https://q.example/base/uploads/cover.png" alt="cover"> and <a href="https://q.example/base/p/x">a link</a>.</p>');
    expect(html).toContain('<p>Raw <b>bold</b> <img src="https://q.example/base/uploads/raw.png" alt="raw"></p>');
    expect(html).toContain('<meta property="og:image" content="https://q.example/base/uploads/cover.png">');
    expect(html).not.toContain('onclick');
  });

  it('cuts a long description at a word', () => {
    const long = buildPublication({ ...input, sections: [sectionOf(`${'word '.repeat(100)}end`)] });
    const description = /<meta name="description" content="([^"]*)">/.exec(long.html)![1];
    expect(description.length).toBeLessThanOrEqual(201);
    expect(description).toMatch(/^word( word)+…$/);
  });
});

describe('the not-found page', () => {
  it('is a complete page that names nothing', () => {
    const html = renderNotFoundPage();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>Not found</title>');
    expect(html).toContain('noindex');
  });
});
