'use strict';
/**
 * Extra Strapi processes for the multi-process tests and benches: each is
 * tests/helpers/second-process.js, the compiled app from dist in its own OS process, with the
 * environment given (the same database and REDIS_URL as the caller's). SIGKILL to crash one,
 * SIGTERM to stop it cleanly. CommonJS, so bench scripts can require it as the tests do.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');
const Redis = require('ioredis');
const supertest = require('supertest');

/**
 * @typedef {object} StrapiProcess
 * @property {import('node:child_process').ChildProcess} process
 * @property {number} pid
 * @property {number} port
 * @property {string} origin http://127.0.0.1:<port>
 * @property {import('supertest').Agent} http
 * @property {() => string} output what it wrote to stdout and stderr so far (for a failure's message)
 */

/**
 * Starts one and resolves once it listens; rejects with its output if it exits first.
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<StrapiProcess>}
 */
async function startStrapiProcess(env) {
  const child = spawn(process.execPath, [path.join(__dirname, 'second-process.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /READY (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code, signal) => reject(new Error(`a Strapi process exited (${code ?? signal}) before it was ready: ${output}`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  return { process: child, pid: child.pid, port, origin, http: supertest.agent(origin), output: () => output };
}

const exited = (child) => child.process.exitCode !== null || child.process.signalCode !== null;

/**
 * SIGKILL: the process dies at once, nothing of it runs again.
 * @param {StrapiProcess} child
 * @returns {Promise<void>}
 */
function killStrapiProcess(child) {
  if (exited(child)) return Promise.resolve();
  const done = new Promise((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGKILL');
  return done;
}

/**
 * SIGTERM (Strapi's destroy runs), then SIGKILL if it has not exited within `ms`.
 * @param {StrapiProcess} child
 * @param {number} [ms]
 * @returns {Promise<void>}
 */
async function stopStrapiProcess(child, ms = 20_000) {
  if (exited(child)) return;
  const done = new Promise((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), ms);
  await done;
  clearTimeout(timer);
}

/**
 * Whether Redis answers at `url` (the multi-process tests are skipped without it).
 * @param {string} url
 * @returns {Promise<boolean>}
 */
async function redisAvailable(url) {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 2_000 });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

module.exports = { startStrapiProcess, killStrapiProcess, stopStrapiProcess, redisAvailable };
