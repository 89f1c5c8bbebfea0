'use strict';
/**
 * A second Strapi process for the multi-process tests: boots the compiled app from dist with
 * the environment it is given (same database, same REDIS_URL and queue), registers the
 * trigger tests' actions (test.count, and test.slow for the crash test; none with
 * SECOND_PROCESS_TEST_ACTIONS=none), listens on an ephemeral port and prints "READY <port>".
 * SIGTERM shuts it down cleanly; the crash tests end one with SIGKILL. tests/helpers/processes.js
 * starts and stops it.
 */
const path = require('path');
const { createStrapi } = require('@strapi/strapi');

const appDir = path.resolve(__dirname, '..', '..');

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

async function main() {
  const app = await createStrapi({ appDir, distDir: path.join(appDir, 'dist'), autoReload: false, serveAdminPanel: false }).load();
  // Registered in the same tick as load() ends, as an app's bootstrap would be: the runner starts
  // taking queued runs only after that (a restarted process must not fail runs of test.slow).
  if (process.env.SECOND_PROCESS_TEST_ACTIONS !== 'none') registerTestActions(app);
  app.server.mount();
  const server = app.server.httpServer;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`READY ${server.address().port}\n`);
  let stopping = false;
  process.on('SIGTERM', async () => {
    if (stopping) return;
    stopping = true;
    await app.destroy();
    process.exit(0);
  });
}

main().catch((error) => {
  process.stderr.write(`second process failed: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
