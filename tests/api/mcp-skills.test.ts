/**
 * MCP for organizations (CONTRACT 21, issue 24 point 3): POST /api/mcp with an organization key
 * lists the organization's skills as tools and runs them, driven by the official SDK's client
 * over Streamable HTTP, the way an agent connects.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ActionError } from '../../src/plugins/triggers/server/src/domain/action-error';
import { startListeningApp } from '../helpers/cli-login';
import { bearer, createKey, registerUser, type TestApp, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganizationKey, createWorkflow, setup, type Setup } from '../helpers/triggers';
import { waitFor } from '../helpers/wait';

jest.setTimeout(120_000);

let app: TestApp;
let base: string;
let alice: TestUser;
let s: Setup;
let orgKey: string;
const gates = new Map<string, () => void>();
const RATE_LIMIT = 30;

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'org-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers } }));
  return client;
}
const asOrg = (key: string) => connect({ 'X-Process-Manager-Key': key });

async function executionIds(workflowId: string): Promise<string[]> {
  const res = await app.http.get(`/api/process-instances/${s.instanceId}/executions?workflowId=${workflowId}`).set(bearer(alice.jwt));
  expect(res.status).toBe(200);
  return res.body.data.executions.map((e: any) => e.executionId);
}

beforeAll(async () => {
  // A low trigger limit, for the rate-limit test (its own instance; the others stay far below it).
  ({ app, base } = await startListeningApp({ TRIGGER_RATE_LIMIT: String(RATE_LIMIT) }));
  const actions = app.strapi.plugin('triggers').service('actions');
  actions.register('test.fail', () => {
    throw new ActionError('upstream-rejected', 'The upstream said no.');
  });
  // Finishes only when the test opens it.
  actions.register('test.gate', (_input: unknown, ctx: any) => new Promise<string>((resolve) => gates.set(ctx.executionId, () => resolve('opened'))));
  alice = await registerUser(app, 'alice');
  s = await setup(app, alice);
  orgKey = (await createOrganizationKey(app, alice, s.organizationId)).secret;
});
afterAll(() => app?.close());

describe('POST /api/mcp with an organization key', () => {
  it('lists one tool per skill (and nothing else), a workflow added showing on the next list, a disabled one gone', async () => {
    const greet = await createWorkflow(app, alice, s.instanceId, {
      name: 'Greet',
      description: 'Says hello to someone.',
      inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
    });
    const client = await asOrg(orgKey);
    const first = await client.listTools();
    expect(first.tools).toEqual([
      expect.objectContaining({ name: 'greet', title: 'Greet', description: 'Says hello to someone.', inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] } }),
    ]);

    const plain = await createWorkflow(app, alice, s.instanceId, { name: 'Echo back' });
    const second = await client.listTools();
    expect(second.tools.map((t) => t.name)).toEqual(['greet', 'echo_back']);
    // No inputSchema: any object.
    expect(second.tools[1].inputSchema).toEqual({ type: 'object' });
    expect(second.tools[1].description).toMatch(/Echo back/);

    await app.http.patch(`/api/process-instances/${s.instanceId}/workflows/${plain.id}`).set(bearer(alice.jwt)).send({ enabled: false });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet']);
    await app.http.patch(`/api/process-instances/${s.instanceId}/workflows/${plain.id}`).set(bearer(alice.jwt)).send({ enabled: true });
    expect(greet.id).toEqual(expect.any(String));
    await client.close();
  });

  it('takes the key as Authorization: Bearer cko_... too, and refuses a wrong one with 401', async () => {
    const client = await connect({ Authorization: `Bearer ${orgKey}` });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('greet');
    await client.close();
    const wrong = await app.http
      .post('/api/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .set('Authorization', `Bearer cko_${'x'.repeat(43)}`)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'unauthenticated', message: 'The organization key in Authorization is not valid (revoked, or never issued).' });
  });

  it('calls a skill: the output as JSON, an execution like any other', async () => {
    const client = await asOrg(orgKey);
    const result: any = await client.callTool({ name: 'greet', arguments: { who: 'Ada' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ who: 'Ada' });
    expect(JSON.parse(result.content[0].text)).toEqual({ who: 'Ada' });
    const greet = (await app.http.get('/api/skills').set('X-Process-Manager-Key', orgKey)).body.data.skills.find((k: any) => k.name === 'greet');
    expect(await executionIds(greet.workflowId)).toContain(result._meta.executionId);
    const status = await app.http.get(`/status/${s.instanceId}/${result._meta.executionId}`).set('X-Process-Manager-Key', orgKey);
    expect(status.body.data).toMatchObject({ status: 'success', output: { who: 'Ada' } });

    // An input the schema refuses: a tool error naming the path, and nothing runs.
    const before = (await executionIds(greet.workflowId)).length;
    const refused: any = await client.callTool({ name: 'greet', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(/^input\.who is required/) });
    expect((await executionIds(greet.workflowId)).length).toBe(before);

    // An output that is not an object: the JSON as text, no structured content.
    const echo: any = await client.callTool({ name: 'echo_back', arguments: { list: [1, 2] } });
    expect(JSON.parse(echo.content[0].text)).toEqual({ list: [1, 2] });
    await client.close();
  });

  it('answers a failed execution with a tool error carrying its error', async () => {
    await createWorkflow(app, alice, s.instanceId, { name: 'Fails', action: 'test.fail' });
    const client = await asOrg(orgKey);
    const result: any = await client.callTool({ name: 'fails', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({ code: 'upstream-rejected', message: 'The upstream said no.' });
    expect(result.content[0].text).toMatch(/^upstream-rejected: The upstream said no\./);
    await client.close();
  });

  it('answers a still running execution with {executionId, status, statusUrl}', async () => {
    await createWorkflow(app, alice, s.instanceId, { name: 'Slow', action: 'test.gate' });
    const client = await asOrg(orgKey);
    const result: any = await client.callTool({ name: 'slow', arguments: {}, _meta: { waitSeconds: 1 } });
    expect(result.isError).toBeFalsy();
    const { executionId } = result.structuredContent;
    expect(result.structuredContent).toEqual({ executionId, status: expect.stringMatching(/^(pending|running)$/), statusUrl: `${base}/status/${s.instanceId}/${executionId}` });
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    await waitFor(() => gates.has(executionId), { what: 'the execution at its gate', timeout: 5_000, interval: 20 });
    gates.get(executionId)!();
    const status = await app.http.get(`/status/${s.instanceId}/${executionId}?wait=5`).set('X-Process-Manager-Key', orgKey);
    expect(status.body.data).toMatchObject({ status: 'success', output: 'opened' });

    const bad: any = await client.callTool({ name: 'slow', arguments: {}, _meta: { waitSeconds: 31 } });
    expect(bad.structuredContent.error).toMatchObject({ code: 'invalid-argument', message: '_meta.waitSeconds must be an integer from 0 to 30.' });
    await client.close();
  });

  it('answers a workflow disabled meanwhile with a tool error saying so', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { name: 'Soon off' });
    const client = await asOrg(orgKey);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('soon_off');
    await app.http.patch(`/api/process-instances/${s.instanceId}/workflows/${wf.id}`).set(bearer(alice.jwt)).send({ enabled: false });
    const result: any = await client.callTool({ name: 'soon_off', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({ code: 'not-found', message: expect.stringMatching(/^The skill soon_off is disabled/) });
    expect(result.structuredContent.error.nextAction).toMatch(/tools\/list/);
    expect(await executionIds(wf.id)).toEqual([]);
    await client.close();
  });

  it('gives tool calls Idempotency-Key semantics through _meta.idempotencyKey', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { name: 'Once' });
    const client = await asOrg(orgKey);
    const first: any = await client.callTool({ name: 'once', arguments: { n: 1 }, _meta: { idempotencyKey: 'order-42' } });
    const repeat: any = await client.callTool({ name: 'once', arguments: { n: 1 }, _meta: { idempotencyKey: 'order-42' } });
    expect(first._meta).toEqual({ executionId: expect.any(String), duplicate: false });
    expect(repeat._meta).toEqual({ executionId: first._meta.executionId, duplicate: true });
    expect(repeat.structuredContent).toEqual({ n: 1 });
    expect(await executionIds(wf.id)).toEqual([first._meta.executionId]);

    const other: any = await client.callTool({ name: 'once', arguments: { n: 2 }, _meta: { idempotencyKey: 'order-42' } });
    expect(other.isError).toBe(true);
    expect(other.structuredContent.error.code).toBe('unprocessable');
    const fresh: any = await client.callTool({ name: 'once', arguments: { n: 1 }, _meta: { idempotencyKey: 'order-43' } });
    expect(fresh._meta.duplicate).toBe(false);
    expect(await executionIds(wf.id)).toHaveLength(2);
    await client.close();
  });

  it('counts skill calls against the instance\'s trigger rate limit, as POST /webhook', async () => {
    const limited = await createInstance(app, alice, s.organizationId, 'limited');
    await createWorkflow(app, alice, limited.instanceId, { name: 'Limited' });
    const client = await asOrg(orgKey);
    for (let i = 0; i < RATE_LIMIT - 1; i += 1) {
      const ok: any = await client.callTool({ name: 'limited', arguments: { i } });
      expect(ok.isError).toBeFalsy();
    }
    // The webhook shares the counter: its call is the last one allowed.
    const wf = (await app.http.get('/api/skills').set('X-Process-Manager-Key', orgKey)).body.data.skills.find((k: any) => k.name === 'limited');
    expect((await app.http.post(`/webhook/${limited.instanceId}/${wf.workflowId}`).set('X-Process-Manager-Key', orgKey).send({ payload: {} })).status).toBe(202);
    const refused: any = await client.callTool({ name: 'limited', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({ code: 'rate-limited', message: 'Too many triggers for this process instance.', nextAction: expect.stringMatching(/^Retry after \d+ seconds?\.$/) });
    await client.close();
  });

  it('shows an organization key of another organization nothing of this one', async () => {
    const bob = await registerUser(app, 'bob');
    const elsewhere = await setup(app, bob);
    const bobKey = (await createOrganizationKey(app, bob, elsewhere.organizationId)).secret;
    const client = await asOrg(bobKey);
    expect((await client.listTools()).tools).toEqual([]);
    const result: any = await client.callTool({ name: 'greet', arguments: { who: 'Ada' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({ code: 'not-found', message: 'No skill named greet in this organization.' });
    await client.close();
  });

  it('keeps giving a user key quire\'s article tools', async () => {
    const client = await connect({ Authorization: `Bearer ${await createKey(app, alice, 'agent')}` });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('list_articles');
    expect(names).not.toContain('greet');
    await client.close();
  });
});
