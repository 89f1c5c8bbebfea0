/**
 * The public copy of a published article (/p/{slug}) in a real browser (Debian's chromium,
 * headless, via playwright-core): its one stylesheet applies under the strict CSP, and the
 * article's title stays the largest heading even when a section starts with an `h1`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { bearer, createKey, registerUser, type TestApp } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let app: TestApp;
let browser: Browser;
let key: string;

beforeAll(async () => {
  ({ app } = await startListeningApp());
  key = await createKey(app, await registerUser(app, 'ada'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

it('keeps section headings below the article title, without rewriting the stored HTML', async () => {
  const markdown = '# The first part\n\nText of the first part.\n\n## A detail\n\nMore.\n\n# The second part\n\nText.';
  const created = await app.http.post('/api/articles').set(bearer(key)).send({ title: 'The real title', markdown });
  const id = created.body.data.article.id;
  const published = await app.http.post(`/api/articles/${id}/publish`).set(bearer(key));
  const url: string = published.body.data.url;

  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  await page.goto(url);
  const size = (selector: string) => page.locator(selector).first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const title = await size('header h1');
  const sectionH1 = await size('section h1');
  const sectionH2 = await size('section h2');
  expect(await page.locator('header h1').textContent()).toBe('The real title');
  expect(await page.locator('section h1').count()).toBe(2); // still h1 in the page: only the look changes
  expect(title).toBeGreaterThan(sectionH1 * 1.2);
  expect(sectionH1).toBeGreaterThan(sectionH2);
  expect(sectionH2).toBeGreaterThan(18); // still above body text (18px)
  const shot = path.join(os.tmpdir(), 'quire-public-page.png');
  await page.screenshot({ path: shot, fullPage: true });
  expect(fs.statSync(shot).size).toBeGreaterThan(1000);
  expect(problems).toEqual([]);
  await page.context().close();

  // The section's stored HTML is as it was rendered: an h1.
  const outline = (await app.http.get(`/api/articles/${id}/outline`).set(bearer(key))).body.data.outline;
  const section = await app.http.get(`/api/articles/${id}/sections/${outline[0].anchor}`).set(bearer(key));
  expect(section.body.data.section.html).toMatch(/^<h1>The first part<\/h1>/);
});
