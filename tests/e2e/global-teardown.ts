import type { BrowserServer } from 'playwright-core';
import { removeBrowserEndpoint } from '../helpers/browser';

export default async function globalTeardown() {
  const server = (globalThis as { __quireBrowserServer?: BrowserServer }).__quireBrowserServer;
  await server?.close();
  removeBrowserEndpoint();
}
