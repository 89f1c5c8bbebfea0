/**
 * CONTRACT section 20 (issue 23, item 1): agents keep their tools on a section a person edited
 * in the canvas (HTML canonical). replaceText works on the text a reader sees (character
 * references decoded, markup ignored), never in tags or attributes, and not across an element
 * boundary; `GET .../sections/{sid}?as=markdown` gives a Markdown rendering of the HTML, also
 * through the MCP tool get_section (with the SDK client).
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { client, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { startListeningApp } from '../helpers/cli-login';
import { createKey, expectFailure, registerUser, type TestApp } from '../helpers/strapi';

jest.setTimeout(120_000);

let app: TestApp;
let base: string;
let key: string;
let a: Client;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  key = await createKey(app, await registerUser(app, 'canvas-agent'), 'agent');
  a = client(app, key);
});
afterAll(() => app?.close());

const CANVAS =
  '<h2>Fish &amp; Chips</h2>' +
  '<p>The <a href="https://example.com/fish" title="fish guide">fish</a> shop sells fish. ' +
  'It is a <strong>big</strong> deal &lt;really&gt;.</p>' +
  '<p><img src="https://example.com/fish.png" alt="fish"></p>';

/** An article whose second section was edited in the canvas. */
async function canvasArticle(html = CANVAS) {
  const { article, outline } = await newArticle(a, { title: 'Canvas', markdown: sectionsDoc(2) });
  const patched = await a.patch(`/api/articles/${article.id}/sections/${outline[1].anchor}`, { html });
  expect(patched.status).toBe(200);
  return { id: article.id as string, md: outline[0].anchor as string, html: outline[1].anchor as string };
}

const edits = (id: string, ops: unknown[], dryRun = false) => a.post(`/api/articles/${id}/edits`, { ops, ...(dryRun && { dryRun }) });
const section = async (id: string, anchor: string) => (await a.get(`/api/articles/${id}/sections/${anchor}`)).body.data.section;

