'use strict';
/**
 * A second Strapi process for the multi-process trigger test: boots the compiled app from
 * dist with the environment it is given (same database, same REDIS_URL and queue), registers
 * the test's counting action, listens on an ephemeral port and prints "READY <port>".
 * SIGTERM shuts it down cleanly.
 */
const path = require('path');
const { createStrapi } = require('@strapi/strapi');

const appDir = path.resolve(__dirname, '..', '..');

async function main() {
  const app = await createStrapi({ appDir, distDir: path.join(appDir, 'dist'), autoReload: false, serveAdminPanel: false }).load();
  app.plugin('triggers').service('actions').register('test.count', async (input, ctx) => {
    await ctx.strapi.db.connection('test_runs').insert({ execution_id: ctx.executionId, pid: process.pid });
    return input;
  });
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
