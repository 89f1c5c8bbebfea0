/**
 * Issue 25, items 1 and 3: edits that used to keep the event loop busy for 10 s and more. A dry
 * run's (and a suggestion's) diff of 10,000 replaced lines (5,000 here, to keep the suite quick) was a quadratic Myers diff on the
 * main thread; replaceText built its result before the size limit refused it (200 KB of "a"
 * with a 1,000-character replacement: a 200-million-character string). Each is sent while
 * another connection polls GET /_health: every health check must answer within a second, and
 * the request must end with a result or a clear 400, never hang.
 */
import { createKey, registerUser, type TestApp } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const hostile = require('../fixtures/hostile.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { whilePolled: pollHealth } = require('../helpers/poll-health');

let app: TestApp;
let base: string;
let writer: string;
let suggester: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  const user = await registerUser(app, 'edits-hostile');
  writer = await createKey(app, user, 'writer');
  suggester = await createKey(app, user, 'suggester', 'suggest');
}, 180_000);
afterAll(() => app?.close());

async function call(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * Runs `request` while /_health is polled; every health check answered 204, the longest wait
 * under a second. As in event-loop.test.ts, a stall must happen twice to count: on a busy machine
 * the process is now and then descheduled for a second; code that blocks the loop blocks it every
 * time. (Every request here can be sent twice: refusals, dry runs, or one more suggestion.)
 */
async function keepsAnswering<T>(request: () => Promise<T>): Promise<T> {
  const measure = async () => {
    const { result, longestWaitMs, healthFailures } = await pollHealth(base, request, { intervalMs: 25 });
    expect(healthFailures).toEqual([]);
    return { result, longestWaitMs };
  };
  let run = await measure();
  if (run.longestWaitMs >= 1000) run = await measure();
  expect(run.longestWaitMs).toBeLessThan(1000);
  return run.result;
}

async function article(markdown: string) {
  const res = await call(writer, 'POST', '/api/articles', { title: 'Hostile edits', markdown });
  expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
  return { id: res.body.data.article.id as string, anchor: res.body.data.outline[0].anchor as string };
}

describe('diffs of dry runs and suggestions', () => {
  it('a dry run replacing 5,000 lines (54 KB) of one section: answered with a diff that says what changed, the server keeps answering', async () => {
    const { id, anchor } = await article(hostile.manyLines(5000));
    const res = await keepsAnswering(() =>
      call(writer, 'POST', `/api/articles/${id}/edits`, { dryRun: true, ops: [{ op: 'replace', section: anchor, markdown: hostile.manyLines(5000, 'new') }] }),
    );
    expect(res.status).toBe(200);
    const diff: string = res.body.data.results[0].diff;
    // Past the bound the diff is one hunk: the shared heading stays context, every line removed then added.
    expect(diff).toContain(`--- a/${anchor}\n+++ b/${anchor}\n@@ -1,5002 +1,5002 @@\n ## Lines\n \n-line 0.\n`);
    expect(diff).toContain('\n-line 4999.\n+new 0.\n');
    expect(diff.endsWith('+new 4999.\n')).toBe(true);
    // Nothing was written.
    expect((await call(writer, 'GET', `/api/articles/${id}/sections/${anchor}`)).body.data.section.markdown).toBe(hostile.manyLines(5000));
  });

  it('a suggest key\'s replaceText changing 5,000 lines: 202, the suggestion keeps its diff, the server keeps answering', async () => {
    const { id, anchor } = await article(hostile.manyLines(5000));
    const res = await keepsAnswering(() =>
      call(suggester, 'POST', `/api/articles/${id}/edits`, { ops: [{ op: 'replaceText', section: anchor, find: '.', replace: '!', count: 5000 }] }),
    );
    expect(res.status).toBe(202);
    const { suggestion } = res.body.data;
    expect(suggestion.results[0]).toMatchObject({ op: 'replaceText', replaced: 5000 });
    expect(suggestion.results[0].diff).toContain('\n-line 0.\n');
    expect(suggestion.results[0].diff).toContain('\n+line 4999!\n');
  });

  it('small changes keep an exact diff (the bound only coarsens big ones)', async () => {
    const { id, anchor } = await article(hostile.manyLines(5000));
    const res = await call(writer, 'POST', `/api/articles/${id}/edits`, {
      dryRun: true,
      ops: [{ op: 'replaceText', section: anchor, find: 'line 2500.', replace: 'line 2,500.' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.results[0].diff).toContain('@@ -2500,7 +2500,7 @@\n line 2497.\n line 2498.\n line 2499.\n-line 2500.\n+line 2,500.\n line 2501.\n');
  });
});

describe('replaceText past the section limit', () => {
  it('200 KB of "a" with a 1,000-character replacement of every "aa": 400 from the count, before any string is built; the server keeps answering', async () => {
    const { id, anchor } = await article(hostile.sameLetter(200_000));
    const replace = 'b'.repeat(1000);
    const res = await keepsAnswering(() =>
      call(writer, 'POST', `/api/articles/${id}/edits`, { ops: [{ op: 'replaceText', section: anchor, find: 'aa', replace, count: 100_000 }] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid-argument');
    expect(res.body.error.message).toBe(
      `ops[0] (replaceText): Section ${anchor} would be 100,000,000 characters after the replacement, more than the limit of 2,000,000: nothing was replaced.`,
    );
    expect(res.body.error.nextAction).toMatch(/shorter "replace"/);
  });

  it('three such requests at once, as a dry run and as a suggestion too: all refused, the server keeps answering', async () => {
    const { id, anchor } = await article(hostile.sameLetter(200_000));
    const op = { op: 'replaceText', section: anchor, find: 'aa', replace: 'c'.repeat(5000), count: 100_000 };
    const results = await keepsAnswering(() =>
      Promise.all([
        call(writer, 'POST', `/api/articles/${id}/edits`, { ops: [op] }),
        call(writer, 'POST', `/api/articles/${id}/edits`, { ops: [op], dryRun: true }),
        call(suggester, 'POST', `/api/articles/${id}/edits`, { ops: [op] }),
      ]),
    );
    for (const res of results) {
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 400, code: 'invalid-argument' });
      expect(res.body.error.message).toMatch(/would be 500,000,000 characters after the replacement, more than the limit of 2,000,000/);
    }
  });

  it('a replacement that stays within the limit is applied', async () => {
    const { id, anchor } = await article(hostile.sameLetter(1000));
    const res = await call(writer, 'POST', `/api/articles/${id}/edits`, { ops: [{ op: 'replaceText', section: anchor, find: 'a', replace: 'bb', count: 1000 }] });
    expect(res.status).toBe(200);
    expect((await call(writer, 'GET', `/api/articles/${id}/sections/${anchor}`)).body.data.section.markdown).toBe('b'.repeat(2000));
  });
});
