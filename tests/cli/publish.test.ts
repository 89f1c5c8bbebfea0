/**
 * `quire publish`, `quire unpublish` and `quire import` (and their `quire articles ...` forms)
 * as subprocesses against a listening server, with a local web page to import.
 */
import path from 'node:path';
import { bearer, type TestApp } from '../helpers/strapi';
import { cliOf, runJson, startCliWorld, writeFileIn, type CliOptions, type CliWorld } from '../helpers/cli';

let world: CliWorld;
let app: TestApp;
let base: string;
let key: string;
let dir: string;
let pagesOrigin: string;

const PAGE = `<!doctype html><html><head><title>A page worth keeping</title><link rel="canonical" href="/kept"></head><body>
<nav><a href="/">Site home</a> <a href="/archive">The archive of everything</a></nav>
<article><h1>A page worth keeping</h1>
${'<p>This is the body of a page that is worth keeping, long enough for the extractor to see it as the main content of the page. </p>'.repeat(4)}
<h2>Second part</h2><p>The second part of the page, with more words in it than the navigation has.</p></article>
<footer>Footer of the site</footer></body></html>`;

beforeAll(async () => {
  world = await startCliWorld('publish', () => (req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url === '/missing') res.statusCode = 404;
    res.end(req.url === '/missing' ? '<title>Missing</title>' : PAGE);
  });
  ({ app, base, key, dir, pagesOrigin } = world);
});
afterAll(() => world?.close());

const quire = (args: string[], options: CliOptions = {}) => cliOf(world)(args, options);

const quireJson = (args: string[], options: CliOptions = {}, expectCode = 0) => runJson(quire, args, options, expectCode);

const file = (name: string, content: string) => writeFileIn(dir, name, content);
const outline = async (id: string) => (await app.http.get(`/api/articles/${id}/outline`).set(bearer(key))).body.data.outline;

describe('quire import', () => {
  it('imports a Markdown file with front matter', async () => {
    const md = file('notes.md', '---\ntitle: From a file\npremise: Why.\n---\n## One\n\nFirst.\n\n## Two\n\nSecond.');
    const result = await quireJson(['import', md]);
    expect(result.success).toBe(true);
    expect(result.data.article).toEqual(expect.objectContaining({ title: 'From a file', sections: 2 }));
    expect(result.data.outline.map((s) => s.title)).toEqual(['One', 'Two']);
  });

  it('prints the new article and its outline for a person', async () => {
    const result = await quire(['import', file('person.md', '# Readable\n\nIntro.\n\n## Part\n\nText.')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Imported article [0-9a-f-]{36}: Readable\n2 sections, 3 words\n/);
    expect(result.stdout).toContain('Part');
  });

  it('takes .html files as HTML, and --html / --markdown decide for other names', async () => {
    const html = await quireJson(['import', file('page.html', '<h1>From HTML</h1><p>Some <strong>bold</strong> text.</p><h2>Next</h2><p>More.</p>')]);
    expect(html.data.article.title).toBe('From HTML');
    expect(html.data.outline.map((s) => `${s.level}:${s.title}`)).toEqual(['0:', '2:Next']);
    const forced = await quireJson(['import', file('page.txt', '<h2>Forced</h2><p>x</p>'), '--html', '--title', 'Forced HTML']);
    expect(forced.data.article.title).toBe('Forced HTML');
    expect(forced.data.outline.map((s) => s.title)).toEqual(['Forced']);
    const markdown = await quireJson(['import', file('literal.html', '# Literal\n\nText.'), '--markdown']);
    expect(markdown.data.article.title).toBe('Literal');
  });

  it('reads stdin with "-"', async () => {
    const result = await quireJson(['import', '-'], { input: '# From stdin\n\nPiped text.' });
    expect(result.data.article.title).toBe('From stdin');
  });

  it('imports a web page from its URL, as does articles import --from-url', async () => {
    const result = await quireJson(['import', `${pagesOrigin}/story`]);
    expect(result.data.article.title).toBe('A page worth keeping');
    expect(result.data.outline.map((s) => s.title)).toEqual(['', 'Second part']);
    const brief = (await app.http.get(`/api/articles/${result.data.article.id}/brief`).set(bearer(key))).body.data;
    expect(brief.notes).toEqual([expect.objectContaining({ kind: 'source', url: `${pagesOrigin}/kept` })]);
    const again = await quireJson(['articles', 'import', '--from-url', `${pagesOrigin}/story`, '--title', 'Kept twice']);
    expect(again.data.article.title).toBe('Kept twice');
  });

  it('exits with the server\'s error: 4 for a page that is not there, 2 for bad input', async () => {
    const missing = await quire(['import', `${pagesOrigin}/missing`]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/HTTP 404/);
    const json = await quireJson(['import', `${pagesOrigin}/missing`], {}, 4);
    expect(json).toEqual({ success: false, error: expect.objectContaining({ code: 'not-found' }) });
    const empty = await quire(['import', file('empty.md', '   ')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^Error: The Markdown must not be empty\. \(invalid-argument\)$/m);
    const both = await quire(['import', `${pagesOrigin}/story`, '--html']);
    expect(both.code).toBe(2);
    const absent = await quire(['import', path.join(dir, 'no-such-file.md')]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(/no such file/);
  });
});

describe('quire publish and unpublish', () => {
  let id: string;

  beforeAll(async () => {
    id = (await quireJson(['import', file('to-publish.md', '# Going public\n\nHello, ![dot](/uploads/dot.png) world.')])).data.article.id;
  });

  it('publish prints the public URLs; the page is there', async () => {
    const result = await quire(['publish', id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Published: ${base}/p/going-public\nMarkdown:  ${base}/p/going-public.md\n`);
    const page = await fetch(`${base}/p/going-public`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<img src="${base}/uploads/dot.png" alt="dot">`);
  });

  it('--json prints the envelope; articles publish is the same command', async () => {
    const result = await quireJson(['articles', 'publish', id]);
    expect(result.data).toEqual({ article: expect.objectContaining({ id, status: 'published' }), url: `${base}/p/going-public`, markdownUrl: `${base}/p/going-public.md` });
  });

  it('unpublish takes it down', async () => {
    const result = await quire(['unpublish', id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Unpublished ${id}; it is a draft again.\n`);
    expect((await fetch(`${base}/p/going-public`)).status).toBe(404);
    const json = await quireJson(['articles', 'unpublish', id]);
    expect(json.data.article.status).toBe('draft');
  });

  it('an unknown article exits 4', async () => {
    const result = await quire(['publish', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/No article/);
  });

  it('the round trip from the command line: publish, fetch the Markdown, import it', async () => {
    await quire(['publish', id]);
    const md = await (await fetch(`${base}/p/going-public.md`)).text();
    const imported = await quireJson(['import', '-'], { input: md });
    expect(imported.data.article.title).toBe('Going public');
    const strip = (o: any[]) => o.map(({ title, level, words }) => ({ title, level, words }));
    expect(strip(imported.data.outline)).toEqual(strip(await outline(id)));
  });

  it('help lists the top-level commands', async () => {
    const help = await quire(['--help']);
    expect(help.stdout).toMatch(/\n\s+publish <article>/);
    expect(help.stdout).toMatch(/\n\s+unpublish <article>/);
    expect(help.stdout).toMatch(/\n\s+import \[options\] \[source\]/);
  });
});
