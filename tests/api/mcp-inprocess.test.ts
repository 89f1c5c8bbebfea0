/**
 * MCP tools run their routes in-process (issue 21 point 3; issue 25 points 2 and 8; issue 23
 * point 8's MCP wording), driven by the official SDK client over Streamable HTTP as an agent
 * connects, or by raw JSON-RPC POSTs where the client cannot send what is tested (batches).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startListeningApp } from '../helpers/cli-login';
import { bearer, createKey, registerUser, type TestApp } from '../helpers/strapi';

jest.setTimeout(120_000);

let app: TestApp;
let base: string;
let key: string;

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'quire-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }));
  await client.listTools();
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result: any = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`);
  return result;
}

async function callError(client: Client, name: string, args: Record<string, unknown>) {
  const result: any = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return { text: result.content[0].text as string, error: result.structuredContent.error };
}

/** An article with two sections and a note, written over plain HTTP. */
async function article(title: string) {
  const created = await app.http.post('/api/articles').set(bearer(key)).send({ title, markdown: '## One\n\nFirst.\n\n## Two\n\nSecond.' });
  const id = created.body.data.article.id as string;
  const note = await app.http.post(`/api/articles/${id}/notes`).set(bearer(key)).send({ kind: 'idea', title: 'An idea' });
  return { id, anchors: created.body.data.outline.map((s: any) => s.anchor) as string[], nid: note.body.data.note.anchor as string };
}

/** One raw JSON-RPC POST (a batch is an array). */
const rpc = (body: unknown, version?: string) => {
  let request = app.http.post('/api/mcp').set(bearer(key)).set('Accept', 'application/json, text/event-stream');
  if (version) request = request.set('Mcp-Protocol-Version', version);
  return request.send(body as object);
};
const createCall = (id: number, title: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'create_article', arguments: { title } } });
const titles = async () => (await app.http.get('/api/articles?limit=100').set(bearer(key))).body.data.articles.map((a: any) => a.title) as string[];

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  key = await createKey(app, await registerUser(app, 'ada'), 'agent');
});

afterAll(async () => {
  await app?.close();
});

describe('a tool call runs its route in-process', () => {
  it('makes no HTTP request to its own server: one tools/call is one incoming request', async () => {
    const { id, anchors } = await article('Counted');
    const client = await connect(key);
    const server = app.strapi.server.httpServer;
    const seen: string[] = [];
    const count = (request: { method?: string; url?: string }) => seen.push(`${request.method} ${request.url}`);
    server.on('request', count);
    let read: any;
    try {
      read = await call(client, 'get_section', { id, sid: anchors[1] });
    } finally {
      server.off('request', count);
    }
    expect(seen).toEqual(['POST /api/mcp']);
    expect(read.structuredContent.section.markdown).toBe('## Two\n\nSecond.');
    // The ETag is the route's own, as over HTTP.
    const plain = await app.http.get(`/api/articles/${id}/sections/${anchors[1]}`).set(bearer(key));
    expect(read._meta.etag).toBe(plain.headers.etag);
    await client.close();
  });

  it('applies the route\'s role action: a role without it gets a permission-denied tool error', async () => {
    const { id } = await article('Roles');
    const roles = app.strapi.plugin('users-permissions').service('role');
    const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    const edit = async (enabled: boolean) => {
      const current = await roles.findOne(role.id);
      current.permissions['plugin::quire'].controllers.articles.outline.enabled = enabled;
      await roles.updateRole(role.id, { name: current.name, description: current.description, permissions: current.permissions });
    };
    const client = await connect(key);
    await edit(false);
    try {
      const refused = await callError(client, 'get_outline', { id });
      expect(refused.error).toEqual({ code: 'permission-denied', message: 'Your role (Authenticated) does not allow plugin::quire.articles.outline.', nextAction: expect.stringContaining('Users & Permissions') });
    } finally {
      await edit(true);
    }
    expect((await call(client, 'get_outline', { id })).structuredContent.outline).toHaveLength(2);
    await client.close();
  });
});