describe('replaceText on an html section', () => {
  it('replaces text a reader sees, in text nodes only: the link\'s href and title and the image\'s alt keep "fish"', async () => {
    const { id, html } = await canvasArticle();
    const res = await edits(id, [{ op: 'replaceText', section: html, find: 'fish', replace: 'cod', count: 2 }]);
    expect(res.status).toBe(200);
    expect(res.body.data.results[0]).toMatchObject({ op: 'replaceText', replaced: 2 });
    const after = await section(id, html);
    expect(after.source).toBe('html');
    expect(after.markdown).toBeNull();
    expect(after.html).toBe(
      '<h2>Fish &#x26; Chips</h2>' +
        '<p>The <a href="https://example.com/fish" title="fish guide">cod</a> shop sells cod. ' +
        'It is a <strong>big</strong> deal &#x3C;really>.</p>' +
        '<p><img src="https://example.com/fish.png" alt="fish"></p>',
    );
  });

  it('matches character references decoded (&amp; is "&", &lt; is "<") and escapes what it writes', async () => {
    const { id, html } = await canvasArticle();
    const amp = await edits(id, [{ op: 'replaceText', section: html, find: 'Fish & Chips', replace: 'Cod & <Chips>' }]);
    expect(amp.status).toBe(200);
    const after = await section(id, html);
    expect(after.html).toContain('<h2>Cod &#x26; &#x3C;Chips></h2>');
    expect(after.title).toBe('Cod & <Chips>');
    expect((await edits(id, [{ op: 'replaceText', section: html, find: '<really>', replace: 'truly' }])).status).toBe(200);
    expect((await section(id, html)).html).toContain('deal truly.</p>');
  });

  it('goes through the one sanitiser: a replacement that looks like markup stays text', async () => {
    const { id, html } = await canvasArticle();
    const res = await edits(id, [{ op: 'replaceText', section: html, find: 'shop', replace: '<script>alert(1)</script><img src=x onerror=alert(1)>' }]);
    expect(res.status).toBe(200);
    const after = await section(id, html);
    expect(after.html).not.toMatch(/<script|<img src="x"/);
    expect(after.html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
  });

  it('refuses an occurrence across an element boundary: 400 saying so, nothing changed', async () => {
    const { id, html } = await canvasArticle();
    const before = await section(id, html);
    const error = expectFailure(await edits(id, [{ op: 'replaceText', section: html, find: 'a big deal', replace: 'small' }]), 400, 'invalid-argument');
    expect(error.message).toBe(
      `ops[0] (replaceText): find occurs 0 times in section ${html}, not 1 (1 more occurrence runs across an element boundary, as in "a big deal", and does not count): nothing was replaced.`,
    );
    expect(error.nextAction).toMatch(/inside one run of text.*replace operation with "html"/);
    expect(await section(id, html)).toEqual(before);
  });

  it('refuses a find that is only markup (a tag, an attribute): 400 saying so', async () => {
    const { id, html } = await canvasArticle();
    for (const find of ['<strong>', 'href="https://example.com/fish"', 'fish guide', '&#x26;']) {
      const error = expectFailure(await edits(id, [{ op: 'replaceText', section: html, find, replace: 'x' }]), 400, 'invalid-argument');
      expect([find, error.message]).toEqual([find, expect.stringMatching(/find occurs 0 times in section \w+, not 1: it matches only markup \(tags or attributes\), and replaceText changes only the text a reader sees: nothing was replaced\.$/)]);
      expect(error.nextAction).toMatch(/text as a reader sees it/);
    }
  });

  it('counts html sections with Markdown ones when no section is named, and the dry run diffs the HTML', async () => {
    const { id, md, html } = await canvasArticle();
    // "shop" is in the canvas section, "Text of S1" in the first Markdown section: one each.
    const wrong = expectFailure(await edits(id, [{ op: 'replaceText', find: 'sells', replace: 'buys', count: 2 }]), 400, 'invalid-argument');
    expect(wrong.message).toMatch(/find occurs 1 time in the article's sections, not 2/);
    await a.patch(`/api/articles/${id}/sections/${md}`, { markdown: '## S1\n\nThe stall sells bread.' });
    const dry = await edits(id, [{ op: 'replaceText', find: 'sells', replace: 'buys', count: 2 }], true);
    expect(dry.status).toBe(200);
    const diff: string = dry.body.data.results[0].diff;
    expect(diff).toContain(`--- a/${md}`);
    expect(diff).toContain('-The stall sells bread.\n+The stall buys bread.');
    expect(diff).toContain(`--- a/${html}`);
    expect(diff).toContain('-<h2>Fish &#x26; Chips</h2><p>The <a href="https://example.com/fish" title="fish guide">fish</a> shop sells fish.');
    expect(diff).toContain('+<h2>Fish &#x26; Chips</h2><p>The <a href="https://example.com/fish" title="fish guide">fish</a> shop buys fish.');
    const applied = await edits(id, [{ op: 'replaceText', find: 'sells', replace: 'buys', count: 2 }]);
    expect(applied.status).toBe(200);
    expect((await section(id, html)).source).toBe('html');
    expect((await section(id, md)).markdown).toBe('## S1\n\nThe stall buys bread.');
  });

  it('refuses a replacement that would pass the size limit, counted before building it', async () => {
    const { id, html } = await canvasArticle(`<p>${'ab '.repeat(1000)}</p>`);
    const error = expectFailure(await edits(id, [{ op: 'replaceText', section: html, find: 'ab', replace: 'x'.repeat(2001), count: 1000 }]), 400, 'invalid-argument');
    expect(error.message).toMatch(new RegExp(`^ops\\[0\\] \\(replaceText\\): Section ${html} would be 2,00\\d,\\d{3} characters after the replacement, more than the limit of 2,000,000: nothing was replaced\\.$`));
  });
});

describe('GET .../sections/{sid}?as=markdown', () => {
  it('gives an html section\'s markdown as a rendering of its HTML; source stays html, the ETag is the section\'s', async () => {
    const { id, html } = await canvasArticle();
    const plain = await a.get(`/api/articles/${id}/sections/${html}`);
    const res = await a.get(`/api/articles/${id}/sections/${html}?as=markdown`);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(plain.headers.etag);
    expect(res.body.data.section).toEqual({
      ...plain.body.data.section,
      markdown: '## Fish & Chips\n\nThe [fish](https://example.com/fish "fish guide") shop sells fish. It is a **big** deal \\<really>.\n\n![fish](https://example.com/fish.png)',
    });
    // The ETag it gave is good for a write: PATCHing Markdown back makes it a Markdown section.
    const back = await a.patch(`/api/articles/${id}/sections/${html}`, { markdown: res.body.data.section.markdown }).set('If-Match', res.headers.etag);
    expect(back.status).toBe(200);
    expect((await section(id, html)).source).toBe('markdown');
  });

  it('leaves a Markdown section as it is', async () => {
    const { id, md } = await canvasArticle();
    const plain = await a.get(`/api/articles/${id}/sections/${md}`);
    expect((await a.get(`/api/articles/${id}/sections/${md}?as=markdown`)).body).toEqual(plain.body);
  });

  it('refuses any other "as" with 400', async () => {
    const { id, html } = await canvasArticle();
    for (const as of ['xyz', 'html', '']) {
      const error = expectFailure(await a.get(`/api/articles/${id}/sections/${html}?as=${as}`), 400, 'invalid-argument');
      expect(error.message).toBe('as must be "markdown".');
      expect(error.nextAction).toBe('Pass ?as=markdown for a Markdown rendering of an html section, or leave "as" out.');
    }
  });
});

describe('MCP get_section with as', () => {
  it('takes as: "markdown" (in its input schema) and answers the Markdown rendering; another value is a tool error', async () => {
    const { id, html } = await canvasArticle();
    const mcp = new McpClient({ name: 'quire-test-agent', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    try {
      const { tools } = await mcp.listTools();
      const tool = tools.find((t) => t.name === 'get_section')!;
      expect((tool.inputSchema.properties as any).as).toMatchObject({ enum: ['markdown'] });
      expect(tool.description).toMatch(/as: "markdown"/);
      const result: any = await mcp.callTool({ name: 'get_section', arguments: { id, sid: html, as: 'markdown' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.section).toMatchObject({ source: 'html', markdown: expect.stringMatching(/^## Fish & Chips\n\nThe \[fish\]/) });
      const plain: any = await mcp.callTool({ name: 'get_section', arguments: { id, sid: html } });
      expect(plain.structuredContent.section.markdown).toBeNull();
      const bad: any = await mcp.callTool({ name: 'get_section', arguments: { id, sid: html, as: 'xyz' } });
      expect(bad.isError).toBe(true);
      expect(bad.content[0].text).toMatch(/as must be "markdown"/);
    } finally {
      await mcp.close();
    }
  });
});
