/** The built-in actions that reach out: `http` (through the guarded fetcher) and the article actions. */
import { bearer, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { startServer, type TestServer } from '../helpers/servers';
import { createWorkflow, finished, setup, type Setup } from '../helpers/triggers';

let app: TestApp;
let alice: TestUser;
let bob: TestUser;
let s: Setup;
let target: TestServer;
let closedPort: number;
let privatePort: TestServer;
/** What the target answers next, by path: a list of statuses (the last one repeats). */
const script = new Map<string, number[]>();
const received: Array<{ path: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  target = await startServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, body });
      if (req.url === '/big') {
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        return res.end('é'.repeat(50_000));
      }
      const plan = script.get(req.url!) ?? [200];
      const status = plan.length > 1 ? plan.shift()! : plan[0];
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ got: body ? JSON.parse(body) : null, status }));
    });
  });
  // A port nothing listens on (network errors), and a server that is NOT exempt.
  const closed = await startServer();
  closedPort = closed.port;
  await closed.close();
  privatePort = await startServer();
  app = await startApp({
    HTTP_ACTION_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${target.port},127.0.0.1:${closedPort}`,
    TRIGGER_RETRY_BASE_MS: '5',
  });
  alice = await registerUser(app, 'alice');
  bob = await registerUser(app, 'bob');
  s = await setup(app, alice);
});
afterAll(async () => {
  await app?.close();
  await target?.close();
  await privatePort?.close();
});

const run = async (wf: { id: string }, payload: unknown) => {
  const res = await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', s.apiKey).send({ payload });
  expect(res.status).toBe(202);
  return finished(app, s.instanceId, res.body.data.executionId, s.apiKey);
};
const hits = (path: string) => received.filter((r) => r.path === path);

describe('http action', () => {
  it('POSTs the input as JSON and records the answer', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, {
      action: 'http',
      config: { url: `${target.origin}/ok`, headers: { 'X-Token': 'abc' } },
    });
    const done = await run(wf, { order: 7, name: 'Zoë' });
    expect(done).toMatchObject({ status: 'success', attempts: 1, error: null });
    expect(done.output.status).toBe(200);
    expect(JSON.parse(done.output.body)).toEqual({ got: { order: 7, name: 'Zoë' }, status: 200 });
    const [request] = hits('/ok');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-token']).toBe('abc');
  });

  it('retries 5xx with backoff until it succeeds', async () => {
    script.set('/flaky', [503, 502, 200]);
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'http', config: { url: `${target.origin}/flaky` } });
    const done = await run(wf, 'again');
    expect(done).toMatchObject({ status: 'success', attempts: 3, output: { status: 200 } });
    expect(hits('/flaky')).toHaveLength(3);
  });

  it('gives up after config.maxAttempts, and does not retry a 4xx', async () => {
    script.set('/down', [500]);
    const down = await createWorkflow(app, alice, s.instanceId, { action: 'http', config: { url: `${target.origin}/down`, maxAttempts: 2 } });
    expect(await run(down, 1)).toMatchObject({ status: 'failed', attempts: 2, output: null, error: { code: 'http-status', message: 'The endpoint answered 500.' } });
    expect(hits('/down')).toHaveLength(2);

    script.set('/missing', [404]);
    const missing = await createWorkflow(app, alice, s.instanceId, { action: 'http', config: { url: `${target.origin}/missing`, maxAttempts: 5 } });
    expect(await run(missing, 1)).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'http-status' } });
    expect(hits('/missing')).toHaveLength(1);
  });

  it('retries network errors', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'http', config: { url: `http://127.0.0.1:${closedPort}/`, maxAttempts: 2 } });
    expect(await run(wf, 1)).toMatchObject({ status: 'failed', attempts: 2, error: { code: 'fetch-failed' } });
  });

  it('cuts the recorded body at 64 KiB without splitting a character', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'http', config: { url: `${target.origin}/big` } });
    const done = await run(wf, null);
    expect(done.status).toBe('success');
    const bytes = Buffer.byteLength(done.output.body);
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(bytes).toBeGreaterThan(64 * 1024 - 4);
    expect(done.output.body).toBe('é'.repeat(bytes / 2));
  });

  it('fetches only through the guard: private addresses are refused at creation and at run time', async () => {
    const post = (config: unknown) =>
      app.http.post(`/api/process-instances/${s.instanceId}/workflows`).set(bearer(alice.jwt)).send({ name: 'w', action: 'http', config });
    expect(expectFailure(await post({ url: `http://127.0.0.1:${privatePort.port}/` }), 400, 'invalid-argument').message).toMatch(/^config\.url: .*private/);
    expect(expectFailure(await post({ url: 'ftp://example.com/' }), 400, 'invalid-argument').message).toMatch(/^config\.url/);
    expect(expectFailure(await post({ url: 'http://user:pw@example.com/' }), 400, 'invalid-argument').message).toMatch(/^config\.url/);
    expect(expectFailure(await post({}), 400, 'invalid-argument').message).toBe('config.url is required.');
    expect(expectFailure(await post({ url: 'https://example.com', maxAttempts: 11 }), 400, 'invalid-argument').message).toMatch(/^config\.maxAttempts/);
    expect(expectFailure(await post({ url: 'https://example.com', headers: { Host: 'x' } }), 400, 'invalid-argument').message).toMatch(/^config\.headers/);

    // A config written before an address became private (or edited in the database) is still checked when it runs.
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'http', config: { url: `${target.origin}/ok` } });
    await app.strapi.db
      .connection('triggers_workflows')
      .where({ document_id: wf.id })
      .update({ config: JSON.stringify({ url: `http://127.0.0.1:${privatePort.port}/`, maxAttempts: 3 }) });
    expect(await run(wf, 1)).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'blocked-url' } });
    expect(privatePort.hits).toBe(0);
  });
});

