/**
 * Global setup of the browser tests (jest project `browser`), run once per Jest run before any
 * of them: the admin panel's build (made only when dist/build is missing or stale, see
 * scripts/admin-build.js), and the one Chromium that every browser test connects to.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { BROWSER_ENDPOINT_ENV, CHROMIUM, CHROMIUM_ARGS, writeBrowserEndpoint } from '../helpers/browser';

export default async function globalSetup() {
  const root = path.resolve(__dirname, '..', '..');
  const started = Date.now();
  execFileSync(process.execPath, [path.join(root, 'scripts', 'admin-build.js'), 'ensure'], { cwd: root, stdio: 'inherit' });
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  process.env[BROWSER_ENDPOINT_ENV] = server.wsEndpoint();
  writeBrowserEndpoint(server.wsEndpoint());
  (globalThis as { __quireBrowserServer?: unknown }).__quireBrowserServer = server;
  process.stdout.write(`browser tests: admin build and Chromium ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
