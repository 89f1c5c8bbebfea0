/**
 * POST/DELETE /api/articles/{id}/publish and the public copies at /p/{slug} and /p/{slug}.md:
 * snapshots, republishing, taking down, slugs, absolute URLs, sanitising, the page's headers.
 */
import { splitFrontMatter } from '../../src/plugins/quire/server/src/domain/front-matter';
import { PUBLIC_PAGE_CSP } from '../../src/plugins/quire/server/src/pages/public-page';
import { client, markdownUrls, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

// PUBLIC_URL with a path, as behind a proxy that serves Quire under /blog.
const PUBLIC_URL = 'https://quire.example/blog';

let app: TestApp;
let ada: TestUser;
let api: Client;
let other: Client;

beforeAll(async () => {
  app = await startApp({ PUBLIC_URL });
  ada = await registerUser(app, 'ada');
  api = client(app, await createKey(app, ada));
  other = client(app, await createKey(app, await registerUser(app, 'bob')));
});
afterAll(() => app?.close());

/** The public path of a public URL (the proxy strips PUBLIC_URL's path). */
const pathOf = (url: string) => {
  expect(url.startsWith(`${PUBLIC_URL}/p/`)).toBe(true);
  return url.slice(PUBLIC_URL.length);
};
const getPublic = (url: string) => app.http.get(pathOf(url));

async function publish(id: string) {
  const res = await api.post(`/api/articles/${id}/publish`);
  expect([res.status, res.body.success]).toEqual([200, true]);
  expect(Object.keys(res.body.data).sort()).toEqual(['article', 'markdownUrl', 'url']);
  return res.body.data as { article: any; url: string; markdownUrl: string };
}

/** Every src and href of an HTML document. */
const htmlUrls = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]);

