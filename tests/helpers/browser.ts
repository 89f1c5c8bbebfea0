/**
 * Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core. The
 * browser project's global setup launches one browser server; each test file connects to it
 * (`connectBrowser`) and works in its own contexts. Screenshots of failing tests are kept in
 * .tmp/e2e-artifacts (`keepScreenshotOnFailure`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const BROWSER_ENDPOINT_ENV = 'QUIRE_E2E_BROWSER_WS';
const root = path.resolve(__dirname, '..', '..');
const endpointFile = path.join(root, '.tmp', 'e2e-browser-endpoint');
export const ARTIFACTS_DIR = path.join(root, '.tmp', 'e2e-artifacts');

export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };

export function writeBrowserEndpoint(endpoint: string) {
  fs.mkdirSync(path.dirname(endpointFile), { recursive: true });
  fs.writeFileSync(endpointFile, endpoint);
}

export function removeBrowserEndpoint() {
  fs.rmSync(endpointFile, { force: true });
}

/**
 * The shared browser of this Jest run, or, when a test file runs without the browser
 * project's global setup, a browser of its own (closed with `browser.close()` all the same).
 */
export async function connectBrowser(): Promise<Browser> {
  const endpoint = process.env[BROWSER_ENDPOINT_ENV] || (fs.existsSync(endpointFile) ? fs.readFileSync(endpointFile, 'utf8').trim() : '');
  if (endpoint) {
    try {
      return await chromium.connect(endpoint);
    } catch {
      // A stale endpoint file from an interrupted run: launch one below.
    }
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** Script errors, CSP violations and 5xx answers seen by the page: a test expects none. */
  problems: string[];
}

/** A page in a new context that records what went wrong in it. */
export async function newTrackedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: LAPTOP, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 500 && !response.url().endsWith('/favicon.ico')) problems.push(`${response.status()} ${response.url()}`);
  });
  return { page, context, problems };
}

const safeName = (text: string) => text.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '').slice(0, 120);

/**
 * Runs `work`; when it throws, saves a full-page screenshot of `page` as
 * .tmp/e2e-artifacts/<test file>/<current test>.png before rethrowing.
 */
export async function keepScreenshotOnFailure<T>(page: Page, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const state = expect.getState();
    const dir = path.join(ARTIFACTS_DIR, safeName(path.basename(state.testPath ?? 'unknown')));
    const file = path.join(dir, `${safeName(state.currentTestName ?? 'test')}.png`);
    try {
      fs.mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: file, fullPage: true });
      const note = `\n(screenshot: ${path.relative(root, file)})`;
      (error as Error).message += note;
      if ((error as Error).stack) (error as Error).stack = (error as Error).stack!.replace(/\n/, `${note}\n`);
    } catch {
      // The page may be gone; the test's own error matters more.
    }
    throw error;
  }
}
