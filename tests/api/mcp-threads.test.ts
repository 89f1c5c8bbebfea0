/**
 * CONTRACT 24 over MCP, with the official SDK client (which checks every result against the
 * tool's outputSchema): list_threads, get_thread, create_thread, reply_thread, resolve_thread
 * are their routes; a read key lists but may not comment; bodies come back sanitised.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startListeningApp } from '../helpers/cli-login';
import { createKey, registerUser, type TestApp } from '../helpers/strapi';

jest.setTimeout(120_000);

let app: TestApp;
let base: string;
let key: string;
let readKey: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  const ada = await registerUser(app, 'ada');
  key = await createKey(app, ada, 'fact checker');
  readKey = await createKey(app, ada, 'watcher', 'read');
}, 180_000);
afterAll(() => app?.close());

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'quire-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }));
  await client.listTools();
  return client;
}

it('an agent opens a thread on a quote, replies, resolves, and lists; a read key lists only', async () => {
  const created = await app.http.post('/api/articles').set('Authorization', `Bearer ${key}`).send({ title: 'T', markdown: '## One\n\nThe moon is made of cheese.' });
  const { id } = created.body.data.article;
  const section = created.body.data.outline[0].anchor;
  const agent = await connect(key);
  const watcher = await connect(readKey);
  try {
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_threads', 'get_thread', 'create_thread', 'reply_thread', 'resolve_thread']));

    const made: any = await agent.callTool({ name: 'create_thread', arguments: { id, section, quote: 'made of cheese', body: 'Source? <img src=x onerror="alert(1)">' } });
    expect(made.isError).toBeFalsy();
    const thread = made.structuredContent.thread;
    expect(thread).toMatchObject({ quote: 'made of cheese', section, status: 'open', detached: false, by: { kind: 'agent', name: 'fact checker' } });
    expect(thread.comments[0].html).not.toContain('onerror');

    const missing: any = await agent.callTool({ name: 'create_thread', arguments: { id, section, quote: 'made of rock', body: 'x' } });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error).toMatchObject({ code: 'invalid-argument' });
    expect(missing.structuredContent.error.message).toContain(section);

    const replied: any = await agent.callTool({ name: 'reply_thread', arguments: { id, anchor: thread.anchor, body: 'Found none: cutting it.' } });
    expect(replied.structuredContent.comment).toMatchObject({ body: 'Found none: cutting it.', executions: [] });

    const resolved: any = await agent.callTool({ name: 'resolve_thread', arguments: { id, anchor: thread.anchor } });
    expect(resolved.structuredContent.thread).toMatchObject({ status: 'resolved', resolvedBy: { kind: 'agent', name: 'fact checker' } });

    const listed: any = await watcher.callTool({ name: 'list_threads', arguments: { id, status: 'resolved' } });
    expect(listed.structuredContent.threads.map((t: { id: string }) => t.id)).toEqual([thread.id]);
    const got: any = await watcher.callTool({ name: 'get_thread', arguments: { id, anchor: thread.anchor } });
    expect(got.structuredContent.thread.comments).toHaveLength(2);
    const refused: any = await watcher.callTool({ name: 'reply_thread', arguments: { id, anchor: thread.anchor, body: 'no' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error.code).toBe('permission-denied');
  } finally {
    await agent.close();
    await watcher.close();
  }
});
