/**
 * POST /api/mcp answers the HTTP side of Streamable HTTP itself (mcp/server.ts `answerPost`, issue
 * 21 point 8) instead of through the SDK's WebStandardStreamableHTTPServerTransport: every case
 * here is sent both to the app and to that SDK transport in stateless JSON-response mode, and the
 * two answers must be the same (status, content type, body). Every tools/call is answered
 * without the SDK Server's per-message dispatch (McpEndpoint.callDirect, the one tools/call
 * path): an SDK Server whose tools/call handler returns the same result must frame it into the
 * same answer, byte for byte.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
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

/** The SDK's answer to a tools/call whose handler returns `result`: how its Server frames a tool's result. */
async function sdkCallAnswer(message: unknown, result: unknown) {
  const server = new Server({ name: 'reference', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async () => result as never);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = { 'content-type': 'application/json', accept: BOTH, 'mcp-protocol-version': '2025-11-25' };
    const response = await transport.handleRequest(new Request('http://mcp.invalid/api/mcp', { method: 'POST', headers, body: JSON.stringify(message) }), { parsedBody: message });
    return { status: response.status, body: await response.text() };
  } finally {
    await server.close();
  }
}

describe('tools/call, answered without the SDK Server\'s dispatch, is framed as the Server frames it', () => {
  const post = (body: unknown) =>
    app.http.post('/api/mcp').set(bearer(key)).set('Accept', BOTH).set('Mcp-Protocol-Version', '2025-11-25').set('Content-Type', 'application/json').send(JSON.stringify(body)).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (chunk) => (text += chunk));
      r.on('end', () => done(null, text));
    });
  // A call related to a task runs as any other (no task store): the same answer as without the _meta.
  const relatedToTask = (params: Record<string, unknown>) => ({ ...params, _meta: { ...(params._meta as object), [RELATED_TASK_META_KEY]: { taskId: 'none' } } });

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
    const message = { jsonrpc: '2.0', id: 5, method: 'tools/call', params };
    const ours = await post(message);
    expect(ours.status).toBe(200);
    const { result } = JSON.parse(ours.body as string);
    expect(result).toBeDefined();
    // The SDK's Server, handed the same result, writes the same bytes (its result check, key order and all).
    const sdk = await sdkCallAnswer(message, result);
    expect(sdk.status).toBe(200);
    expect(ours.body).toBe(sdk.body);
    // Reads of one article: the same data and ETag with the _meta of a related task.
    const related = await post({ ...message, params: relatedToTask(params) });
    expect(related.body).toBe(ours.body);
  });

  it('answers a call the schema refuses with invalid params, in words', async () => {
    const res = await post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { arguments: {} } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body as string)).toEqual({ jsonrpc: '2.0', id: 6, error: { code: -32602, message: expect.stringContaining('name') } });
  });

  it('refuses a call that asks to run as a task (no tasks capability), in words', async () => {
    const res = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_articles', arguments: {}, task: { ttl: 1000 } } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body as string)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: expect.stringContaining('without params.task') } });
  });
});
