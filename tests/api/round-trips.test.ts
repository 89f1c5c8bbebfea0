/**
 * Database round trips per hot route (issue 21, point 8): every statement the app sends to the
 * database while one request is answered, counted with knex's `query` event on Strapi's
 * connection (statements of transactions included, BEGIN and COMMIT too where the driver sends
 * them). Each route is called once first, so the credential's throttled `lastUsedAt` write and
 * per-process caches are in their steady state, as under load; the least of three calls counts.
 *
 * The ceilings are what each route needs now: a route that starts to make more round trips fails
 * here. ROUND_TRIPS_PRINT=1 prints the statements of each route.
 */
import { client, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';
import { createWorkflow, setup, type Setup } from '../helpers/triggers';

let app: TestApp;
let a: Client;
let aliceJwt: string;
let articleId: string;
let anchors: string[];
let noteAnchor: string;
let s: Setup;
let workflowId: string;
let executionId: string;
/** Opens the gate of the blocking action: the in-process runner is kept busy, so no run adds statements to a request's count. */
let openGate: () => void = () => {};

beforeAll(async () => {
  // One run at a time (held by a gated action), no sweeps: only the requests' own statements are counted.
  app = await startApp({ TRIGGER_SWEEP_INTERVAL_MS: '0', TRIGGER_CONCURRENCY: '1' });
  const alice = await registerUser(app, 'alice');
  a = client(app, await createKey(app, alice));
  aliceJwt = alice.jwt;
  const created = await newArticle(a, { title: 'Round trips', markdown: sectionsDoc(200) });
  articleId = created.article.id;
  anchors = created.outline.map((e) => e.anchor);
  const note = await a.post(`/api/articles/${articleId}/notes`, { kind: 'idea', title: 'A note', body: 'Its body.' });
  noteAnchor = note.body.data.note.anchor;

  s = await setup(app, alice);
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  app.strapi.plugin('triggers').service('actions').register('test.hold', () => gate.then(() => 'released'));
  const hold = await createWorkflow(app, alice, s.instanceId, { name: 'hold', action: 'test.hold' });
  workflowId = (await createWorkflow(app, alice, s.instanceId, { name: 'echo' })).id;
  const held = await app.http.post(`/webhook/${s.instanceId}/${hold.id}`).set('X-API-Key', s.apiKey).send({ payload: {} });
  if (held.status !== 202) throw new Error(`hold: ${held.status}`);
}, 180_000);

afterAll(async () => {
  openGate();
  await app?.close();
});

/** The statements sent to the database while `work` runs. */
async function statements(work: () => PromiseLike<{ status: number; body: any }>, status: number): Promise<string[]> {
  const knex = app.strapi.db.connection as any;
  const sql: string[] = [];
  const listener = (query: { sql: string }) => sql.push(query.sql);
  knex.on('query', listener);
  try {
    const res = await work();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  } finally {
    knex.removeListener('query', listener);
  }
  if (process.env.ROUND_TRIPS_PRINT) console.log(`${sql.length} statements:\n${sql.map((q) => `  ${q.slice(0, 160)}`).join('\n')}`);
  return sql;
}

/**
 * Calls the route once to warm it, then counts the statements of three more calls and keeps the
 * least: Strapi's own background work (its core store, upload counts) may land in one window.
 */
async function roundTrips(work: () => PromiseLike<{ status: number; body: any }>, status = 200): Promise<number> {
  await statements(work, status);
  const counts: number[] = [];
  for (let i = 0; i < 3; i += 1) counts.push((await statements(work, status)).length);
  return Math.min(...counts);
}

const set = (req, headers: Record<string, string>) => {
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req;
};

describe('database round trips per hot route', () => {
  it('counts statements (the counter itself can fail)', async () => {
    const sql = await statements(() => a.get(`/api/articles/${articleId}/sections/${anchors[5]}`), 200);
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.some((q) => /select/i.test(q))).toBe(true);
  });

  it('GET section by anchor', async () => {
    expect(await roundTrips(() => a.get(`/api/articles/${articleId}/sections/${anchors[100]}`))).toBeLessThanOrEqual(GET_SECTION);
  });

  it('GET section by anchor, with a JWT', async () => {
    const path = `/api/articles/${articleId}/sections/${anchors[100]}`;
    expect(await roundTrips(() => app.http.get(path).set('Authorization', `Bearer ${aliceJwt}`))).toBeLessThanOrEqual(GET_SECTION_JWT);
  });

  it('GET outline (200 sections)', async () => {
    expect(await roundTrips(() => a.get(`/api/articles/${articleId}/outline`))).toBeLessThanOrEqual(GET_OUTLINE);
  });

  it('POST section (insert in the middle)', async () => {
    let i = 0;
    const count = await roundTrips(() => a.post(`/api/articles/${articleId}/sections`, { markdown: `## Inserted ${++i}\n\nA short section.`, after: anchors[100] }), 201);
    expect(count).toBeLessThanOrEqual(POST_SECTION);
  });

  it('PATCH note', async () => {
    let i = 0;
    expect(await roundTrips(() => a.patch(`/api/articles/${articleId}/notes/${noteAnchor}`, { title: `Renamed ${++i}` }))).toBeLessThanOrEqual(PATCH_NOTE);
  });

  it('PATCH section with If-Match', async () => {
    const path = `/api/articles/${articleId}/sections/${anchors[50]}`;
    let etag = (await a.get(path)).headers.etag;
    let i = 0;
    const count = await roundTrips(async () => {
      const res = await set(a.patch(path, { markdown: `## S51\n\nEdit ${++i}.` }), { 'If-Match': etag });
      etag = res.headers.etag;
      return res;
    });
    expect(count).toBeLessThanOrEqual(PATCH_IF_MATCH);
  });

  it('POST edits of 10 replace ops', async () => {
    let i = 0;
    const count = await roundTrips(() => {
      i += 1;
      const ops = anchors.slice(150, 160).map((anchor, k) => ({ op: 'replace', section: anchor, markdown: `## S${151 + k}\n\nEdit ${i}.` }));
      return a.post(`/api/articles/${articleId}/edits`, { ops });
    });
    expect(count).toBeLessThanOrEqual(EDITS_10);
  });

  it('MCP get_section (tools/call)', async () => {
    const call = () =>
      a
        .post('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_section', arguments: { id: articleId, sid: anchors[100] } } })
        .set('Accept', 'application/json, text/event-stream')
        .set('Mcp-Protocol-Version', '2025-11-25');
    const res = await call();
    expect(res.body.result?.structuredContent?.section?.id).toBeTruthy();
    expect(await roundTrips(call)).toBeLessThanOrEqual(MCP_GET_SECTION);
  });

  it('search in an article', async () => {
    expect(await roundTrips(() => a.get(`/api/articles/${articleId}/search?q=${encodeURIComponent('S117')}`))).toBeLessThanOrEqual(SEARCH_ARTICLE);
  });

  it('search across articles', async () => {
    expect(await roundTrips(() => a.get(`/api/search?q=${encodeURIComponent('Body of S7')}`))).toBeLessThanOrEqual(SEARCH_ALL);
  });

  it('POST /webhook (instance key)', async () => {
    let executed = '';
    const count = await roundTrips(async () => {
      const res = await app.http.post(`/webhook/${s.instanceId}/${workflowId}`).set('X-API-Key', s.apiKey).send({ payload: { n: 1 } });
      executed = res.body?.data?.executionId ?? executed;
      return res;
    }, 202);
    executionId = executed;
    expect(count).toBeLessThanOrEqual(TRIGGER);
  });

  it('GET /status (instance key)', async () => {
    expect(executionId).toBeTruthy();
    expect(await roundTrips(() => app.http.get(`/status/${s.instanceId}/${executionId}`).set('X-API-Key', s.apiKey))).toBeLessThanOrEqual(STATUS);
  });
});

