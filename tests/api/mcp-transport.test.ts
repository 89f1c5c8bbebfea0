/**
 * POST /api/mcp answers the HTTP side of Streamable HTTP itself (mcp/server.ts `answerPost`, issue
 * 21 point 8) instead of through the SDK's WebStandardStreamableHTTPServerTransport: every case
 * here is sent both to the app and to that SDK transport in stateless JSON-response mode, and the
 * two answers must be the same (status, content type, body). A plain tools/call is answered
 * without the SDK Server's per-message dispatch (McpEndpoint.callDirect): the same call related
 * to a task (which the Server runs itself) must get the same answer, byte for byte.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

jest.setTimeout(120_000);

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await startApp();
  key = await createKey(app, await registerUser(app, 'tess'), 'agent');
});

afterAll(async () => {
  await app?.close();
});

const BOTH = 'application/json, text/event-stream';
const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };

interface Case {
  name: string;
  headers: Record<string, string>;
  body: unknown;
}

const cases: Case[] = [
  { name: 'a ping', headers: { accept: BOTH, 'mcp-protocol-version': '2025-11-25' }, body: ping(1) },
  { name: 'a ping with a string id, no protocol header', headers: { accept: BOTH }, body: ping('p-1') },
  { name: 'Accept without text/event-stream', headers: { accept: 'application/json' }, body: ping(1) },
  { name: 'no Accept', headers: {}, body: ping(1) },
  { name: 'an unsupported protocol version', headers: { accept: BOTH, 'mcp-protocol-version': '1999-01-01' }, body: ping(1) },
  { name: 'not a JSON-RPC message', headers: { accept: BOTH }, body: { hello: 'world' } },
  { name: 'a request with an id that is not an integer', headers: { accept: BOTH }, body: { jsonrpc: '2.0', id: 1.5, method: 'ping' } },
  { name: 'a notification alone', headers: { accept: BOTH, 'mcp-protocol-version': '2025-11-25' }, body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
  { name: 'a response alone', headers: { accept: BOTH, 'mcp-protocol-version': '2025-11-25' }, body: { jsonrpc: '2.0', id: 9, result: {} } },
  { name: 'a batch of two pings (2025-03-26)', headers: { accept: BOTH, 'mcp-protocol-version': '2025-03-26' }, body: [ping(2), ping(1)] },
  { name: 'a batch of a notification and a ping (2025-03-26)', headers: { accept: BOTH, 'mcp-protocol-version': '2025-03-26' }, body: [{ jsonrpc: '2.0', method: 'notifications/initialized' }, ping(3)] },
  { name: 'a batch with an initialize and a ping', headers: { accept: BOTH }, body: [initialize, ping(2)] },
  { name: 'a batch with an invalid message (2025-03-26)', headers: { accept: BOTH, 'mcp-protocol-version': '2025-03-26' }, body: [ping(1), { jsonrpc: '1.0', id: 2, method: 'ping' }] },
  { name: 'an unknown method', headers: { accept: BOTH, 'mcp-protocol-version': '2025-11-25' }, body: { jsonrpc: '2.0', id: 4, method: 'no/such' } },
];

/** The SDK transport's answer to the same POST (a Server with nothing registered: ping and unknown methods are the Protocol's own). */
async function sdkAnswer(c: Case) {
  const server = new Server({ name: 'reference', version: '1' }, { capabilities: { tools: {} } });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const request = new Request('http://mcp.invalid/api/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...c.headers }, body: JSON.stringify(c.body) });
    const response = await transport.handleRequest(request, { parsedBody: c.body });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
  } finally {
    await server.close();
  }
}

async function appAnswer(c: Case) {
  let request = app.http.post('/api/mcp').set(bearer(key)).set('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(c.headers)) request = request.set(name, value);
  // supertest sends Accept only when set; without it the SDK's check sees none either.
  const res = await request.send(JSON.stringify(c.body)).buffer(true).parse((r, done) => {
    let text = '';
    r.on('data', (chunk) => (text += chunk));
    r.on('end', () => done(null, text));
  });
  return { status: res.status, type: res.headers['content-type'] ?? null, body: res.body as string };
}

describe('POST /api/mcp answers as the SDK Streamable HTTP transport (stateless, JSON) does', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const [ours, sdk] = await Promise.all([appAnswer(c), sdkAnswer(c)]);
    expect({ status: ours.status, type: ours.type?.split(';')[0] ?? null, body: ours.body ? JSON.parse(ours.body) : '' }).toEqual({
      status: sdk.status,
      type: sdk.type?.split(';')[0] ?? null,
      body: sdk.body ? JSON.parse(sdk.body) : '',
    });
    // Byte for byte, key order included: clients see the same text.
    expect(ours.body).toBe(sdk.body);
  });
});

describe('a plain tools/call, answered without the SDK Server\'s dispatch, gets the answer the Server gives', () => {
  const post = (body: unknown) =>
    app.http.post('/api/mcp').set(bearer(key)).set('Accept', BOTH).set('Mcp-Protocol-Version', '2025-11-25').set('Content-Type', 'application/json').send(JSON.stringify(body)).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (chunk) => (text += chunk));
      r.on('end', () => done(null, text));
    });
  // The Server runs a call related to a task itself (McpEndpoint.callDirect leaves it to it); with no task store it answers as usual.
  const viaServer = (params: Record<string, unknown>) => ({ ...params, _meta: { ...(params._meta as object), [RELATED_TASK_META_KEY]: { taskId: 'none' } } });

  it.each([
    ['a section', (id: string, sid: string) => ({ name: 'get_section', arguments: { id, sid } })],
    ['a section that does not exist (a tool error)', (id: string) => ({ name: 'get_section', arguments: { id, sid: 'zzzzzz' } })],
    ['an argument the tool does not take', (id: string, sid: string) => ({ name: 'get_section', arguments: { id, sid, colour: 'red' } })],
    ['a tool that does not exist', () => ({ name: 'no_such_tool', arguments: {} })],
    ['the Brief', (id: string) => ({ name: 'get_brief', arguments: { id } })],
  ])('%s', async (_name, paramsOf) => {
    const created = await app.http.post('/api/articles').set(bearer(key)).send({ title: 'Direct', markdown: '## One\n\nFirst.\n\n## Two\n\nSecond.' });
    const { id } = created.body.data.article;
    const sid = created.body.data.outline[1].anchor;
    const params = paramsOf(id, sid) as Record<string, unknown>;
    const direct = await post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params });
    const server = await post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: viaServer(params) });
    expect(direct.status).toBe(200);
    expect(server.status).toBe(200);
    // Reads of one article: the same data and ETag both times.
    expect(JSON.parse(direct.body as string).result ?? JSON.parse(direct.body as string).error).toBeDefined();
    expect(direct.body).toBe(server.body);
  });

  it('leaves a call the schema refuses to the Server (its JSON-RPC error)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { arguments: {} } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body as string)).toEqual({ jsonrpc: '2.0', id: 6, error: { code: expect.any(Number), message: expect.stringContaining('name') } });
  });
});
