/**
 * `npm start` (scripts/start.js) runs the built server as production unless NODE_ENV says
 * otherwise (issue 36 point 6, docs/operations.md "Starting"): its boot banner says
 * "Environment production", and it answers.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serverEnv } from '../helpers/server-env';

const appDir = path.resolve(__dirname, '..', '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Starts scripts/start.js until it answers /_health; its output and that answer's status. */
async function start(extra: Record<string, string | undefined>): Promise<{ output: string; health: number }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-start-'));
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...serverEnv(),
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: path.join(tmp, 'start.db'),
    SERVE_ADMIN_PANEL: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    ...extra,
  };
  delete env.DATABASE_URL;
  for (const [name, value] of Object.entries(extra)) if (value === undefined) delete env[name];
  const child = spawn(process.execPath, [path.join(appDir, 'scripts', 'start.js')], { cwd: appDir, env: env as NodeJS.ProcessEnv });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    const deadline = Date.now() + 100_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server stopped: ${output}`);
      const health = await fetch(`http://127.0.0.1:${port}/_health`).then((res) => res.status, () => 0);
      // eslint-disable-next-line no-control-regex
      if (health) return { output: output.replace(/\x1b\[[0-9;]*m/g, ''), health };
      if (Date.now() > deadline) throw new Error(`no answer within 100 s: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('close', resolve)));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

it('runs as production when NODE_ENV is not set, and as NODE_ENV says when it is', async () => {
  const unset = await start({ NODE_ENV: undefined });
  expect(unset.health).toBe(204);
  expect(unset.output).toMatch(/Environment\s+│?\s*production/);

  const told = await start({ NODE_ENV: 'development' });
  expect(told.health).toBe(204);
  expect(told.output).toMatch(/Environment\s+│?\s*development/);
}, 240_000);
