/**
 * The CLI login approval page in a real browser (Debian's chromium, headless, via
 * playwright-core) against a server listening on a real port.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { connectBrowser, newTrackedPage } from '../helpers/browser';
import { registerUser, type TestApp, type TestUser } from '../helpers/strapi';
import { PASSWORD, startListeningApp } from '../helpers/cli-login';

let app: TestApp;
let base: string;
let browser: Browser;
let ada: TestUser;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  ada = await registerUser(app, 'ada');
  browser = await connectBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function requestLogin(name: string) {
  const res = await fetch(`${base}/api/cli/login-request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  return (await res.json()).data;
}

const complete = async (deviceCode: string) => {
  const res = await fetch(`${base}/api/cli/login-complete`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceCode }) });
  return { status: res.status, body: await res.json() };
};

/** A new page that collects CSP violations, script errors and server errors of its own requests: there must be none. */
async function newPage(): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await newTrackedPage(browser);
  return { page, problems };
}

it('signs in, shows the device and its code, and approves: the device then gets its key', async () => {
  const login = await requestLogin("Ada's laptop <dev>");
  const { page, problems } = await newPage();
  await page.goto(login.verificationUrlComplete);
  expect(await page.locator('h1').textContent()).toBe('Sign in to connect a device');

  // The nonce-bearing stylesheet applies under the CSP: the primary button is painted in the accent colour.
  const buttonColour = await page.locator('button.primary').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(buttonColour).not.toBe('rgba(0, 0, 0, 0)');
  expect(buttonColour).not.toBe('rgb(239, 239, 239)');

  await page.fill('#identifier', ada.username);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(/\/cli\/login\?code=/), page.click('button[type=submit]')]);
  expect(await page.locator('h1').textContent()).toBe('Approve this device?');
  expect(await page.locator('.code').textContent()).toBe(login.userCode);
  expect(await page.locator('dd').first().textContent()).toBe("Ada's laptop <dev>");

  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'quire_session')!;
  expect(session).toEqual(expect.objectContaining({ httpOnly: true, sameSite: 'Lax', path: '/' }));
  expect(await page.evaluate(() => document.cookie)).toBe(''); // httpOnly: no script could read them

  const shot = path.join(os.tmpdir(), 'quire-cli-login-confirm.png');
  await page.screenshot({ path: shot, fullPage: true });
  expect(fs.statSync(shot).size).toBeGreaterThan(1000);

  expect((await complete(login.deviceCode)).body.error.code).toBe('authorization-pending');
  await page.click('button[value=approve]');
  await page.waitForSelector('text=Device connected');
  expect(await page.locator('.notice').textContent()).toContain("Ada's laptop <dev>");

  const done = await complete(login.deviceCode);
  expect(done.status).toBe(200);
  expect(done.body.data.secret).toMatch(/^qk_/);
  expect(problems).toEqual([]);
  await page.context().close();
});

it('takes a code typed by hand, in any case and spacing, and denies', async () => {
  const { page, problems } = await newPage();
  await page.goto(`${base}/cli/login`);
  await page.fill('#identifier', ada.email);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(`${base}/cli/login`), page.click('button[type=submit]')]);
  expect(await page.locator('h1').textContent()).toBe('Connect a device');

  await page.fill('#code', 'BCDF GHJK');
  await page.click('button.primary');
  expect(await page.locator('.alert').textContent()).toContain('That code is not valid');

  const login = await requestLogin('build server');
  await page.fill('#code', login.userCode.toLowerCase().replace('-', ' '));
  await page.click('button.primary');
  expect(await page.locator('h1').textContent()).toBe('Approve this device?');
  await page.click('button[value=deny]');
  await page.waitForSelector('text=Login denied');
  expect((await complete(login.deviceCode)).body.error.code).toBe('access-denied');
  expect(problems).toEqual([]);
  await page.context().close();
});

it('shows a wrong password without signing in', async () => {
  const { page } = await newPage();
  await page.goto(`${base}/cli/login`);
  await page.fill('#identifier', ada.username);
  await page.fill('#password', 'wrong password');
  await page.click('button[type=submit]');
  await page.waitForSelector('.alert');
  expect(await page.locator('.alert').textContent()).toBe('Wrong username, email or password.');
  expect(await page.inputValue('#identifier')).toBe(ada.username);
  expect((await page.context().cookies()).some((c) => c.name === 'quire_session')).toBe(false);
  await page.context().close();
});
