/**
 * `quire mcp` driven by the official SDK's StdioClientTransport, the way Claude Desktop, Claude
 * Code or Cursor start it: the same tools as POST /api/mcp, with QUIRE_API_KEY or the saved login.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startListeningApp } from '../helpers/cli-login';
import { runCli } from '../helpers/cli';
import { createKey, registerUser, type TestApp } from '../helpers/strapi';

jest.setTimeout(120_000);

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'quire.js');
let app: TestApp;
let base: string;
let key: string;
let dir: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  key = await createKey(app, await registerUser(app, 'ada'), 'desktop agent');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-mcp-'));
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function stdioClient(env: Record<string, string>, args: string[] = []) {
  const client = new Client({ name: 'quire-test-desktop', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: { PATH: process.env.PATH ?? '', CI: '1', QUIRE_CONFIG_DIR: dir, ...env }, stderr: 'pipe' });
  await client.connect(transport);
  return client;
}

it('serves the same tools as /api/mcp over stdio with QUIRE_API_KEY, and writes through them', async () => {
  const client = await stdioClient({ QUIRE_URL: base, QUIRE_API_KEY: key });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_article', 'add_sections', 'get_outline', 'replace_section', 'add_note']));
  const created: any = await client.callTool({ name: 'create_article', arguments: { title: 'From the desktop', markdown: '## One\n\nFirst.' } });
  expect(created.isError).toBeFalsy();
  const id = created.structuredContent.article.id;
  const added: any = await client.callTool({ name: 'add_sections', arguments: { id, markdown: '## Two\n\nSecond.' } });
  expect(added.structuredContent.outline.map((s: any) => s.title)).toEqual(['One', 'Two']);
  const failed: any = await client.callTool({ name: 'get_outline', arguments: { id: 'nothing-here' } });
  expect(failed.isError).toBe(true);
  expect(failed.content[0].text).toMatch(/^not-found: /);
  await client.close();
});

it('uses the saved login when there is no QUIRE_API_KEY', async () => {
  const login = await runCli(['login', '--key', '-', '--url', base], { input: key, env: { QUIRE_CONFIG_DIR: dir } });
  expect(login.code).toBe(0);
  const client = await stdioClient({});
  const listed: any = await client.callTool({ name: 'list_articles', arguments: {} });
  expect(listed.structuredContent.articles.map((a: any) => a.title)).toContain('From the desktop');
  await client.close();
});

it('serves an organization\'s skills with --org-key (QUIRE_ORG_KEY, or the flag\'s value)', async () => {
  const { createOrganizationKey, createWorkflow, setup } = await import('../helpers/triggers');
  const owner = await registerUser(app, 'orgowner');
  const s = await setup(app, owner);
  await createWorkflow(app, owner, s.instanceId, { name: 'Echo back', description: 'Returns its input.' });
  const orgKey = (await createOrganizationKey(app, owner, s.organizationId)).secret;

  const client = await stdioClient({ QUIRE_URL: base, QUIRE_ORG_KEY: orgKey }, ['--org-key']);
  const { tools } = await client.listTools();
  expect(tools.map((t) => [t.name, t.description])).toEqual([['echo_back', 'Returns its input.']]);
  const result: any = await client.callTool({ name: 'echo_back', arguments: { text: 'hi' }, _meta: { idempotencyKey: 'cli-1' } });
  expect(result.structuredContent).toEqual({ text: 'hi' });
  const again: any = await client.callTool({ name: 'echo_back', arguments: { text: 'hi' }, _meta: { idempotencyKey: 'cli-1' } });
  expect(again._meta).toEqual({ executionId: result._meta.executionId, duplicate: true });
  await client.close();

  const byFlag = await stdioClient({ QUIRE_URL: base }, ['--org-key', orgKey]);
  expect((await byFlag.listTools()).tools.map((t) => t.name)).toEqual(['echo_back']);
  await byFlag.close();

  const missing = await runCli(['mcp', '--org-key'], { env: { QUIRE_URL: base, QUIRE_CONFIG_DIR: dir } });
  expect(missing.code).toBe(3);
  expect(missing.stderr).toMatch(/QUIRE_ORG_KEY/);
  const wrong = await runCli(['mcp', '--org-key', `cko_${'x'.repeat(43)}`], { env: { QUIRE_URL: base, QUIRE_CONFIG_DIR: dir } });
  expect(wrong.code).toBe(3);
  expect(wrong.stderr).toMatch(/refused the organization key given to --org-key/);
});

it('refuses to start without a credential, saying how to get one (on stderr, exit 3)', async () => {
  const result = await runCli(['mcp'], { env: { QUIRE_URL: base, QUIRE_CONFIG_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-mcp-none-')) } });
  expect(result.code).toBe(3);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/quire login/);
});

it('lists and revokes connected apps (quire grants)', async () => {
  const { approveOverHttp, pkcePair, REDIRECT_URI } = await import('../helpers/oauth');
  const ada2 = await registerUser(app, 'grace');
  const registered = await app.http.post('/oauth/register').send({ client_name: 'Grants Agent', client_uri: 'https://grants.example', redirect_uris: [REDIRECT_URI] });
  const url = new URL(`${base}/oauth/authorize`);
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: registered.body.client_id, redirect_uri: REDIRECT_URI, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })) {
    url.searchParams.set(k, v);
  }
  await approveOverHttp(app.strapi.server.httpServer, url, { username: ada2.username, password: 'correct horse battery' });
  const env = { QUIRE_URL: base, QUIRE_API_KEY: ada2.jwt, QUIRE_CONFIG_DIR: dir };
  const listed = await runCli(['grants', 'list'], { env });
  expect(listed.code).toBe(0);
  expect(listed.stdout).toMatch(/Grants Agent\s+https:\/\/grants\.example\s+write/);
  const json = JSON.parse((await runCli(['grants', 'list', '--json'], { env })).stdout);
  const id = json.data.grants[0].id as string;
  const revoked = await runCli(['grants', 'revoke', id.slice(0, 8)], { env });
  expect(revoked.stdout).toMatch(/Disconnected Grants Agent/);
  expect(JSON.parse((await runCli(['grants', 'list', '--json'], { env })).stdout).data.grants).toEqual([]);
});