const ABSOLUTE = /^(https:\/\/|mailto:|#)/;

const DRAFT = [
  'Opening words with a ![relative image](/uploads/cover.png "Cover") and a [relative link](/p/elsewhere).',
  '',
  '## Reference images',
  '',
  'A ![by reference][fig] and an [absolute link](https://other.example/page) and [mail](mailto:ada@example.com).',
  '',
  '[fig]: /uploads/figure.png',
  '',
  '## Raw HTML',
  '',
  '<p><img src="/uploads/raw.png" alt="raw"> <a href="relative/page">relative</a></p>',
  '',
  '## Hostile',
  '',
  '[click](javascript:alert(1)) <script>alert(2)</script> <img src=x onerror=alert(3)> ![svg](data:image/svg+xml;base64,PHN2Zz4=)',
].join('\n');

describe('publishing an article', () => {
  let id: string;
  let first: { article: any; url: string; markdownUrl: string };

  beforeAll(async () => {
    id = (await newArticle(api, { title: 'Tide pools: a field guide', markdown: DRAFT })).article.id;
    // A canvas (HTML) section, as the human editor writes them.
    const outline = (await api.get(`/api/articles/${id}/outline`)).body.data.outline;
    const raw = outline.find((s) => s.title === 'Raw HTML');
    const canvas = await api.patch(`/api/articles/${id}/sections/${raw.anchor}`, {
      html: '<h2>Canvas</h2><p>Edited in the canvas <img src="/uploads/canvas.png" alt="canvas"> with <a href="/p/another">a link</a>.</p>',
    });
    expect(canvas.status).toBe(200);
  });

  it('a new article is a draft, never published', async () => {
    const res = await api.get(`/api/articles/${id}`);
    expect(res.body.data.article).toEqual(expect.objectContaining({ status: 'draft', publishedAt: null }));
    expect((await app.http.get('/p/tide-pools-a-field-guide')).status).toBe(404);
  });

  it('publishes: status, publishedAt, the public URLs named by a slug of the title', async () => {
    first = await publish(id);
    expect(first.url).toBe(`${PUBLIC_URL}/p/tide-pools-a-field-guide`);
    expect(first.markdownUrl).toBe(`${first.url}.md`);
    expect(first.article).toEqual(expect.objectContaining({ id, title: 'Tide pools: a field guide', status: 'published', sections: 4 }));
    expect(new Date(first.article.publishedAt).toISOString()).toBe(first.article.publishedAt);
    const read = (await api.get(`/api/articles/${id}`)).body.data.article;
    expect(read).toEqual(expect.objectContaining({ status: 'published', publishedAt: first.article.publishedAt }));
    const listed = (await api.get('/api/articles')).body.data.articles.find((a) => a.id === id);
    expect(listed).toEqual(expect.objectContaining({ status: 'published', publishedAt: first.article.publishedAt }));
  });

  it('serves the HTML page without a credential, with a strict CSP', async () => {
    const res = await getPublic(first.url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PUBLIC_PAGE_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const html = res.text;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>Tide pools: a field guide</title>');
    expect(html).toContain(`<link rel="canonical" href="${first.url}">`);
    expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${first.markdownUrl}">`);
    expect(html).toContain('<meta property="og:title" content="Tide pools: a field guide">');
    expect(html).toContain(`<meta property="og:url" content="${first.url}">`);
    expect(html).toContain(`<meta property="og:image" content="${PUBLIC_URL}/uploads/cover.png">`);
    expect(html).toContain('<meta property="og:description" content="Opening words with a relative image and a relative link.">');
    expect(html).toContain(`<meta property="article:published_time" content="${first.article.publishedAt}">`);
    // The sections, in order.
    const order = ['Opening words', '<h2>Reference images</h2>', '<h2>Canvas</h2>', '<h2>Hostile</h2>'].map((s) => html.indexOf(s));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('makes every image and link of the HTML page absolute', async () => {
    const html = (await getPublic(first.url)).text;
    const urls = htmlUrls(html);
    expect(urls.filter((u) => !ABSOLUTE.test(u))).toEqual([]);
    const images = [...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1]);
    expect(images).toEqual([
      `${PUBLIC_URL}/uploads/cover.png`,
      `${PUBLIC_URL}/uploads/figure.png`,
      `${PUBLIC_URL}/uploads/canvas.png`,
      `${PUBLIC_URL}/x`, // the hostile <img src=x onerror=...>, without its handler
    ]);
    expect(urls).toEqual(expect.arrayContaining([`${PUBLIC_URL}/p/elsewhere`, `${PUBLIC_URL}/p/another`, 'https://other.example/page', 'mailto:ada@example.com']));
  });

  it('is sanitised: no script, handler, javascript: or data: URL', async () => {
    for (const url of [first.url, first.markdownUrl]) {
      const text = (await getPublic(url)).text;
      expect(text).not.toMatch(/<script|onerror|javascript:|data:image|alert\(/i);
    }
  });

  it('serves the Markdown: front matter, Markdown sections as written, HTML sections converted', async () => {
    const res = await getPublic(first.markdownUrl);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const md = res.text;
    expect(md).toBe(
      [
        '---',
        'title: "Tide pools: a field guide"',
        'description: Opening words with a relative image and a relative link.',
        `date: ${first.article.publishedAt}`,
        `canonical_url: ${first.url}`,
        '---',
        '',
        `Opening words with a ![relative image](${PUBLIC_URL}/uploads/cover.png "Cover") and a [relative link](${PUBLIC_URL}/p/elsewhere).`,
        '',
        '## Reference images',
        '',
        'A ![by reference][fig] and an [absolute link](https://other.example/page) and [mail](mailto:ada@example.com).',
        '',
        `[fig]: ${PUBLIC_URL}/uploads/figure.png`,
        '',
        '## Canvas',
        '',
        `Edited in the canvas ![canvas](${PUBLIC_URL}/uploads/canvas.png) with [a link](${PUBLIC_URL}/p/another).`,
        '',
        '## Hostile',
        '',
        `click ![](${PUBLIC_URL}/x)`,
        '',
      ].join('\n'),
    );
  });

  it('makes every image and link of the Markdown absolute, with no raw HTML left', async () => {
    const { urls, rawHtml } = markdownUrls((await getPublic(first.markdownUrl)).text);
    expect(rawHtml).toBe(false);
    expect(urls.filter((u) => !ABSOLUTE.test(u))).toEqual([]);
  });

  it('keeps the snapshot: later edits do not show until the next publish', async () => {
    const before = (await getPublic(first.url)).text;
    const beforeMd = (await getPublic(first.markdownUrl)).text;
    expect((await api.post(`/api/articles/${id}/sections`, { markdown: '## Postscript\n\nWritten after publishing.' })).status).toBe(201);
    expect((await api.patch(`/api/articles/${id}`, { title: 'Tide pools, revised' })).status).toBe(200);
    expect((await getPublic(first.url)).text).toBe(before);
    expect((await getPublic(first.markdownUrl)).text).toBe(beforeMd);
    // Editing does not unpublish.
    expect((await api.get(`/api/articles/${id}`)).body.data.article.status).toBe('published');
  });

  it('republishes under the same slug, even after a rename, with the new content', async () => {
    const again = await publish(id);
    expect(again.url).toBe(first.url);
    expect(again.markdownUrl).toBe(first.markdownUrl);
    expect(again.article).toEqual(expect.objectContaining({ title: 'Tide pools, revised', status: 'published', sections: 5 }));
    const html = (await getPublic(again.url)).text;
    expect(html).toContain('<title>Tide pools, revised</title>');
    expect(html).toContain('Written after publishing.');
    expect(html).toContain(`<meta property="article:published_time" content="${again.article.publishedAt}">`);
    expect((await getPublic(again.markdownUrl)).text).toContain('## Postscript\n\nWritten after publishing.\n');
  });

  it('answers conditional requests with 304', async () => {
    const res = await getPublic(first.url);
    const etag = res.headers.etag;
    expect(etag).toBeTruthy();
    expect((await getPublic(first.url).set('If-None-Match', etag)).status).toBe(304);
    const md = await getPublic(first.markdownUrl);
    expect(md.headers.etag).not.toBe(etag);
  });

  it('unpublishes: draft again, both public copies answer 404', async () => {
    const res = await api.del(`/api/articles/${id}/publish`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['article']);
    expect(res.body.data.article).toEqual(expect.objectContaining({ id, status: 'draft', sections: 5 }));
    // publishedAt keeps the time of the last publication.
    expect(res.body.data.article.publishedAt).toEqual(expect.any(String));
    const page = await getPublic(first.url);
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(PUBLIC_PAGE_CSP);
    expect(page.text).toContain('<title>Not found</title>');
    expect(page.text).not.toContain('Tide pools');
    const md = await getPublic(first.markdownUrl);
    expect(md.status).toBe(404);
    expect(md.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await api.get(`/api/articles/${id}`)).body.data.article.status).toBe('draft');
  });

  it('unpublishing a draft is a no-op that still answers the record', async () => {
    const res = await api.del(`/api/articles/${id}/publish`);
    expect(res.status).toBe(200);
    expect(res.body.data.article.status).toBe('draft');
  });

  it('publishing again brings the copies back under the same slug', async () => {
    const again = await publish(id);
    expect(again.url).toBe(first.url);
    expect((await getPublic(again.url)).status).toBe(200);
    expect((await getPublic(again.markdownUrl)).status).toBe(200);
  });

  it('is scoped to the owner: 404 for someone else, 401 without a credential', async () => {
    const missing = await api.post(`/api/articles/${id}/publish`.replace(id, '00000000-0000-4000-8000-000000000000'));
    const foreign = await other.post(`/api/articles/${id}/publish`);
    expectFailure(foreign, 404, 'not-found');
    expectFailure(missing, 404, 'not-found');
    expect(foreign.body.error.nextAction).toBe(missing.body.error.nextAction);
    expectFailure(await other.del(`/api/articles/${id}/publish`), 404, 'not-found');
    expectFailure(await app.http.post(`/api/articles/${id}/publish`), 401, 'unauthenticated');
    expectFailure(await app.http.delete(`/api/articles/${id}/publish`), 401, 'unauthenticated');
    expect((await getPublic(first.url)).status).toBe(200); // still published
  });

  it('deleting the article takes its copies down and frees the slug', async () => {
    expect((await api.del(`/api/articles/${id}`)).status).toBe(200);
    expect((await getPublic(first.url)).status).toBe(404);
    const next = (await newArticle(api, { title: 'Tide pools: a field guide' })).article.id;
    expect((await publish(next)).url).toBe(first.url);
  });
});

describe('slugs', () => {
  it('are unique: same titles get -2, -3...', async () => {
    const urls: string[] = [];
    for (let i = 0; i < 3; i += 1) urls.push((await publish((await newArticle(api, { title: 'Same Title' })).article.id)).url);
    expect(urls).toEqual([`${PUBLIC_URL}/p/same-title`, `${PUBLIC_URL}/p/same-title-2`, `${PUBLIC_URL}/p/same-title-3`]);
  });

  it('stay unique when same-titled articles are published at once', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, async () => (await newArticle(other, { title: 'Race condition' })).article.id));
    const results = await Promise.all(ids.map((articleId) => other.post(`/api/articles/${articleId}/publish`)));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const slugs = results.map((r) => r.body.data.url.split('/').pop());
    expect(new Set(slugs).size).toBe(6);
    expect(slugs.every((s) => /^race-condition(-\d+)?$/.test(s))).toBe(true);
    for (const r of results) expect((await getPublic(r.body.data.url)).status).toBe(200);
  });

  it('come from any title: accents folded, other scripts fall back to "article"', async () => {
    const accented = await publish((await newArticle(api, { title: '¿Qué pasó en Zürich?' })).article.id);
    expect(accented.url).toBe(`${PUBLIC_URL}/p/que-paso-en-zurich`);
    const chinese = await publish((await newArticle(api, { title: '潮池笔记' })).article.id);
    expect(chinese.url).toMatch(new RegExp(`^${PUBLIC_URL}/p/article(-\\d+)?$`));
    expect((await getPublic(chinese.url)).text).toContain('<title>潮池笔记</title>');
  });

  it('a title with markup is escaped in the page and reads back from the front matter', async () => {
    const res = await publish((await newArticle(api, { title: '<script>alert(1)</script> & "quotes"', markdown: 'Body.' })).article.id);
    expect(res.url).toBe(`${PUBLIC_URL}/p/lessscriptgreateralert1lessscriptgreater-and-quotes`);
    const html = (await getPublic(res.url)).text;
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</title>');
    expect(html).not.toContain('<script');
    expect(splitFrontMatter((await getPublic(res.markdownUrl)).text).data.title).toBe('<script>alert(1)</script> & "quotes"');
  });
});

