/**
 * The API reference page (GET /api/docs) in a real browser (Debian's chromium, headless, via
 * playwright-core): Swagger UI served from this server, rendering every operation of
 * /api/openapi.json, with no console error, no CSP violation and no request to another origin.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ARTIFACTS_DIR, connectBrowser, keepScreenshotOnFailure, newTrackedPage, PHONE } from '../helpers/browser';
import type { TestApp } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';

let app: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

it('renders every operation of the document, from files of this server only, without errors', async () => {
  const document = await (await fetch(`${base}/api/openapi.json`)).json();
  const operations = Object.values(document.paths).reduce((n: number, ops: any) => n + Object.keys(ops).length, 0);

  const { page, context, problems } = await newTrackedPage(browser);
  const origins = new Set<string>();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('request', (request) => origins.add(new URL(request.url()).origin));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  // Screenshots to look at: .tmp/e2e-artifacts/api-docs/ (gitignored).
  const shots = path.join(ARTIFACTS_DIR, 'api-docs');
  fs.mkdirSync(shots, { recursive: true });

  await keepScreenshotOnFailure(page, async () => {
    const res = await page.goto(`${base}/api/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res?.headers()['x-frame-options']).toBe('DENY');
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    expect(await page.locator('.info .title').innerText()).toMatch(/Quire API/);
    // Swagger UI says so in the page when it finds something in the document it cannot show.
    expect(await page.locator('.information-container').innerText()).not.toMatch(/warning/i);
    expect(await page.locator('.errors-wrapper').count()).toBe(0);

    // Swagger UI 5 keeps only the operations near the viewport in the page once a document is
    // long: scroll through it from top to bottom and collect every operation that appears.
    const seen = new Map<string, string>();
    for (let y = 0; ; y += 600) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(50);
      const blocks = await page.$$eval('.opblock', (els) => els.map((e) => [e.id, e.querySelector('.opblock-summary-path')?.textContent ?? ''] as [string, string]));
      for (const [id, opPath] of blocks) seen.set(id, opPath.replace(/\u200b/g, ''));
      if (y > (await page.evaluate(() => document.documentElement.scrollHeight))) break;
    }
    expect(seen.size).toBe(operations);
    expect([...seen.values()].filter((p) => p === '/webhook/{processInstanceId}/{workflowId}')).toHaveLength(1);
    await page.evaluate(() => window.scrollTo(0, 0));

    await page.screenshot({ path: path.join(shots, 'laptop.png') });
    // An operation opens to its parameters and responses, error codes included.
    const create = page.locator('.opblock-post', { has: page.locator('.opblock-summary-path', { hasText: /^\/api\/articles$/ }) });
    await create.locator('.opblock-summary').click();
    await create.locator('.responses-table').waitFor();
    expect(await create.locator('.responses-table .response-col_status').allInnerTexts()).toEqual(expect.arrayContaining(['201', '400', '401', '403']));

    await page.screenshot({ path: path.join(shots, 'operation.png') });
    // On a phone's width too.
    await page.setViewportSize(PHONE);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shots, 'phone.png') });
    expect(problems).toEqual([]);
    expect([...origins]).toEqual([base]);
  });
  await context.close();
});

it('is a page that cannot be framed, and the files it loads are this server\'s', async () => {
  const res = await fetch(`${base}/api/docs`);
  const html = await res.text();
  expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
  expect(html).not.toMatch(/https?:\/\//);
  for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) {
    const asset = await fetch(`${base}/api/docs/${file}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  }
  const missing = await fetch(`${base}/api/docs/package.json`);
  expect(missing.status).toBe(404);
  expect((await missing.json()).error.code).toBe('not-found');
});
