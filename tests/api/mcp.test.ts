/**
 * POST /api/mcp driven by the official SDK's client over Streamable HTTP, the way an agent
 * connects: list the tools, call them with an API key, read tool errors.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startListeningApp } from '../helpers/cli-login';
import { createKey, registerUser, type TestApp } from '../helpers/strapi';

jest.setTimeout(120_000);

let app: TestApp;
let base: string;
let key: string;
let otherKey: string;

async function connect(secret?: string): Promise<Client> {
  const client = new Client({ name: 'quire-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
    requestInit: secret ? { headers: { Authorization: `Bearer ${secret}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}

/** A tool's successful result: its structured content (the route's data), also given as JSON text. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result: any = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`);
  expect(JSON.parse(result.content[0].text.split('\nETag: ')[0])).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** A tool error: its text has the code, message and nextAction. */
async function callError(client: Client, name: string, args: Record<string, unknown>) {
  const result: any = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return { text: result.content[0].text as string, error: result.structuredContent.error };
}

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  const ada = await registerUser(app, 'ada');
  key = await createKey(app, ada, 'agent');
  otherKey = await createKey(app, await registerUser(app, 'bob'), 'bob agent');
});

afterAll(async () => {
  await app?.close();
});

describe('POST /api/mcp', () => {
  it('refuses a request without a credential with 401 and the resource metadata URL', async () => {
    const res = await app.http.post('/api/mcp').set('Accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`);
    expect(res.body.error.code).toBe('unauthenticated');
  });

  it('lists the tools of CONTRACT 16 whose routes exist, with the routes\' input schemas', async () => {
    const client = await connect(key);
    expect(client.getServerVersion()?.name).toBe('quire');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['list_articles', 'create_article', 'get_article', 'get_outline', 'get_section', 'add_sections', 'replace_section', 'move_section', 'delete_section',
      'get_brief', 'set_premise', 'add_note', 'update_note', 'delete_note', 'publish_article', 'import_article', 'unfurl']) {
      expect(names).toContain(name);
    }
    const create = tools.find((t) => t.name === 'create_article')!;
    expect(create.inputSchema.required).toEqual(['title']);
    expect(Object.keys(create.inputSchema.properties!)).toEqual(['title', 'markdown', 'premise']);
    const replace = tools.find((t) => t.name === 'replace_section')!;
    expect(Object.keys(replace.inputSchema.properties!)).toEqual(expect.arrayContaining(['id', 'sid', 'markdown', 'html']));
    expect(replace.inputSchema.required).toEqual(expect.arrayContaining(['id', 'sid']));
    for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(40);
    expect(tools.find((t) => t.name === 'get_outline')!.annotations?.readOnlyHint).toBe(true);
    await client.close();
  });

  it('writes an article section by section through the tools', async () => {
    const client = await connect(key);
    const created = await call(client, 'create_article', { title: 'Tides', markdown: '## Why the sea moves\n\nThe moon pulls.', premise: 'Tides are gravity made visible.' });
    const id = created.article.id;
    expect(created.outline).toHaveLength(1);

    const added = await call(client, 'add_sections', { id, markdown: '## Spring tides\n\nSun and moon align.\n\n## Neap tides\n\nThey pull apart.' });
    expect(added.outline.map((s: any) => s.title)).toEqual(['Why the sea moves', 'Spring tides', 'Neap tides']);

    const outline = (await call(client, 'get_outline', { id: id.slice(0, 8) })).outline;
    const [first, spring, neap] = outline.map((s: any) => s.anchor);
    const section = (await call(client, 'get_section', { id, sid: spring })).section;
    expect(section.markdown).toContain('Sun and moon align.');

    const replaced = await call(client, 'replace_section', { id, sid: spring, markdown: '## Spring tides\n\nSun and moon in a line: the highest tides.' });
    expect(replaced.outline).toHaveLength(3);
    const moved = await call(client, 'move_section', { id, sid: neap, before: first });
    expect(moved.outline.map((s: any) => s.title)).toEqual(['Neap tides', 'Why the sea moves', 'Spring tides']);
    const afterDelete = await call(client, 'delete_section', { id, sid: neap });
    expect(afterDelete.outline).toHaveLength(2);

    const note = await call(client, 'add_note', { id, kind: 'source', title: 'NOAA tides primer', url: 'https://oceanservice.noaa.gov/education/tutorial_tides/' });
    const nid = note.note.anchor;
    await call(client, 'update_note', { id, nid, body: 'The clearest primer.' });
    expect((await call(client, 'set_premise', { id, premise: 'The sea follows the moon.' })).premise).toBe('The sea follows the moon.');
    const brief = await call(client, 'get_brief', { id });
    expect(brief.premise).toBe('The sea follows the moon.');
    expect(brief.notes).toEqual([expect.objectContaining({ title: 'NOAA tides primer', body: 'The clearest primer.', createdBy: 'agent' })]);
    await call(client, 'delete_note', { id, nid });

    const article = await call(client, 'get_article', { id });
    expect(article.article.title).toBe('Tides');
    const published = await call(client, 'publish_article', { id });
    expect(published.url).toMatch(new RegExp(`^${base}/p/`));

    const listed = await call(client, 'list_articles', { limit: '5' });
    expect(listed.articles.map((a: any) => a.id)).toContain(id);

    const imported = await call(client, 'import_article', { markdown: '---\ntitle: Imported\n---\n\n## One\n\nText.' });
    expect(imported.article.title).toBe('Imported');
    await client.close();
  });

  it('answers failures as tool errors with code, message and nextAction', async () => {
    const client = await connect(key);
    const missing = await callError(client, 'get_outline', { id: 'doesnotexist' });
    expect(missing.error.code).toBe('not-found');
    expect(missing.text).toMatch(/^not-found: .+\nNext: .+/);

    const invalid = await callError(client, 'create_article', { title: '' });
    expect(invalid.error).toEqual({ code: 'invalid-argument', message: expect.stringContaining('title'), nextAction: expect.any(String) });

    const unknown = await callError(client, 'get_outline', { id: 'x', nope: 1 });
    expect(unknown.error.code).toBe('invalid-argument');
    await client.close();
  });

  it('scopes every tool to the caller\'s own articles', async () => {
    const ada = await connect(key);
    const { article } = await call(ada, 'create_article', { title: 'Private' });
    const bob = await connect(otherKey);
    expect((await callError(bob, 'get_article', { id: article.id })).error.code).toBe('not-found');
    expect((await call(bob, 'list_articles')).articles.map((a: any) => a.id)).not.toContain(article.id);
    await ada.close();
    await bob.close();
  });

  it('gives a read key tool errors on writes, and searches', async () => {
    const ada = await connect(key);
    const { article } = await call(ada, 'create_article', { title: 'Searchable', markdown: '## Moon\n\nThe moon pulls the tide.' });
    const inArticle = await call(ada, 'search', { id: article.id, q: 'TIDE' });
    expect(inArticle.matches).toEqual([expect.objectContaining({ title: 'Moon', count: 1 })]);
    const everywhere = await call(ada, 'search', { q: 'moon pulls' });
    expect(everywhere.results.map((r: any) => r.article.id)).toContain(article.id);
    await ada.close();

    const readKey = (await app.http.post('/api/keys').set('Authorization', `Bearer ${(await registerUser(app, 'reader')).jwt}`).send({ name: 'reader', scope: 'read' })).body.data.secret;
    const reader = await connect(readKey);
    expect((await call(reader, 'list_articles')).articles).toEqual([]);
    const refused = await callError(reader, 'create_article', { title: 'No' });
    expect(refused.error.code).toBe('permission-denied');
    await reader.close();
  });

  it('is stateless: no session id, and GET is not served', async () => {
    const res = await app.http
      .post('/api/mcp')
      .set('Authorization', `Bearer ${key}`)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.body.result.protocolVersion).toBe('2025-11-25');
    const get = await app.http.get('/api/mcp').set('Authorization', `Bearer ${key}`);
    expect(get.status).toBe(404);
  });
});
