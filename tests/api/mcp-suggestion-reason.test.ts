/**
 * CONTRACT section 20 over MCP: a suggestion carries `reason` wherever it is. MCP tools answer
 * with their route's response schema (mcp/tools.ts), so the suggestion a tool returns has it,
 * and the official SDK client checks every result against the tool's outputSchema.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startListeningApp } from '../helpers/cli-login';
import { createKey, registerUser, type TestApp } from '../helpers/strapi';

jest.setTimeout(120_000);

let app: TestApp;
let base: string;
let key: string;
let suggestKey: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  const ada = await registerUser(app, 'ada');
  key = await createKey(app, ada, 'writer');
  suggestKey = await createKey(app, ada, 'drafting agent', 'suggest');
}, 180_000);
afterAll(() => app?.close());

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'quire-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }));
  await client.listTools(); // the client then checks results against each tool's outputSchema
  return client;
}

it('suggest_edits and a suggest key\'s replace_section answer the suggestion with reason, and it is the reject reason once rejected', async () => {
  const created = await app.http.post('/api/articles').set('Authorization', `Bearer ${key}`).send({ title: 'T', markdown: '## One\n\nFirst.' });
  const { id } = created.body.data.article;
  const anchor = created.body.data.outline[0].anchor;
  const agent = await connect(suggestKey);
  try {
    const tools = (await agent.listTools()).tools;
    const suggest = tools.find((t) => t.name === 'suggest_edits')!;
    const suggestionSchema = JSON.stringify(suggest.outputSchema);
    expect(suggestionSchema).toContain('"reason"');

    const made: any = await agent.callTool({ name: 'suggest_edits', arguments: { id, ops: [{ op: 'replace', section: anchor, markdown: '## One\n\nTighter.' }], note: 'Shorter.' } });
    expect(made.isError).toBeFalsy();
    expect(made.structuredContent.suggestion).toMatchObject({ status: 'pending', note: 'Shorter.', reason: null });

    const viaWrite: any = await agent.callTool({ name: 'replace_section', arguments: { id, sid: anchor, markdown: '## One\n\nOther.' } });
    expect(viaWrite.isError).toBeFalsy();
    expect(viaWrite.structuredContent.suggestion).toMatchObject({ status: 'pending', reason: null });

    const rejected = await app.http
      .post(`/api/articles/${id}/suggestions/${made.structuredContent.suggestion.anchor}/reject`)
      .set('Authorization', `Bearer ${key}`)
      .send({ reason: 'Keep the example.' });
    expect(rejected.body.data.suggestion.reason).toBe('Keep the example.');
  } finally {
    await agent.close();
  }
});
