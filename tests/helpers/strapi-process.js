'use strict';
/**
 * One Strapi server in its own OS process, for the multi-process tests and the benches
 * (tests/helpers/processes.js starts and stops it): the compiled app from dist with the
 * environment it is given. `node strapi-process.js [port] [--test-actions]` listens on
 * 127.0.0.1:<port> (0 or none: any free port) and tells its parent { type: 'ready', port } over IPC.
 * Over IPC it also answers { type: 'usage', gc } with process.memoryUsage() (after a full GC when
 * asked and the process runs with --expose-gc: the heap then holds only live objects) and the
 * event loop's delay since the last such question (how long a ready callback waited), and
 * { type: 'admin', user } by creating a Super Admin to sign in with (the live channel
 * authenticates admin sessions), { type: 'time-stores' } by timing every store round of the live
 * channel from then on (the live state service's store(), wrapped) and { type: 'store-times' } with
 * those times (ms) since the last such question. --test-actions registers the trigger tests'
 * actions. STRAPI_PROCESS_APP_DIR runs another checkout's compiled app (the bench's BENCH_BEFORE).
 * SIGTERM shuts it down cleanly; the crash tests end one with SIGKILL.
 */
const path = require('node:path');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { createStrapi } = require('@strapi/strapi');

const appDir = process.env.STRAPI_PROCESS_APP_DIR || path.resolve(__dirname, '..', '..');
const port = Number(process.argv[2] ?? 0);

/** The trigger tests' actions. */
function registerTestActions(app) {
  app.plugin('triggers').service('actions').register('test.count', async (input, ctx) => {
    await ctx.strapi.db.connection('test_runs').insert({ execution_id: ctx.executionId, pid: process.pid });
    return input;
  });
  // The crash test's action: records each run as it starts and as it ends, taking 50 to 200 ms between.
  app.plugin('triggers').service('actions').register('test.slow', async (input, ctx) => {
    const runs = () => ctx.strapi.db.connection('test_slow_runs');
    await runs().insert({ execution_id: ctx.executionId, pid: process.pid, attempt: ctx.attempt, phase: 'start' });
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.floor(Math.random() * 151)));
    await runs().insert({ execution_id: ctx.executionId, pid: process.pid, attempt: ctx.attempt, phase: 'done' });
    return input;
  });
}

/** The parent's questions over IPC (the live bench's). */
function answerQuestions(app) {
  const storeTimes = [];
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
      } else if (message.type === 'time-stores') {
        // The live channel looks the service up at each store, so a wrapped method is what it calls.
        const service = app.plugin('quire').service('liveState');
        if (!service || typeof service.store !== 'function') throw new Error('this code has no live state service with store()');
        if (!service.store.timed) {
          const store = service.store;
          service.store = async (...args) => {
            const started = performance.now();
            try {
              return await store.apply(service, args);
            } finally {
              storeTimes.push({ ms: performance.now() - started, articleId: args[0], sections: args[1]?.sections?.size ?? null });
            }
          };
          service.store.timed = true;
        }
        reply({ ok: true });
      } else if (message.type === 'store-times') {
        reply({ times: storeTimes.splice(0) });
      }
    } catch (error) {
      reply({ error: String(error && error.stack ? error.stack : error) });
    }
  });
}

async function main() {
  const app = await createStrapi({ appDir, distDir: path.join(appDir, 'dist'), autoReload: false, serveAdminPanel: false }).load();
  // Registered in the same tick as load() ends, as an app's bootstrap would be: the runner starts
  // taking queued runs only after that (a restarted process must not fail runs of test.slow).
  if (process.argv.includes('--test-actions')) registerTestActions(app);
  app.server.mount();
  const server = app.server.httpServer;
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  answerQuestions(app);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.destroy();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  // Its parent gone (a test run killed, a bench that crashed), it goes too: no server is left behind.
  process.on('disconnect', stop);
  process.send({ type: 'ready', port: server.address().port });
}

main().catch((error) => {
  process.stderr.write(`Strapi process failed: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