describe('path arguments are parsed by the route\'s own schema (issue 25 point 2)', () => {
  it('refuses delete_note and update_note with nid ".." and leaves the article whole', async () => {
    const { id, nid } = await article('Climbing');
    const client = await connect(key);
    const deleted = await callError(client, 'delete_note', { id, nid: '..' });
    expect(deleted.error).toEqual({ code: 'invalid-argument', message: 'nid must be a note anchor: letters, digits and dashes only.', nextAction: expect.any(String) });
    const renamed = await callError(client, 'update_note', { id, nid: '..', title: 'Renamed' });
    expect(renamed.error.code).toBe('invalid-argument');

    const now = await app.http.get(`/api/articles/${id}`).set(bearer(key));
    expect(now.status).toBe(200);
    expect(now.body.data.article.title).toBe('Climbing');
    expect(now.body.data.outline).toHaveLength(2);
    const brief = await app.http.get(`/api/articles/${id}/brief`).set(bearer(key));
    expect(brief.body.data.notes.map((n: any) => [n.anchor, n.title])).toEqual([[nid, 'An idea']]);
    await client.close();
  });

  it('refuses "/", "%2F", "../.." and friends in every id or anchor with invalid-argument', async () => {
    const { id, anchors } = await article('Slashes');
    const client = await connect(key);
    for (const bad of ['..', '.', '/', '%2F', '..%2F..', '../..', 'a/b', 'a?b', 'a#b', ' ']) {
      expect([bad, (await callError(client, 'get_section', { id, sid: bad })).error.code]).toEqual([bad, 'invalid-argument']);
      expect([bad, (await callError(client, 'delete_section', { id: bad, sid: anchors[0] })).error.code]).toEqual([bad, 'invalid-argument']);
    }
    expect((await callError(client, 'restore_revision', { id, sid: '..', rev: '1' })).error.code).toBe('invalid-argument');
    expect((await app.http.get(`/api/articles/${id}/outline`).set(bearer(key))).body.data.outline).toHaveLength(2);
    await client.close();
  });

  it('refuses the same over HTTP: an encoded ".." in a path is 400 at the schema', async () => {
    const { id } = await article('Encoded');
    const res = await app.http.delete(`/api/articles/${id}/notes/%2E%2E`).set(bearer(key));
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'invalid-argument', message: 'nid must be a note anchor: letters, digits and dashes only.', nextAction: expect.any(String) });
  });
});

describe('JSON-RPC batches (issue 25 point 8)', () => {
  it('refuses a batch under 2025-06-18 and later with a JSON-RPC error, running none of it', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await rpc([createCall(1, `Batched ${version} a`), createCall(2, `Batched ${version} b`)], version);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining(`${version} has no JSON-RPC batches`) } });
    }
    // An initialize in a batch negotiates by its own protocolVersion.
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
    expect((await rpc([init])).status).toBe(400);
    expect((await titles()).filter((t) => t.startsWith('Batched'))).toEqual([]);
  });

  it('runs a batch of at most 10 under 2025-03-26, and refuses a larger one whole', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => createCall(i + 1, `Eleven ${i}`));
    for (const version of ['2025-03-26', undefined]) {
      const refused = await rpc(eleven, version);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({ code: -32600, message: expect.stringContaining('at most 10 messages') });
    }
    expect((await titles()).filter((t) => t.startsWith('Eleven'))).toEqual([]);

    const ten = Array.from({ length: 10 }, (_, i) => createCall(i + 1, `Ten ${i}`));
    const ran = await rpc(ten, '2025-03-26');
    expect(ran.status).toBe(200);
    expect(ran.body.map((answer: any) => answer.id).sort((a: number, b: number) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const answer of ran.body) expect(answer.result.structuredContent.article.title).toBe(`Ten ${answer.id - 1}`);
    expect((await titles()).filter((t) => t.startsWith('Ten')).sort()).toEqual(ten.map((c) => c.params.arguments.title).sort());
  });

  it('answers concurrent requests that reuse the same JSON-RPC ids each with its own answer', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'create_article', arguments: { title: `Same id ${i}` } } }, '2025-11-25')));
    expect(answers.map((a) => [a.status, a.body.id, a.body.result.structuredContent.article.title])).toEqual(Array.from({ length: 6 }, (_, i) => [200, 7, `Same id ${i}`]));
  });
});

describe('tool wording (issue 23 point 8)', () => {
  it('names the tool to call, not an HTTP route, in a tool error\'s nextAction', async () => {
    const { id } = await article('Wording');
    const client = await connect(key);
    const missing = await callError(client, 'get_section', { id, sid: 'ffffff' });
    expect(missing.error.code).toBe('not-found');
    expect(missing.error.nextAction).toContain('the get_outline tool');
    expect(missing.error.nextAction).not.toMatch(/\/api\//);
    // Over HTTP the same error names the route.
    const plain = await app.http.get(`/api/articles/${id}/sections/ffffff`).set(bearer(key));
    expect(plain.body.error.nextAction).toContain(`GET /api/articles/${id}/outline`);
    await client.close();
  });

  it('describes anchors as the outline gives them (6 characters), not 8', async () => {
    const client = await connect(key);
    const { tools } = await client.listTools();
    const described = tools.filter((t) => /anchor/i.test(t.description ?? ''));
    expect(described.length).toBeGreaterThan(3);
    for (const tool of described) expect([tool.name, /8 characters/.test(tool.description!)]).toEqual([tool.name, false]);
    expect(tools.find((t) => t.name === 'get_section')!.description).toContain('outlines give 6 characters');
    const { anchors } = await article('Six');
    expect(anchors.every((a) => a.length === 6)).toBe(true);
    await client.close();
  });
});
