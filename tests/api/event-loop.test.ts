/**
 * Issue 11, item 3: no request keeps the event loop busy. Each hostile input (sized so that
 * the code before the fix blocked the loop for 1.5 to 5 seconds on this 2-core machine) is
 * sent while another connection polls GET /_health; every health check must answer within a
 * second, and the hostile request must end with a result or a clear 400, never hang.
 */
import { createKey, registerUser, type TestApp } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const hostile = require('../fixtures/hostile.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { whilePolled: pollHealth } = require('../helpers/poll-health');

let app: TestApp;
let base: string;
let key: string;

beforeAll(async () => {
  // A short deadline keeps the suite fast: past it, a task is stopped and answered 400.
  ({ app, base } = await startListeningApp({ WORKER_TIMEOUT_MS: '4000', IMPORT_TIMEOUT_MS: '4000' }));
  key = await createKey(app, await registerUser(app, 'hostile'));
});
afterAll(() => app?.close());

async function call(method: string, path: string, body?: unknown, type = 'application/json') {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': type }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** The stall that fails a case: the inputs here held the event loop for 2.6 s to 548 s before their fixes. */
const STALL_MS = 1000;

/**
 * Runs `request` while /_health (and `alsoPoll`) is polled; every health check must have answered
 * 204. A stall must happen twice to count: on CI's two cores, shared by two test workers, Chromium
 * and the worker pool, the process is now and then descheduled for a second; code that blocks the
 * loop blocks it every time. (Every request here can be sent twice.)
 */
async function whilePolled<T>(request: () => Promise<T>, alsoPoll?: () => Promise<void>): Promise<{ result: T; longestWaitMs: number }> {
  const measure = async () => {
    const { result, longestWaitMs, healthFailures } = await pollHealth(base, request, { intervalMs: 25, alsoPoll });
    expect(healthFailures).toEqual([]);
    return { result, longestWaitMs };
  };
  const first = await measure();
  return first.longestWaitMs < STALL_MS ? first : measure();
}

/** A 201 (or 200) with data, or a 400 saying the input is too complex and what to do. */
function expectResultOrTooComplex(res: { status: number; body: any }) {
  if (res.status === 400) {
    expect(res.body.error.code).toBe('invalid-argument');
    expect(res.body.error.message).toMatch(/too complex to \w+ \(it could not be \w+ within 4 seconds\)|more than 256 attributes/);
    expect(res.body.error.nextAction).toEqual(expect.any(String));
  } else {
    expect({ status: res.status, success: res.body.success }).toEqual({ status: res.status < 300 ? res.status : 201, success: true });
  }
}

const markdownCases: Array<[string, () => string]> = [
  ['160 KB of prose in one section (word counting)', () => `## Prose\n\n${hostile.prose(160 * 1024)}`],
  ['image labels nested 1,500 deep', () => hostile.nestedImages(1500)],
  ['a 16 KB run of emphasis markers', () => hostile.emphasisRun(16 * 1024)],
  ['3,000 footnotes', () => hostile.footnotes(3000)],
  ['a table of 5,000 rows', () => hostile.table(5000)],
  ['1,100 sections, each using one of 1,100 link definitions', () => hostile.headingsAndDefinitions(1100)],
];

describe('Markdown that used to block the event loop', () => {
  it.each(markdownCases)('POST /api/articles with %s: the server keeps answering', async (_, markdown) => {
    const { result, longestWaitMs } = await whilePolled(() => call('POST', '/api/articles', { title: 'Hostile', markdown: markdown() }));
    expectResultOrTooComplex(result);
    expect(longestWaitMs).toBeLessThan(STALL_MS);
  });

  it('PATCH of a section with the same kind of body: the server keeps answering', async () => {
    const created = await call('POST', '/api/articles', { title: 'Target', markdown: '## One\n\nA short section.' });
    const [section] = created.body.data.outline;
    const { result, longestWaitMs } = await whilePolled(() =>
      call('PATCH', `/api/articles/${created.body.data.article.id}/sections/${section.anchor}`, { markdown: hostile.emphasisRun(16 * 1024) }),
    );
    expectResultOrTooComplex(result);
    expect(longestWaitMs).toBeLessThan(STALL_MS);
  });
});

describe('imports, uploads and publishing that used to block the event loop', () => {
  it('imports a 100 KB HTML page (converted, then split and counted)', async () => {
    const { result, longestWaitMs } = await whilePolled(() => call('POST', '/api/articles/import', { html: hostile.htmlPage(100 * 1024) }));
    expectResultOrTooComplex(result);
    expect(longestWaitMs).toBeLessThan(STALL_MS);
  });

  it('imports Markdown whose front matter has 25,000 keys (the duplicate-key check)', async () => {
    const { result, longestWaitMs } = await whilePolled(() => call('POST', '/api/articles/import', { markdown: hostile.frontMatterKeys(25000) }));
    // Keys other than the front matter's fields are ignored.
    expect({ status: result.status, title: result.body.data?.article.title }).toEqual({ status: 201, title: 'Many keys' });
    expect(longestWaitMs).toBeLessThan(STALL_MS);

    // A duplicate key is still found, on its line.
    const duplicate = await call('POST', '/api/articles/import', { markdown: '---\ntitle: A\npremise: B\ntitle: C\n---\n\nBody.' });
    expect(duplicate.body.error.message).toBe('The front matter is not valid YAML: Map keys must be unique at line 3, column 1:');
  });

  it('uploads an SVG with 20,000 attributes on one element: refused at once', async () => {
    const { result, longestWaitMs } = await whilePolled(() => call('POST', '/api/upload', hostile.svgAttributes(20000), 'image/svg+xml'));
    expect(result.status).toBe(400);
    expect(result.body.error.message).toBe('The SVG has an element with more than 256 attributes, which is not accepted.');
    expect(longestWaitMs).toBeLessThan(STALL_MS);
  });

  it('publishes an article of 6,000 relative links while other articles stay writable', async () => {
    // Six sections of 1,000 links, added one by one (each well within the deadline).
    const created = await call('POST', '/api/articles', { title: 'Links', markdown: hostile.relativeLinks(1000) });
    expect(created.status).toBe(201);
    for (let i = 0; i < 5; i += 1) {
      expect((await call('POST', `/api/articles/${created.body.data.article.id}/sections`, { markdown: hostile.relativeLinks(1000) })).status).toBe(201);
    }
    const other = await call('POST', '/api/articles', { title: 'Other', markdown: '## Other\n\nText.' });
    const otherId = other.body.data.article.id;
    let writes = 0;
    const writeOther = async () => {
      const res = await call('PATCH', `/api/articles/${otherId}`, { title: `Other ${++writes}` });
      expect(res.status).toBe(200);
    };
    const { result, longestWaitMs } = await whilePolled(() => call('POST', `/api/articles/${created.body.data.article.id}/publish`), writeOther);
    expectResultOrTooComplex(result);
    expect(longestWaitMs).toBeLessThan(STALL_MS);
    if (result.status === 200) {
      const page = await fetch(result.body.data.url.replace(/^https?:\/\/[^/]+/, base));
      expect(await page.text()).toContain(`href="${base}/p999"`);
    }
  });
});
