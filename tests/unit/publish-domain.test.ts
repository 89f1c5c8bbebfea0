import { absoluteUrl, absolutizeHtml, absolutizeMarkdown } from '../../src/plugins/quire/server/src/domain/absolute-urls';
import { htmlToMarkdown } from '../../src/plugins/quire/server/src/domain/html-to-markdown';
import { PUBLIC_PAGE_CSP, renderPublicPage } from '../../src/plugins/quire/server/src/pages/public-page';
import { extractReadable } from '../../src/plugins/quire/server/src/domain/readable';
import { slugFromTitle, uniqueSlug } from '../../src/plugins/quire/server/src/domain/slug';

const BASE = 'https://quire.example/';

describe('absolute URLs', () => {
  it('resolves relative URLs and keeps absolute, fragment and mailto ones', () => {
    expect(absoluteUrl('/uploads/a.png', BASE)).toBe('https://quire.example/uploads/a.png');
    expect(absoluteUrl('uploads/a.png', 'https://quire.example')).toBe('https://quire.example/uploads/a.png');
    expect(absoluteUrl('https://other.example/x.png', BASE)).toBe('https://other.example/x.png');
    expect(absoluteUrl('#part-2', BASE)).toBe('#part-2');
    expect(absoluteUrl('mailto:a@b.c', BASE)).toBe('mailto:a@b.c');
    expect(absoluteUrl('//cdn.example/x.png', BASE)).toBe('https://cdn.example/x.png');
  });

  it('rewrites every image and link of an HTML fragment', () => {
    const html = absolutizeHtml('<p><img src="/uploads/a.png" alt="a"> <a href="/p/other">o</a> <a href="https://x.example/">x</a></p>', BASE);
    expect(html).toBe('<p><img src="https://quire.example/uploads/a.png" alt="a"> <a href="https://quire.example/p/other">o</a> <a href="https://x.example/">x</a></p>');
  });

  it('rewrites only the URLs of a Markdown document, byte for byte elsewhere', () => {
    const md = '# Title\n\n![cat](/uploads/cat.png "A cat") and [home](/p/home), [abs](https://a.example/x).\n\n[ref]: /uploads/ref.png\n\n```\n![not](/code/block.png)\n```';
    expect(absolutizeMarkdown(md, BASE)).toBe(
      '# Title\n\n![cat](https://quire.example/uploads/cat.png "A cat") and [home](https://quire.example/p/home), [abs](https://a.example/x).\n\n[ref]: https://quire.example/uploads/ref.png\n\n```\n![not](/code/block.png)\n```',
    );
  });
});

describe('HTML to Markdown', () => {
  it('keeps headings, lists, links, images, code, tables and emphasis', () => {
    const md = htmlToMarkdown(
      '<h2>Part <em>one</em></h2><p>Some <strong>bold</strong> and <a href="https://a.example/">a link</a>.</p>' +
        '<p><img src="https://a.example/i.png" alt="pic"></p><ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>' +
        '<pre><code class="language-js">const x = 1;\n</code></pre><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><p><del>gone</del></p>',
    );
    expect(md).toBe(
      '## Part *one*\n\nSome **bold** and [a link](https://a.example/).\n\n![pic](https://a.example/i.png)\n\n- one\n- two\n\n1. first\n2. second\n\n```js\nconst x = 1;\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n~gone~',
    );
  });

  it('drops scripts, styles and forms', () => {
    const md = htmlToMarkdown('<p>keep</p><script>alert(1)</script><style>p{}</style><form><input value="x"><button>go</button></form>');
    expect(md).toBe('keep');
  });
});

describe('readable extraction', () => {
  it('keeps the article and drops navigation, footers and scripts; finds the canonical URL', () => {
    const page = `<!doctype html><html><head><title>Site | A story</title><link rel="canonical" href="/stories/a-story">
      <script>window.evil = 1</script></head><body><nav><a href="/">Home</a> <a href="/about">About us</a></nav>
      <article><h1>A story</h1>${'<p>This paragraph is the body of the story and it is long enough to count as content for the extractor. </p>'.repeat(6)}
      <h2>Second part</h2><p>More words in the second part of the story, with <a href="/elsewhere">a link</a>.</p></article>
      <footer>Copyright footer text</footer><script>document.write('x')</script></body></html>`;
    const readable = extractReadable(page, 'https://news.example/s?id=1');
    expect(readable.canonicalUrl).toBe('https://news.example/stories/a-story');
    expect(readable.html).toContain('Second part');
    expect(readable.html).not.toMatch(/About us|Copyright footer|<script|window\.evil/);
    expect(readable.title).toMatch(/A story/);
  });
});