// Ceilings: the statements each route sends now (see the header), the same on SQLite and
// PostgreSQL. A read: the credential's lookup (with its role's permission for the route, in the
// same query), then the read. A write: the lookup, then one transaction (BEGIN ... COMMIT).
// (Before issue 21 point 8's last round, in brackets where it was more.)
const GET_SECTION = 2; // key and permission, the section
const GET_SECTION_JWT = 2; // the JWT's user with its role's permission (services/auth.ts), the section [3]
const GET_OUTLINE = 2; // key and permission, the article's outline revision (the outline is cached against it)
const MCP_GET_SECTION = 2; // key with the permissions of /api/mcp and of the tool's route (mcp/catalog.ts), the section [3]
const POST_SECTION = 10; // key and permission, BEGIN, outline revision + lock, insert, its change set (the change set, its sections, its anchor: the sections' text after is the engine's, not read back), the article's live state (its appended updates and its base: two indexed lookups when it has none), COMMIT
const PATCH_NOTE = 8; // key and permission, BEGIN, lock, the notes, update RETURNING the note, its change set and its anchor, COMMIT [7]
const PATCH_IF_MATCH = 13; // key and permission, BEGIN, lock, the section, update, revision, its change set (3, as POST_SECTION), the threads on the section, the live state (2, as POST_SECTION), COMMIT
const EDITS_10 = 13; // key and permission, BEGIN, lock, the 10 sections in one read, their updates in one, revisions, its change set (3, as POST_SECTION), the threads on those sections (one read), the live state (2), COMMIT [25, then 16]
const SEARCH_ARTICLE = 2; // key and permission, the article's matching sections joined to the article [3]
const SEARCH_ALL = 3; // key and permission, the articles, their matching sections
const TRIGGER = 2; // the instance key with the URL's workflow, the execution's insert
const STATUS = 2; // the instance key, the execution
