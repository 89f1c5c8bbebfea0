/**
 * Issue 11, items 3 and 4: the worker pool's limits as clients meet them. A task past its
 * deadline or its heap cap is a 400 saying the input is too complex (and the next request is
 * served by a fresh thread); a full pool is a 429 `rate-limited` with Retry-After, never a pile
 * of workers; every import form is rate limited per user.
 */
import { client, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const hostile = require('../fixtures/hostile.js');

const DOCUMENT_LIMIT = 4;
let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    WORKER_THREADS: '1',
    WORKER_QUEUE: '1',
    WORKER_TIMEOUT_MS: '3000',
    WORKER_MEMORY_MB: '64',
    IMPORT_TIMEOUT_MS: '15000',
    IMPORT_DOCUMENT_RATE_LIMIT: String(DOCUMENT_LIMIT),
  });
});
afterAll(() => app?.close());

const newClient = async (label: string): Promise<Client> => client(app, await createKey(app, await registerUser(app, label)));
const workers = () => app.strapi.plugin('quire').service('workers');

describe('deadline and heap cap', () => {
  it('stops Markdown that takes longer than the deadline with a 400 that says what to do, then serves the next request', async () => {
    const c = await newClient('slow');
    const stopped = workers().stats()?.stopped ?? 0;
    const res = await c.post('/api/articles', { title: 'Slow', markdown: hostile.emphasisRun(64 * 1024) });
    const error = expectFailure(res, 400, 'invalid-argument');
    expect(error.message).toBe('markdown: the Markdown is too complex to process (it could not be rendered within 3 seconds).');
    expect(error.nextAction).toMatch(/^Split it into smaller sections, or simplify what nests or repeats/);
    expect(workers().stats().stopped).toBe(stopped + 1);
    // A fresh thread replaced the stopped one.
    const next = await c.post('/api/articles', { title: 'Fine', markdown: `## Fine\n\n${hostile.prose(5000)}` });
    expect(next.status).toBe(201);
  });

  it('stops an import that needs more memory than the cap', async () => {
    const c = await newClient('big');
    const res = await c.post('/api/articles/import', { markdown: `# Big\n\n${hostile.prose(1_900_000)}` });
    const error = expectFailure(res, 400, 'invalid-argument');
    expect(error.message).toBe('markdown: the document is too complex to import (it could not be converted in 64 MB of memory).');
    expect(error.nextAction).toBe('Import a smaller or simpler document, or its Markdown.');
    expect((await c.post('/api/articles/import', { markdown: '# Small\n\nFits.' })).status).toBe(201);
  });
});

describe('a full pool', () => {
  it('answers twelve concurrent imports with one thread, one queued, and 429 with Retry-After for the rest', async () => {
    const clients = await Promise.all(Array.from({ length: 12 }, (_, i) => newClient(`burst${i}`)));
    const results = await Promise.all(clients.map((c) => c.post('/api/articles/import', { markdown: hostile.footnotes(600) })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const res of refused) {
      const error = expectFailure(res, 429, 'rate-limited');
      expect(error.message).toBe('The server is busy with other documents: none of its workers is free.');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(error.nextAction).toBe(`Retry after ${res.headers['retry-after']} seconds.`);
    }
    expect(workers().stats()).toMatchObject({ threads: 1, running: 0, queued: 0 });
    // Once the burst is over, a retry is served.
    const retry = await clients[statuses.indexOf(429)].post('/api/articles/import', { markdown: '# Again\n\nServed.' });
    expect(retry.status).toBe(201);
  });
});

describe('per-user limit of document imports', () => {
  it(`refuses a user's Markdown and HTML imports past ${DOCUMENT_LIMIT} a minute, and only that user's`, async () => {
    const c = await newClient('importer');
    for (let i = 0; i < DOCUMENT_LIMIT; i += 1) {
      const body = i % 2 ? { html: `<h1>Page ${i}</h1><p>Text.</p>` } : { markdown: `# Doc ${i}\n\nText.` };
      expect((await c.post('/api/articles/import', body)).status).toBe(201);
    }
    for (const body of [{ markdown: '# One more' }, { html: '<p>One more</p>' }]) {
      const res = await c.post('/api/articles/import', body);
      const error = expectFailure(res, 429, 'rate-limited');
      expect(error.message).toBe(`Too many imports of documents (at most ${DOCUMENT_LIMIT} a minute).`);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Writing articles is not an import; other users are not affected.
    expect((await c.post('/api/articles', { title: 'Still writing', markdown: '# Yes' })).status).toBe(201);
    expect((await (await newClient('other')).post('/api/articles/import', { markdown: '# Other' })).status).toBe(201);
  });
});
