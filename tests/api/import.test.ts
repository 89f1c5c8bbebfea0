/**
 * POST /api/articles/import: Markdown (with front matter), HTML, and web pages from a local
 * fixture site; titles, limits, hostile input, and the round trip through a published
 * article's Markdown.
 */
import fs from 'node:fs';
import path from 'node:path';
import { client, markdownUrls, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { startServer, type TestServer } from '../helpers/servers';
import { createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

const PUBLIC_URL = 'https://quire.example';
const RATE_LIMIT = 4;

let app: TestApp;
let ada: TestUser;
let api: Client;
let site: TestServer; // exempted through UNFURL_ALLOWED_PRIVATE_HOSTS
let elsewhere: TestServer; // not exempted: must never be reached

const story = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'import', 'story.html'), 'utf8');

beforeAll(async () => {
  elsewhere = await startServer();
  site = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const html = (body: string, status = 200) => {
      res.statusCode = status;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(body);
    };
    switch (url.pathname) {
      case '/stories/tide-pools':
        return html(story);
      case '/moved':
        res.statusCode = 301;
        res.setHeader('location', '/stories/tide-pools?from=moved');
        return res.end();
      case '/plain':
        return html(`<html><body><p>${'A page with no title, no canonical link and no heading at all, only words. '.repeat(5)}</p></body></html>`);
      case '/to-elsewhere':
        res.statusCode = 302;
        res.setHeader('location', `${elsewhere.origin}/secret`);
        return res.end();
      case '/gone':
        return html('<title>Gone</title>', 410);
      case '/data.json':
        res.setHeader('content-type', 'application/json');
        return res.end('{"title":"not a page"}');
      case '/deep': // Readability needs minutes for this: the conversion deadline stops it
        return html(`<html><body>${'<div>'.repeat(1500)}deep${'</div>'.repeat(1500)}</body></html>`);
      default:
        return html('<title>Not here</title>', 404);
    }
  });
  app = await startApp({
    PUBLIC_URL,
    UNFURL_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${site.port}`,
    IMPORT_RATE_LIMIT: String(RATE_LIMIT),
    IMPORT_TIMEOUT_MS: '8000',
  });
  ada = await registerUser(app, 'ada');
  api = client(app, await createKey(app, ada));
});
afterAll(async () => {
  await app?.close();
  await site?.close();
  await elsewhere?.close();
});

/** A new user's client: URL imports are rate limited per user. */
const freshClient = async () => client(app, await createKey(app, await registerUser(app, 'fresh')));

async function importOk(body: Record<string, unknown>, c: Client = api) {
  const res = await c.post('/api/articles/import', body);
  expect({ status: res.status, body: res.status === 201 ? 'ok' : res.body }).toEqual({ status: 201, body: 'ok' });
  expect(Object.keys(res.body.data).sort()).toEqual(['article', 'outline']);
  return res.body.data as { article: any; outline: Array<{ anchor: string; level: number; title: string; words: number; source: string }> };
}

const shape = (outline: Array<{ level: number; title: string }>) => outline.map((s) => `${s.level}:${s.title}`);

async function sectionsOf(id: string, c: Client = api) {
  const outline = (await c.get(`/api/articles/${id}/outline`)).body.data.outline;
  return Promise.all(outline.map(async (s) => (await c.get(`/api/articles/${id}/sections/${s.anchor}`)).body.data.section));
}

const brief = async (id: string, c: Client = api) => (await c.get(`/api/articles/${id}/brief`)).body.data;

describe('importing Markdown', () => {
  it('reads YAML front matter: title, premise and notes; other keys are ignored', async () => {
    const markdown = [
      '---',
      'title: Field notes',
      'premise: Shade matters more than size.',
      'date: 2024-05-01',
      'tags: [tide, pools]',
      'notes:',
      '  - kind: source',
      '    title: Our raw counts',
      '    url: https://data.example.org/tide-pools.csv',
      '  - kind: idea',
      '    title: Count at night',
      '    body: Crabs come out *after dark*.',
      '---',
      '# Introduction',
      '',
      'Why we counted.',
      '',
      '## Method',
      '',
      'How we counted.',
    ].join('\n');
    const { article, outline } = await importOk({ markdown });
    expect(article).toEqual(expect.objectContaining({ title: 'Field notes', status: 'draft', sections: 2, publishedAt: null }));
    // The front matter gave the title, so the leading heading stays a section.
    expect(shape(outline)).toEqual(['1:Introduction', '2:Method']);
    expect(outline.every((s) => s.source === 'markdown')).toBe(true);
    const b = await brief(article.id);
    expect(b.premise).toBe('Shade matters more than size.');
    expect(b.notes.map(({ anchor, ...n }) => n)).toEqual([
      { kind: 'source', title: 'Our raw counts', body: null, url: 'https://data.example.org/tide-pools.csv', createdBy: 'agent', html: '' },
      { kind: 'idea', title: 'Count at night', body: 'Crabs come out *after dark*.', url: null, createdBy: 'agent', html: '<p>Crabs come out <em>after dark</em>.</p>' },
    ]);
    const sections = await sectionsOf(article.id);
    expect(sections[0].markdown).toBe('# Introduction\n\nWhy we counted.');
  });

  it('notes are "human" when the import came with a session (JWT)', async () => {
    const human = client(app, ada.jwt);
    const { article } = await importOk({ markdown: '---\nnotes:\n  - {kind: question, title: Why?}\n---\nText.' }, human);
    expect((await brief(article.id)).notes[0]).toEqual(expect.objectContaining({ title: 'Why?', createdBy: 'human' }));
  });

  it('takes the title from a leading level-1 heading, which leaves the body', async () => {
    const { article, outline } = await importOk({ markdown: '# The *Title*\n\nIntro words.\n\n## Part one\n\nMore.' });
    expect(article.title).toBe('The Title');
    expect(shape(outline)).toEqual(['0:', '2:Part one']);
    expect((await sectionsOf(article.id))[0].markdown).toBe('Intro words.');
  });

  it('else from the first heading, which stays in the body', async () => {
    const { article, outline } = await importOk({ markdown: 'Intro words.\n\n## Part one\n\nMore.\n\n## Part two' });
    expect(article.title).toBe('Part one');
    expect(shape(outline)).toEqual(['0:', '2:Part one', '2:Part two']);
  });

  it('a request title overrides the front matter, which overrides the heading', async () => {
    const both = await importOk({ markdown: '---\ntitle: From front matter\n---\n# From heading\n\nText.', title: '  From request  ' });
    expect(both.article.title).toBe('From request');
    expect(shape(both.outline)).toEqual(['1:From heading']);
    const front = await importOk({ markdown: '---\ntitle: From front matter\n---\n# From heading\n\nText.' });
    expect(front.article.title).toBe('From front matter');
    const request = await importOk({ markdown: '# From heading\n\nText.', title: 'From request' });
    expect(request.article.title).toBe('From request');
    expect(shape(request.outline)).toEqual(['1:From heading']);
  });

  it('no headings at all: "Untitled", one level-0 section', async () => {
    const { article, outline } = await importOk({ markdown: 'Just a paragraph of words.\n\nAnd another one.' });
    expect(article.title).toBe('Untitled');
    expect(outline).toEqual([expect.objectContaining({ level: 0, title: '', words: 8 })]);
  });

  it('only front matter: the titled article has one empty section', async () => {
    const { article, outline } = await importOk({ markdown: '---\ntitle: Only front matter\npremise: Later.\n---\n' });
    expect(article).toEqual(expect.objectContaining({ title: 'Only front matter', sections: 1, words: 0 }));
    expect(outline).toEqual([{ anchor: expect.any(String), level: 0, title: '', words: 0, source: 'markdown' }]);
    expect((await brief(article.id)).premise).toBe('Later.');
  });

  it('a heading alone: the title, and one empty section', async () => {
    const { article, outline } = await importOk({ markdown: '# Just a title' });
    expect(article.title).toBe('Just a title');
    expect(shape(outline)).toEqual(['0:']);
  });

  it('a byte-order mark does not hide the front matter', async () => {
    const { article } = await importOk({ markdown: '\uFEFF---\ntitle: With BOM\n---\nText.' });
    expect(article.title).toBe('With BOM');
  });

  it('a long heading is cut to 300 characters for the title', async () => {
    const { article } = await importOk({ markdown: `# ${'word '.repeat(100)}\n\nText.` });
    expect(article.title.length).toBeLessThanOrEqual(300);
    expect(article.title.startsWith('word word')).toBe(true);
  });

  it('never runs a ---js block: it is plain text', async () => {
    (global as any).__pwned = false;
    const { article, outline } = await importOk({ markdown: '---js\n{ title: (global.__pwned = true, "x") }\n---\n# Safe\n\nText.' });
    expect((global as any).__pwned).toBe(false);
    // As Markdown, the block is a setext heading: its text is the first heading's.
    expect(article.title).toBe('---js { title: (global.__pwned = true, "x") }');
    expect(shape(outline)).toEqual(['2:---js { title: (global.__pwned = true, "x") }', '1:Safe']);
  });

  it('refuses invalid front matter, naming the field', async () => {
    const cases: Array<[string, RegExp]> = [
      ['---\ntitle: [unclosed\n---\nx', /front matter is not valid YAML/],
      ['---\n- a\n- b\n---\nx', /front matter must be a YAML mapping/],
      ['---\nnotes:\n  - kind: rumour\n    title: x\n---\nx', /^markdown front matter: notes\.0\.kind must be one of source, decision, idea, question\.$/],
      ['---\nnotes:\n  - kind: idea\n---\nx', /^markdown front matter: notes\.0\.title is required\.$/],
      ['---\nnotes:\n  - kind: source\n    title: x\n    url: ftp://files.example\n---\nx', /notes\.0\.url: The link must be a full web address that starts with http:\/\/ or https:\/\//],
      ['---\nnotes: just text\n---\nx', /^markdown front matter: notes must be an array\.$/],
      [`---\ntitle: ${'x'.repeat(301)}\n---\nx`, /^markdown front matter: title must be at most 300 characters\.$/],
      ['---\npremise: [1, 2]\n---\nx', /^markdown front matter: premise must be a string or null\.$/],
    ];
    for (const [markdown, message] of cases) {
      const error = expectFailure(await api.post('/api/articles/import', { markdown }), 400, 'invalid-argument');
      expect({ markdown, message: error.message }).toEqual({ markdown, message: expect.stringMatching(message) });
      expect(error.nextAction).toBeTruthy();
    }
  });
});

