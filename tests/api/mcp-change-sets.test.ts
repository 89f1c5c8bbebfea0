/**
 * CONTRACT 23 over MCP, with the official SDK client: write tools take reason and run and
 * answer changeSet; list_changes, get_change, revert_change; list_suggestions and
 * get_suggestion show a suggestion's status and the reviewer's reason.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startListeningApp } from '../helpers/cli-login';
import { bearer, createKey, registerUser, type TestApp } from '../helpers/strapi';

jest.setTimeout(120_000);

let app: TestApp;
let base: string;
let key: string;
let suggestKey: string;

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'quire-change-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result: any = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`);
  return result.structuredContent;
}

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  const ada = await registerUser(app, 'ada');
  key = await createKey(app, ada, 'mcp agent');
  suggestKey = await createKey(app, ada, 'mcp suggester', 'suggest');
});
afterAll(() => app?.close());

describe('change sets over MCP', () => {
  it('lists the tools, with reason and run on write tools', async () => {
    const client = await connect(key);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_changes', 'get_change', 'revert_change', 'list_suggestions', 'get_suggestion']));
    const replace = tools.find((t) => t.name === 'replace_section')!;
    expect(Object.keys(replace.inputSchema.properties!)).toEqual(expect.arrayContaining(['reason', 'run', 'ifMatch']));
    expect(tools.find((t) => t.name === 'revert_change')!.annotations?.readOnlyHint).not.toBe(true);
    await client.close();
  });

  it('writes with reason and run, reads the change with its diff, reverts it', async () => {
    const client = await connect(key);
    const { article, outline } = await call(client, 'create_article', { title: 'MCP changes', markdown: '# Tides\n\nThe moon pulls.' });
    const sid = outline[0].anchor;
    const written = await call(client, 'replace_section', { id: article.id, sid, markdown: '# Tides\n\nThe moon and sun pull.', reason: 'add the sun', run: 'mcp-run-1' });
    expect(written.changeSet).toEqual({ id: expect.any(String), anchor: expect.any(String) });
    const listed = await call(client, 'list_changes', { id: article.id, run: 'mcp-run-1' });
    expect(listed.changes).toHaveLength(1);
    expect(listed.changes[0]).toMatchObject({ reason: 'add the sun', run: 'mcp-run-1', by: { kind: 'agent', name: 'mcp agent' } });
    const got = await call(client, 'get_change', { id: article.id, anchor: written.changeSet.anchor });
    expect(got.change.sections[0].diff).toEqual(expect.arrayContaining([{ op: '+', text: 'and sun pull' }, { op: '-', text: 'pulls' }]));
    const reverted = await call(client, 'revert_change', { id: article.id, anchor: written.changeSet.anchor, reason: 'not yet' });
    expect(reverted.reverted).toEqual([written.changeSet.anchor]);
    expect(reverted.change).toMatchObject({ reason: 'not yet', by: { kind: 'agent' } });
    const section = await app.http.get(`/api/articles/${article.id}/sections/${sid}`).set(bearer(key));
    expect(section.body.data.section.markdown).toBe('# Tides\n\nThe moon pulls.');
    // A run, by run.
    await call(client, 'add_sections', { id: article.id, markdown: '# Neap\n\nSmall tides.', run: 'mcp-run-2' });
    const runRevert = await call(client, 'revert_change', { id: article.id, run: 'mcp-run-2' });
    expect(runRevert.reverted).toHaveLength(1);
    expect((await call(client, 'get_outline', { id: article.id })).outline.map((e: any) => e.title)).toEqual(['Tides']);
    const again: any = await client.callTool({ name: 'revert_change', arguments: { id: article.id, anchor: written.changeSet.anchor } });
    expect(again.isError).toBe(true);
    expect(again.structuredContent.error.code).toBe('conflict');
    await client.close();
  });

  it('a suggester sees its suggestion and why it was rejected', async () => {
    const writer = await connect(key);
    const suggester = await connect(suggestKey);
    const { article, outline } = await call(writer, 'create_article', { title: 'Review', markdown: '# A\n\nText.' });
    const made = await call(suggester, 'replace_section', { id: article.id, sid: outline[0].anchor, markdown: '# A\n\nBetter text.', reason: 'clearer' });
    expect(made.suggestion.status).toBe('pending');
    expect(made.changeSet.id).toBe(made.suggestion.id);
    await app.http.post(`/api/articles/${article.id}/suggestions/${made.suggestion.anchor}/reject`).set(bearer(key)).send({ reason: 'keep it short' });
    const listed = await call(suggester, 'list_suggestions', { id: article.id });
    expect(listed.suggestions[0]).toMatchObject({ status: 'rejected', reason: 'keep it short' });
    const one = await call(suggester, 'get_suggestion', { id: article.id, anchor: made.suggestion.anchor });
    expect(one.suggestion).toMatchObject({ status: 'rejected', reason: 'keep it short' });
    const change = await call(suggester, 'get_change', { id: article.id, anchor: made.changeSet.anchor });
    expect(change.change).toMatchObject({ status: 'rejected', reason: 'clearer' });
    await writer.close();
    await suggester.close();
  });
});
