#!/usr/bin/env node
'use strict';
/**
 * node bench/live.js (after npm run compile): the live canvas, in one process.
 *   - an agent's PATCH -> the change arriving in a connected Node client of the live document
 *     (HocuspocusProvider over ws, as the canvas): p50 / p99 over BENCH_LIVE_N writes (default 100);
 *   - the cost of an agent PATCH on an article open live against one that is not (p50, ratio;
 *     target within 1.5x).
 * Boots the compiled app in-process on a fresh SQLite database in a temporary folder.
 * Not part of the tests: numbers depend on the machine and on what else runs on it.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serverEnv } = require('../tests/helpers/server-env');

const N = Number(process.env.BENCH_LIVE_N || 100);
const appDir = path.resolve(__dirname, '..');

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-live-'));
  Object.assign(process.env, serverEnv(), {
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: path.join(tmp, 'bench.db'),
    AUTH_RATELIMIT_MAX: '1000000',
  });
  delete process.env.DATABASE_URL;
  const { createStrapi } = require('@strapi/strapi');
  const strapi = await createStrapi({ appDir, distDir: path.join(appDir, 'dist'), autoReload: false, serveAdminPanel: false }).load();
  strapi.server.mount();
  const server = strapi.server.httpServer;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const WebSocket = require('ws');
  const Y = require('yjs');
  const { HocuspocusProvider, HocuspocusProviderWebsocket } = require('@hocuspocus/provider');

  const call = async (method, url, body, headers = {}) => {
    const res = await fetch(base + url, { method, headers: { 'content-type': 'application/json', ...headers }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  try {
    const { id: roleId } = await strapi.db.query('admin::role').findOne({ where: { code: 'strapi-super-admin' } });
    await strapi.service('admin::user').create({ email: 'bench@example.test', firstname: 'Bench', lastname: 'Editor', password: 'Quire-admin-2026', isActive: true, registrationToken: null, roles: [roleId] });
    const token = (await call('POST', '/admin/login', { email: 'bench@example.test', password: 'Quire-admin-2026' })).body.data.token;
    const user = await call('POST', '/api/auth/local/register', { username: 'benchuser', email: 'benchuser@example.test', password: 'correct horse battery' });
    const key = (await strapi.plugin('quire').service('keys').create(user.body.user.id, { name: 'Agent' })).secret;
    const agent = { Authorization: `Bearer ${key}` };
    const markdown = Array.from({ length: 20 }, (_, i) => `# Part ${i}\n\n${'Words of the section. '.repeat(40)}`).join('\n\n');
    const open = (await call('POST', '/api/articles', { title: 'Open', markdown }, agent)).body.data;
    const closed = (await call('POST', '/api/articles', { title: 'Closed', markdown }, agent)).body.data;

    const doc = new Y.Doc();
    const socket = new HocuspocusProviderWebsocket({ url: `${base.replace('http', 'ws')}/quire/live`, WebSocketPolyfill: WebSocket });
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: `article:${open.article.id}`, document: doc, token });
    provider.attach();
    await new Promise((resolve) => provider.on('synced', resolve));
    const sectionId = doc.getArray('order').get(5);
    const fragment = doc.getXmlFragment(`section:${sectionId}`);
    const anchorOpen = open.outline[5].anchor;
    const anchorClosed = closed.outline[5].anchor;

    const arrivals = [];
    const openCost = [];
    const closedCost = [];
    for (let i = 0; i < N; i += 1) {
      const marker = `marker${i}x`;
      const arrived = new Promise((resolve) => {
        const check = () => {
          if (fragment.toString().includes(marker)) {
            fragment.unobserveDeep(check);
            resolve(performance.now());
          }
        };
        fragment.observeDeep(check);
      });
      const started = performance.now();
      const res = await call('PATCH', `/api/articles/${open.article.id}/sections/${anchorOpen}`, { markdown: `# Part 5\n\nThe agent writes ${marker}. ${'Words of the section. '.repeat(40)}` }, agent);
      openCost.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`PATCH ${res.status}`);
      arrivals.push((await arrived) - started);
      const t = performance.now();
      await call('PATCH', `/api/articles/${closed.article.id}/sections/${anchorClosed}`, { markdown: `# Part 5\n\nThe agent writes ${marker}. ${'Words of the section. '.repeat(40)}` }, agent);
      closedCost.push(performance.now() - t);
    }
    const ms = (v) => `${v.toFixed(1)} ms`;
    const results = {
      agentPatchToClient: { p50: pct(arrivals, 50), p99: pct(arrivals, 99) },
      patchOpenLive: { p50: pct(openCost, 50), p99: pct(openCost, 99) },
      patchNotOpen: { p50: pct(closedCost, 50), p99: pct(closedCost, 99) },
    };
    console.log(`live canvas, one process, ${N} writes:`);
    console.log(`  agent PATCH -> change in a connected client: p50 ${ms(results.agentPatchToClient.p50)}, p99 ${ms(results.agentPatchToClient.p99)}`);
    console.log(`  PATCH, article open live: p50 ${ms(results.patchOpenLive.p50)}, p99 ${ms(results.patchOpenLive.p99)}`);
    console.log(`  PATCH, article not open:  p50 ${ms(results.patchNotOpen.p50)}, p99 ${ms(results.patchNotOpen.p99)}`);
    console.log(`  open / not open (p50): ${(results.patchOpenLive.p50 / results.patchNotOpen.p50).toFixed(2)}x (target <= 1.5x)`);
    provider.destroy();
    socket.destroy();
  } finally {
    await strapi.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
