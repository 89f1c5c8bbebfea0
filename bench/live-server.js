'use strict';
/**
 * A Strapi server for bench/live.js, as a child process so its CPU and memory are its own
 * (read from /proc by the parent): boots the compiled app from dist with the environment it is
 * given, listens on PORT (127.0.0.1) and sends { type: 'ready' } over IPC. Over IPC it also
 * answers { type: 'usage', gc } with process.memoryUsage() (after a full GC when asked and the
 * process runs with --expose-gc: the heap then holds only live objects) and the event loop's
 * delay since the last such question (how long a ready callback waited: whether the server was
 * blocked, or work waited elsewhere), and { type: 'admin' }
 * by creating a Super Admin to sign in with (the live channel authenticates admin sessions).
 * SIGTERM shuts it down cleanly.
 */
const path = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { createStrapi } = require('@strapi/strapi');

const appDir = path.resolve(__dirname, '..');

async function main() {
  const app = await createStrapi({ appDir, distDir: path.join(appDir, 'dist'), autoReload: false, serveAdminPanel: false }).load();
  app.server.mount();
  const server = app.server.httpServer;
  await new Promise((resolve) => server.listen(Number(process.env.PORT), '127.0.0.1', resolve));

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  process.on('message', async (message) => {
    const reply = (body) => process.send({ id: message.id, ...body });
    try {
      if (message.type === 'usage') {
        if (message.gc && typeof global.gc === 'function') global.gc();
        const ms = (ns) => ns / 1e6;
        const eventLoop = { p50Ms: ms(loopDelay.percentile(50)), p99Ms: ms(loopDelay.percentile(99)), maxMs: ms(loopDelay.max) };
        loopDelay.reset();
        reply({ memory: process.memoryUsage(), eventLoop });
      } else if (message.type === 'admin') {
        const { id: roleId } = await app.db.query('admin::role').findOne({ where: { code: 'strapi-super-admin' } });
        await app.service('admin::user').create({ ...message.user, isActive: true, registrationToken: null, roles: [roleId] });
        reply({ ok: true });
      }
    } catch (error) {
      reply({ error: String(error && error.stack ? error.stack : error) });
    }
  });
  process.send({ type: 'ready' });

  let stopping = false;
  process.on('SIGTERM', async () => {
    if (stopping) return;
    stopping = true;
    await app.destroy();
    process.exit(0);
  });
}

main().catch((error) => {
  process.stderr.write(`live bench server failed: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
