'use strict';
/**
 * Strapi servers as child processes, for the multi-process tests and the benches: each is
 * tests/helpers/strapi-process.js, the compiled app from dist in its own OS process, with the
 * environment given (for the tests, the same database and REDIS_URL as the caller's). SIGKILL
 * to crash one, SIGTERM to stop it cleanly; a database of its own (a SQLite file, or a
 * PostgreSQL database) for a server that needs one. CommonJS, so bench scripts can require it
 * as the tests do.
 */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const Redis = require('ioredis');
const supertest = require('supertest');

const appDir = path.resolve(__dirname, '..', '..');

/**
 * @typedef {object} StrapiProcess
 * @property {import('node:child_process').ChildProcess} process
 * @property {number} pid
 * @property {number} port
 * @property {string} origin http://127.0.0.1:<port>
 * @property {import('supertest').Agent} http
 * @property {() => string} output the last of what it wrote to stderr (and stdout, unless `logs: false`), for a failure's message
 * @property {(message: object) => Promise<any>} ask a question over IPC (strapi-process.js answers `usage` and `admin`)
 */

/**
 * Starts one and resolves once it listens; rejects with its output if it exits first, or if it
 * is not ready in `timeoutMs` (then it is killed).
 * @param {NodeJS.ProcessEnv} env
 * @param {object} [options]
 * @param {number} [options.port] the port to listen on, also set as its PORT and PUBLIC_URL; none: any free port
 * @param {string[]} [options.nodeArgs] Node's own flags (--expose-gc, --cpu-prof...)
 * @param {boolean} [options.testActions] registers the trigger tests' actions (test.count, test.slow)
 * @param {boolean} [options.logs] false: its stdout is not read. A bench's server logs a line per request, and reading them would take CPU from what the bench measures.
 * @param {string} [options.label] names it in errors
 * @param {number} [options.timeoutMs]
 * @param {string} [options.appDir] another checkout's compiled app to run (the bench's BENCH_BEFORE); default this one
 * @returns {Promise<StrapiProcess>}
 */
async function startStrapiProcess(env, { port = 0, nodeArgs = [], testActions = false, logs = true, label = 'a Strapi process', timeoutMs = 180_000, appDir: app = appDir } = {}) {
  const args = [...nodeArgs, path.join(__dirname, 'strapi-process.js'), String(port), ...(testActions ? ['--test-actions'] : [])];
  const ownEnv = { ...(port ? { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } : env), STRAPI_PROCESS_APP_DIR: app };
  const child = spawn(process.execPath, args, { cwd: app, env: ownEnv, stdio: ['ignore', logs ? 'pipe' : 'ignore', 'pipe', 'ipc'] });
  let output = '';
  // The last of it says why a server failed, however long it ran.
  const keep = (chunk) => (output = (output + chunk).slice(-20_000));
  child.stderr.on('data', keep);
  child.stdout?.on('data', keep);
  let nextId = 0;
  const waiting = new Map();
  child.on('message', (message) => {
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(message.error));
    else pending.resolve(message);
  });
  const listening = await new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      reject(new Error(`${label} ${why}: ${output}`));
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(`was not ready in ${timeoutMs / 1000} s`);
    }, timeoutMs);
    child.on('message', (message) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      resolve(message.port);
    });
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before it was ready`));
  });
  const ask = (message) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      child.send({ ...message, id });
    });
  const origin = `http://127.0.0.1:${listening}`;
  return { process: child, pid: child.pid, port: listening, origin, http: supertest.agent(origin), output: () => output, ask };
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
 * A port nobody listens on now: for a server that must know its address before it starts (PUBLIC_URL), or a receiver started later.
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * @typedef {object} Database
 * @property {Record<string, string>} env the server's DATABASE_* settings
 * @property {string} name
 * @property {() => Promise<void>} remove deletes the file, or drops the database
 */

/**
 * A SQLite file in a new temporary folder.
 * @param {string} prefix names the folder
 * @returns {Database}
 */
function sqliteDatabase(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const file = path.join(dir, 'data.db');
  return { env: { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: file }, name: file, remove: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A new PostgreSQL database on the server of `baseUrl`; remove() drops it, connections and all.
 * @param {string} baseUrl a database URL on that server to connect to (to create and drop)
 * @param {string} prefix begins its name
 * @returns {Promise<Database>}
 */
async function postgresDatabase(baseUrl, prefix) {
  const { Client } = require('pg');
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const run = async (sql) => {
    const client = new Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { env: { DATABASE_CLIENT: 'postgres', DATABASE_URL: url.toString() }, name, remove: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * Whether Redis answers at `url` (the multi-process tests are skipped without it).
 * @param {string} url
 * @returns {Promise<boolean>}
 */
async function redisAvailable(url) {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 2_000 });
  client.on('error', () => undefined); // the failed connect below answers false
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

module.exports = { startStrapiProcess, killStrapiProcess, stopStrapiProcess, freePort, sqliteDatabase, postgresDatabase, redisAvailable };