describe('public addresses', () => {
  it('answer 404 for unknown and malformed slugs, in HTML or plain text', async () => {
    for (const path of ['/p/never-published', '/p/NOT-A-SLUG', '/p/a..b', '/p/%2e%2e', `/p/${'a'.repeat(300)}`]) {
      const res = await app.http.get(path);
      expect({ path, status: res.status, type: res.headers['content-type'] }).toEqual({ path, status: 404, type: 'text/html; charset=utf-8' });
    }
    const md = await app.http.get('/p/never-published.md');
    expect([md.status, md.headers['content-type']]).toEqual([404, 'text/plain; charset=utf-8']);
  });

  it('ignore credentials: a published copy is the same for everyone', async () => {
    const res = await publish((await newArticle(api, { title: 'For everyone', markdown: 'Hello.' })).article.id);
    const anonymous = await getPublic(res.url);
    const withKey = await getPublic(res.url).set('Authorization', 'Bearer qk_not_a_real_key');
    expect(withKey.status).toBe(200);
    expect(withKey.text).toBe(anonymous.text);
  });
});

describe('edge cases', () => {
  it('an empty article publishes: front matter only', async () => {
    const res = await publish((await newArticle(api, { title: 'Nothing yet' })).article.id);
    expect(res.article).toEqual(expect.objectContaining({ sections: 1, words: 0 }));
    const md = (await getPublic(res.markdownUrl)).text;
    expect(md).toBe(`---\ntitle: Nothing yet\ndate: ${res.article.publishedAt}\ncanonical_url: ${res.url}\n---\n`);
    expect((await getPublic(res.url)).text).not.toContain('og:image');
  });

  it('a large article (1,200 sections) publishes whole', async () => {
    const { article } = await newArticle(api, { title: 'Large', markdown: sectionsDoc(1200) });
    const res = await publish(article.id);
    expect(res.article.sections).toBe(1200);
    const html = (await getPublic(res.url)).text;
    expect(html.match(/<section>/g)).toHaveLength(1200);
    expect(html.indexOf('<h2>S1</h2>')).toBeLessThan(html.indexOf('<h2>S1200</h2>'));
    const md = (await getPublic(res.markdownUrl)).text;
    expect(md.endsWith(`${sectionsDoc(1200)}\n`)).toBe(true);
  });
});
