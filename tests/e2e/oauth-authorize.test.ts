/**
 * The whole OAuth connection of an MCP agent, with the person's part in a real browser
 * (Chromium): the SDK's client discovers the authorization server from /api/mcp's 401,
 * registers, and "opens" the authorize page; the person signs in and approves on a phone-sized
 * screen; the agent finishes with the code and writes through the tools.
 */
import http from 'node:http';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { connectBrowser, newTrackedPage, PHONE } from '../helpers/browser';
import { freePort, PASSWORD, startListeningApp } from '../helpers/cli-login';
import { RecordingProvider } from '../helpers/oauth';
import { registerUser, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let base: string;
let browser: Browser;
let ada: TestUser;
/** The agent's redirect URI: a local page that records where the browser was sent back to. */
let callbackServer: http.Server;
let redirectUri: string;
let callback: URL | undefined;

beforeAll(async () => {
  const port = await freePort();
  redirectUri = `http://127.0.0.1:${port}/callback`;
  callbackServer = http.createServer((req, res) => {
    const url = new URL(req.url!, redirectUri);
    if (url.pathname === '/callback') callback = url;
    res.setHeader('content-type', 'text/plain');
    res.end('You can close this window.');
  });
  await new Promise<void>((resolve) => callbackServer.listen(port, '127.0.0.1', () => resolve()));
  ({ app, base } = await startListeningApp());
  ada = await registerUser(app, 'ada');
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await new Promise((resolve) => callbackServer?.close(resolve));
});

const connect = (provider: RecordingProvider) => {
  const client = new Client({ name: 'browser-agent', version: '1' });
  return client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { authProvider: provider })).then(() => client);
};

it('an agent given only /api/mcp gets the person\'s consent in the browser and writes an article', async () => {
  const provider = new RecordingProvider('Claude (test)', undefined, undefined, redirectUri);
  await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);

  const { page, problems } = await newTrackedPage(browser, { viewport: PHONE });
  await page.goto(provider.authorizationUrl!.toString());
  expect(await page.locator('h1').textContent()).toBe('Sign in to connect Claude (test)');
  await page.fill('#identifier', ada.username);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
  expect(await page.locator('h1').textContent()).toBe('Connect Claude (test) to your account?');
  const facts = await page.locator('dl').textContent();
  expect(facts).toContain('https://agent.example');
  expect(facts).toContain(new URL(redirectUri).host);
  expect(facts).toContain('write');
  // Readable on a phone: nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await Promise.all([page.waitForURL((url) => url.href.startsWith(redirectUri)), page.getByRole('button', { name: 'Approve' }).click()]);
  expect(callback?.searchParams.get('iss')).toBe(base);
  expect(problems).toEqual([]);
  await page.context().close();

  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { authProvider: provider });
  await transport.finishAuth(callback!.searchParams.get('code')!);
  const client = await connect(provider);
  const created: any = await client.callTool({ name: 'create_article', arguments: { title: 'Approved on a phone', markdown: '## First\n\nHello.' } });
  expect(created.isError).toBeFalsy();
  const outline: any = await client.callTool({ name: 'get_outline', arguments: { id: created.structuredContent.article.id } });
  expect(outline.structuredContent.outline[0].title).toBe('First');
  await client.close();
});

it('cannot be framed by another site', async () => {
  const res = await fetch(`${base}/oauth/authorize?client_id=nobody`);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
});