describe('public page', () => {
  it('is a complete, escaped document with canonical and OpenGraph tags', () => {
    const html = renderPublicPage({
      title: 'Fish & <Chips>',
      description: 'A "quoted" description',
      canonicalUrl: 'https://quire.example/p/fish-chips',
      markdownUrl: 'https://quire.example/p/fish-chips.md',
      imageUrl: 'https://quire.example/uploads/fish.png',
      publishedAt: '2026-11-22T10:00:00.000Z',
      sectionsHtml: ['<h2>One</h2><p>1</p>', '<h2>Two</h2><p>2</p>'],
    });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>Fish &amp; &lt;Chips&gt;</title>');
    expect(html).toContain('<link rel="canonical" href="https://quire.example/p/fish-chips">');
    expect(html).toContain('<meta property="og:title" content="Fish &amp; &lt;Chips&gt;">');
    expect(html).toContain('<meta property="og:image" content="https://quire.example/uploads/fish.png">');
    expect(html).toContain('content="A &quot;quoted&quot; description"');
    expect(html.indexOf('<h2>One</h2>')).toBeLessThan(html.indexOf('<h2>Two</h2>'));
    expect(PUBLIC_PAGE_CSP).toMatch(/default-src 'none'/);
    expect(PUBLIC_PAGE_CSP).not.toMatch(/unsafe-inline|script-src/);
  });
});

describe('slugs', () => {
  it('derives a readable slug and makes it unique', () => {
    expect(slugFromTitle('Hello, World: A Story!')).toBe('hello-world-a-story');
    expect(slugFromTitle('  ¿Qué pasó en Zürich?  ')).toBe('que-paso-en-zurich');
    expect(slugFromTitle('!!!')).toBe('article');
    expect(slugFromTitle('x'.repeat(200)).length).toBeLessThanOrEqual(80);
    expect(uniqueSlug('a', new Set(['a', 'a-2']))).toBe('a-3');
    expect(uniqueSlug('b', new Set(['a']))).toBe('b');
  });
});

describe('front matter', () => {
  const { splitFrontMatter } = require('../../src/plugins/quire/server/src/domain/front-matter');

  it('splits YAML front matter from the body', () => {
    const { data, body } = splitFrontMatter('---\ntitle: My story\npremise: Why it matters\nnotes:\n  - kind: source\n    title: Paper\n    url: https://a.example/\n---\n# Heading\n\nText');
    expect(data).toEqual({ title: 'My story', premise: 'Why it matters', notes: [{ kind: 'source', title: 'Paper', url: 'https://a.example/' }] });
    expect(body).toBe('# Heading\n\nText');
  });

  it('leaves a document without front matter alone, and accepts front matter only', () => {
    expect(splitFrontMatter('# Title\n---\nx')).toEqual({ data: {}, body: '# Title\n---\nx' });
    expect(splitFrontMatter('---\ntitle: Only\n---')).toEqual({ data: { title: 'Only' }, body: '' });
  });

  it('never runs code and refuses invalid YAML or a non-mapping', () => {
    (global as any).__pwned = false;
    const js = splitFrontMatter('---js\n{ title: (global.__pwned = true) }\n---\nbody');
    expect((global as any).__pwned).toBe(false);
    expect(js.data).toEqual({});
    expect(() => splitFrontMatter('---\ntitle: [unclosed\n---\nx')).toThrow(/not valid YAML/);
    expect(() => splitFrontMatter('---\n- a\n- b\n---\nx')).toThrow(/mapping/);
  });
});

describe('document title', () => {
  const { takeTitle } = require('../../src/plugins/quire/server/src/domain/document-title');

  it('takes a leading level-1 heading out of the body', () => {
    expect(takeTitle('# The *Title*\n\nIntro\n\n## Part')).toEqual({ title: 'The Title', body: 'Intro\n\n## Part' });
    expect(takeTitle('The Title\n=========\n\nIntro')).toEqual({ title: 'The Title', body: 'Intro' });
  });

  it('otherwise uses the first heading and keeps the body whole', () => {
    expect(takeTitle('Intro text\n\n## First part\n\nx')).toEqual({ title: 'First part', body: 'Intro text\n\n## First part\n\nx' });
    expect(takeTitle('```\n# not a heading\n```\n\n### Real')).toEqual({ title: 'Real', body: '```\n# not a heading\n```\n\n### Real' });
  });

  it('gives null when there is no heading', () => {
    expect(takeTitle('Just words.')).toEqual({ title: null, body: 'Just words.' });
    expect(takeTitle('')).toEqual({ title: null, body: '' });
  });
});