describe('importing HTML', () => {
  const RICH = `<!doctype html><html><head><title>A rich document</title><style>p { color: red }</style></head><body>
    <h1>A rich document</h1>
    <p>Some <strong>bold</strong>, <em>emphasis</em>, <del>gone</del> and <a href="https://a.example/">a link</a>.</p>
    <h2>Lists</h2><ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>
    <h2>Media and code</h2><p><img src="https://a.example/i.png" alt="pic"></p>
    <pre><code class="language-js">const x = 1;\n</code></pre>
    <h3>A table</h3><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>
  </body></html>`;

  it('converts to Markdown-canonical sections, keeping headings, lists, links, images, code, tables, emphasis', async () => {
    const { article, outline } = await importOk({ html: RICH });
    // The <title>, and its repetition as the first heading is dropped.
    expect(article.title).toBe('A rich document');
    expect(shape(outline)).toEqual(['0:', '2:Lists', '2:Media and code', '3:A table']);
    expect(outline.every((s) => s.source === 'markdown')).toBe(true);
    const md = (await sectionsOf(article.id)).map((s) => s.markdown);
    expect(md).toEqual([
      'Some **bold**, *emphasis*, ~gone~ and [a link](https://a.example/).',
      '## Lists\n\n- one\n- two\n\n1. first\n2. second',
      '## Media and code\n\n![pic](https://a.example/i.png)\n\n```js\nconst x = 1;\n```',
      '### A table\n\n| a | b |\n| --- | --- |\n| 1 | 2 |',
    ]);
    expect(md.join('')).not.toContain('color: red');
  });

  it('an HTML fragment without <title> takes its title like Markdown does', async () => {
    const lead = await importOk({ html: '<h1>Fragment title</h1><p>Body text.</p>' });
    expect([lead.article.title, shape(lead.outline)]).toEqual(['Fragment title', ['0:']]);
    const none = await importOk({ html: '<p>No heading here.</p>' });
    expect(none.article.title).toBe('Untitled');
    const titled = await importOk({ html: '<h1>Kept</h1><p>Body.</p>', title: 'Given' });
    expect([titled.article.title, shape(titled.outline)]).toEqual(['Given', ['1:Kept']]);
  });

  it('hostile HTML: nothing executable survives, into the Markdown or the HTML', async () => {
    const hostile = [
      '<h2>Hostile</h2>',
      '<script>alert(1)</script><SCRIPT SRC=http://x/xss.js></SCRIPT>',
      '<p><img src=x onerror=alert(2)> <IMG SRC=JaVaScRiPt:alert(3)> <img src="data:image/svg+xml;base64,PHN2Zz4=" alt="d"></p>',
      '<p><a href="javascript:alert(4)">js</a> <a href="JaVaScRiPt:alert(5)">js2</a> <a href="&#106;avascript:alert(6)">js3</a> <a href="jav&#x09;ascript:alert(7)">js4</a></p>',
      '<iframe srcdoc="<script>alert(8)</script>"></iframe><object data="javascript:alert(9)"></object>',
      '<svg><script>alert(10)</script><animateTransform onbegin=alert(11)></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(12)></style></mglyph></table></mtext></math>',
      '<form><button formaction=javascript:alert(13)>go</button></form><details open ontoggle=alert(14)><summary>s</summary>d</details>',
      '<div style="background:url(javascript:alert(15))">styled</div><style>body{background:url(javascript:alert(16))}</style>',
      '<meta http-equiv="refresh" content="0;url=javascript:alert(17)"><base href="javascript:alert(18)//">',
      '<p>&lt;script&gt;alert(19)&lt;/script&gt; is text, and so is &amp;copy; and [x](javascript:alert(20))</p>',
    ].join('\n');
    const { article } = await importOk({ html: hostile });
    const sections = await sectionsOf(article.id);
    const markdown = sections.map((s) => s.markdown).join('\n\n');
    const html = sections.map((s) => s.html).join('\n');
    // The Markdown has no raw HTML, and no link or image that is not http(s) or relative.
    const { urls, rawHtml } = markdownUrls(markdown);
    expect(rawHtml).toBe(false);
    expect(urls.filter((u) => /^[a-z][a-z0-9+.-]*:/i.test(u) && !/^https?:/i.test(u))).toEqual([]);
    // The rendered HTML has no dangerous element, attribute or URL.
    expect(html).not.toMatch(/<(script|iframe|object|embed|svg|math|style|form|button|meta|base|input)\b/i);
    expect(html).not.toMatch(/<[a-z][^>]*\s(on[a-z]+|style|formaction|srcdoc)=/i);
    expect(html).not.toMatch(/(href|src)="\s*(javascript|data|vbscript):/i);
    expect(markdown + html).not.toMatch(/alert\((1|8|10|12|16)\)|color: red|background:url/);
    // Escaped markup in the source stays text: shown, not run, not dropped.
    expect(markdown).toContain('\\<script>alert(19)\\</script> is text, and so is \\&copy; and \\[x\\](javascript:alert(20))');
    expect(html).toContain('&#x3C;script>alert(19)&#x3C;/script> is text, and so is &#x26;copy; and [x](javascript:alert(20))');
  });
});

describe('limits and edge cases', () => {
  it('a huge document (1,500 sections) imports whole', async () => {
    const { article, outline } = await importOk({ markdown: `# Huge\n\n${sectionsDoc(1500)}` });
    expect(article).toEqual(expect.objectContaining({ title: 'Huge', sections: 1500 }));
    expect(outline[1499].title).toBe('S1500');
    const html = Array.from({ length: 1200 }, (_, i) => `<h2>H${i + 1}</h2><p>Body ${i + 1}.</p>`).join('');
    const fromHtml = await importOk({ html, title: 'Huge HTML' });
    expect(fromHtml.article.sections).toBe(1200);
  });

  it('over the limits: 400 naming the field', async () => {
    const markdown = expectFailure(await api.post('/api/articles/import', { markdown: 'x'.repeat(2_000_001) }), 400, 'invalid-argument');
    expect(markdown.message).toBe('markdown: The Markdown is 2,000,001 characters long; one request takes at most 2,000,000.');
    expect(markdown.nextAction).toMatch(/^Split the text at headings/);
    const html = expectFailure(await api.post('/api/articles/import', { html: 'x'.repeat(2_000_001) }), 400, 'invalid-argument');
    expect(html.message).toBe('html: The HTML is 2,000,001 characters long; one request takes at most 2,000,000.');
    // Within the HTML limit, but its Markdown (every "*" escaped) is not.
    const grows = expectFailure(await api.post('/api/articles/import', { html: `<p>${'*'.repeat(1_100_000)}</p>` }), 400, 'invalid-argument');
    expect(grows.message).toBe('html converts to more than 2,000,000 characters of Markdown.');
  });

  it('nesting too deep to parse: 400, not a crash', async () => {
    const html = expectFailure(await api.post('/api/articles/import', { html: `${'<div>'.repeat(30000)}x` }), 400, 'invalid-argument');
    expect(html.message).toBe('html is nested too deeply to import.');
    const md = expectFailure(await api.post('/api/articles/import', { markdown: `${'>'.repeat(10000)} x` }), 400, 'invalid-argument');
    expect(md.message).toMatch(/^The Markdown is nested too deeply at line 1:/);
  });

  it('validates the body', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'One of markdown, html or url is required.'],
      [{ title: 'Only a title' }, 'One of markdown, html or url is required.'],
      [{ markdown: '# a', html: '<p>b</p>' }, 'Pass only one of markdown, html or url (got markdown and html).'],
      [{ markdown: 5 }, 'markdown must be a string.'],
      [{ markdown: '  \n ' }, 'markdown must not be empty.'],
      [{ html: '' }, 'html must not be empty.'],
      [{ url: '' }, 'url must not be empty.'],
      [{ markdown: '# a', title: '' }, 'title must not be empty.'],
      [{ markdown: '# a', premise: 'p' }, 'Unknown field: premise.'],
      [[{ markdown: '# a' }], 'body must be an object.'],
    ];
    for (const [body, message] of cases) {
      const error = expectFailure(await api.post('/api/articles/import', body), 400, 'invalid-argument');
      expect({ body, message: error.message }).toEqual({ body, message });
    }
  });

  it('needs a credential; the article belongs to the caller only', async () => {
    expectFailure(await app.http.post('/api/articles/import').send({ markdown: '# x' }), 401, 'unauthenticated');
    const { article } = await importOk({ markdown: '# Mine\n\nText.' });
    const bob = await freshClient();
    expectFailure(await bob.get(`/api/articles/${article.id}`), 404, 'not-found');
    expect((await api.get(`/api/articles/${article.id}`)).status).toBe(200);
  });
});