describe('article actions', () => {
  it('article.import creates an article owned by the instance\'s owner', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'article.import' });
    const done = await run(wf, { title: 'From a webhook', markdown: '# Intro\n\nHello.\n\n## More\n\nText.', premise: 'Why.' });
    expect(done).toMatchObject({ status: 'success', error: null });
    const articleId = done.output.articleId;
    const article = await app.http.get(`/api/articles/${articleId}`).set(bearer(alice.jwt));
    expect(article.status).toBe(200);
    expect(article.body.data.article).toMatchObject({ id: articleId, title: 'From a webhook', sections: 2 });
    expect(article.body.data.brief.premise).toBe('Why.');
    expectFailure(await app.http.get(`/api/articles/${articleId}`).set(bearer(bob.jwt)), 404, 'not-found');
  });

  it('article.import refuses a bad input when triggered, naming the field', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'article.import' });
    const res = await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', s.apiKey).send({ payload: { markdown: 'x' } });
    expect(expectFailure(res, 400, 'invalid-argument').message).toBe('payload.title is required.');
    const bare = await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', s.apiKey).send({ title: 'T' });
    expect(expectFailure(bare, 400, 'invalid-argument').message).toBe('markdown is required.');
  });

  it('article.note adds a note by an agent to an article of the owner, and not to anyone else\'s', async () => {
    const created = await app.http.post('/api/articles').set(bearer(alice.jwt)).send({ title: 'Notes target' });
    const articleId = created.body.data.article.id;
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'article.note' });
    const done = await run(wf, { articleId, kind: 'source', title: 'A source', url: 'https://example.com/paper' });
    expect(done).toMatchObject({ status: 'success', output: { articleId } });
    const brief = await app.http.get(`/api/articles/${articleId}/brief`).set(bearer(alice.jwt));
    expect(brief.body.data.notes).toEqual([
      expect.objectContaining({ anchor: done.output.anchor, kind: 'source', title: 'A source', url: 'https://example.com/paper', createdBy: 'agent' }),
    ]);

    const bobs = await app.http.post('/api/articles').set(bearer(bob.jwt)).send({ title: 'Bob\'s' });
    const refused = await run(wf, { articleId: bobs.body.data.article.id, kind: 'idea', title: 'Sneaky' });
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'not-found' } });
    const bobsBrief = await app.http.get(`/api/articles/${bobs.body.data.article.id}/brief`).set(bearer(bob.jwt));
    expect(bobsBrief.body.data.notes).toEqual([]);

    const bad = await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', s.apiKey).send({ payload: { articleId, kind: 'rumour', title: 'x' } });
    expect(expectFailure(bad, 400, 'invalid-argument').message).toMatch(/^payload\.kind/);
  });
});