describe('importing a web page', () => {
  it('imports the main content of the page; navigation, footers and scripts stay out', async () => {
    const c = await freshClient();
    const { article, outline } = await importOk({ url: `${site.origin}/stories/tide-pools?utm_source=test` }, c);
    expect(article.title).toBe('Field notes on tide pools');
    expect(shape(outline)).toEqual(['0:', '2:How we counted', '2:What we found']);
    const sections = await sectionsOf(article.id, c);
    const markdown = sections.map((s) => s.markdown).join('\n\n');
    expect(markdown).not.toMatch(/Home page of the gazette|newsletter|masthead|Related stories|Copyright|site-tracking-script|injected-by-inline-script|font-family/);
    expect(markdown).not.toMatch(/javascript:|onerror|<script/i);
    // Relative URLs of the page are resolved against it.
    expect(markdown).toContain(`![A green anemone](${site.origin}/stories/images/anemone.jpg)`);
    expect(markdown).toContain(`[counting protocol](${site.origin}/methods/counting)`);
    expect(markdown).toContain('| Shaded | 41 |');
    expect(markdown).toContain('```python\naverage = sum(counts) / len(counts)\n```');
    expect(markdown).toContain('*waterproof*');
    expect(sections.every((s) => s.source === 'markdown')).toBe(true);
    // The page's canonical URL becomes a source note.
    const notes = (await brief(article.id, c)).notes;
    expect(notes.map(({ anchor, ...n }) => n)).toEqual([
      { kind: 'source', title: 'Field notes on tide pools', body: null, url: `${site.origin}/stories/tide-pools`, createdBy: 'agent', html: '' },
    ]);
  });

  it('follows redirects; a request title wins over the page\'s', async () => {
    const c = await freshClient();
    const { article } = await importOk({ url: `${site.origin}/moved`, title: 'My own title' }, c);
    expect(article.title).toBe('My own title');
    const notes = (await brief(article.id, c)).notes;
    expect(notes[0]).toEqual(expect.objectContaining({ title: 'Field notes on tide pools', url: `${site.origin}/stories/tide-pools` }));
  });

  it('a page without title or canonical link: "Untitled", the fetched URL as source', async () => {
    const c = await freshClient();
    const { article, outline } = await importOk({ url: `${site.origin}/plain` }, c);
    expect(article.title).toBe('Untitled');
    expect(outline).toHaveLength(1);
    expect((await brief(article.id, c)).notes[0]).toEqual(expect.objectContaining({ kind: 'source', title: '127.0.0.1', url: `${site.origin}/plain` }));
  });

  it('fails like the link preview: blocked 400, non-OK 404, not HTML 500', async () => {
    const c = await freshClient();
    const hits = elsewhere.hits;
    const blocked = expectFailure(await c.post('/api/articles/import', { url: `${elsewhere.origin}/secret` }), 400, 'invalid-argument');
    expect(blocked.message).toBe('url: The URL points to a local or private-network address, which cannot be fetched.');
    const hop = expectFailure(await c.post('/api/articles/import', { url: `${site.origin}/to-elsewhere` }), 400, 'invalid-argument');
    expect(hop.message).toBe(blocked.message);
    expect(elsewhere.hits).toBe(hits);
    expectFailure(await c.post('/api/articles/import', { url: 'file:///etc/passwd' }), 400, 'invalid-argument');
    const c2 = await freshClient();
    expect(expectFailure(await c2.post('/api/articles/import', { url: `${site.origin}/gone` }), 404, 'not-found').message).toBe('The link answered HTTP 410.');
    expect(expectFailure(await c2.post('/api/articles/import', { url: `${site.origin}/data.json` }), 500, 'internal').message).toBe(
      'The link could not be fetched: it is not an HTML page.',
    );
    const deep = expectFailure(await c2.post('/api/articles/import', { url: `${site.origin}/deep` }), 400, 'invalid-argument');
    expect(deep.message).toBe('url: the page is too complex to import (it could not be converted within 8 seconds).');
  });

  it('says so when the server cannot reach the site (and nothing is created)', async () => {
    const c = await freshClient();
    const before = (await c.get('/api/articles')).body.data.articles.length;
    const error = expectFailure(await c.post('/api/articles/import', { url: 'https://quire-import-test.invalid/post' }), 500, 'internal');
    expect(error.message).toBe('The server could not reach quire-import-test.invalid: no DNS answer.');
    expect(error.nextAction).toMatch(/^Check the URL .*outbound network/);
    expect((await c.get('/api/articles')).body.data.articles).toHaveLength(before);
  });

  it('is rate limited per user', async () => {
    const c = await freshClient();
    for (let i = 0; i < RATE_LIMIT; i += 1) expect((await c.post('/api/articles/import', { url: `${site.origin}/gone` })).status).toBe(404);
    const res = await c.post('/api/articles/import', { url: `${site.origin}/gone` });
    expectFailure(res, 429, 'rate-limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['ratelimit-policy']).toBe(`"import-url";q=${RATE_LIMIT};w=60`);
    expect(res.headers.ratelimit).toBe(`"import-url";r=0;t=${res.headers['retry-after']}`);
    // Markdown and HTML imports are not counted; other users are not affected.
    await importOk({ markdown: '# Still fine' }, c);
    await importOk({ url: `${site.origin}/plain` }, await freshClient());
  });
});

describe('the round trip: a published article\'s Markdown imports to the same outline', () => {
  it('keeps titles, levels and word counts', async () => {
    const markdown = [
      'An opening paragraph before any heading, with a ![figure](/uploads/figure.png) and [a link](/p/other).',
      '',
      '# Part one',
      '',
      'Words in part one, with *emphasis*, `code` and a [reference link][ref].',
      '',
      '[ref]: /p/reference',
      '',
      '## A list',
      '',
      '- first item',
      '- second item with **bold**',
      '  - nested item',
      '',
      '### Code and a table',
      '',
      '```ts',
      'const answer = 42;',
      '```',
      '',
      '| a | b |',
      '| - | - |',
      '| 1 | 2 |',
      '',
      '## Raw HTML',
      '',
      '<p>Raw <b>HTML</b> paragraph <img src="/uploads/raw.png" alt="raw image">.</p>',
      '',
      '## 潮池 と 日本語',
      '',
      '潮だまりには小さな生き物がたくさんいます。Tide pools hold many small creatures.',
      '',
      '> A quotation at the end.',
    ].join('\n');
    const created = await newArticle(api, { title: 'Round trip: there and back', markdown, premise: 'Private premise.' });
    const id = created.article.id;
    const outline = (await api.get(`/api/articles/${id}/outline`)).body.data.outline;
    const list = outline.find((s) => s.title === 'A list');
    // A canvas section too.
    await api.patch(`/api/articles/${id}/sections/${list.anchor}`, {
      html: '<h2>A list</h2><ul><li>first item</li><li>second item with <strong>bold</strong><ul><li>nested item</li></ul></li></ul>',
    });
    const before = (await api.get(`/api/articles/${id}/outline`)).body.data.outline;
    expect(before.map((s) => s.source)).toContain('html');

    const published = (await api.post(`/api/articles/${id}/publish`)).body.data;
    const md = await app.http.get(new URL(published.markdownUrl).pathname);
    expect(md.status).toBe(200);
    expect(md.text).not.toContain('Private premise.');

    const imported = await importOk({ markdown: md.text });
    expect(imported.article.title).toBe('Round trip: there and back');
    const fields = (o: any[]) => o.map(({ title, level, words }) => ({ title, level, words }));
    expect(fields(imported.outline)).toEqual(fields(before));
    expect(imported.article.words).toBe(created.article.words);
    expect(imported.outline.every((s) => s.source === 'markdown')).toBe(true);
    // Its images now point at the server that published them.
    const sections = await sectionsOf(imported.article.id);
    expect(sections[0].markdown).toContain(`![figure](${PUBLIC_URL}/uploads/figure.png)`);
    expect(sections.find((s) => s.title === 'Raw HTML').markdown).toContain(`![raw image](${PUBLIC_URL}/uploads/raw.png)`);
  });
});
