/**
 * Runs the built `quire` CLI as a real subprocess (node bin/quire.js), asynchronously, so the
 * in-process server it talks to keeps serving.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, startListeningApp } from './cli-login';
import { createKey, registerUser, type TestApp } from './strapi';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'quire.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed (it is always closed: the CLI never waits on a terminal). */
  input?: string | Buffer;
  /** Called with everything written to stderr so far, each time more arrives. */
  onStderr?: (stderr: string, child: ChildProcess) => void;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['QUIRE_URL', 'QUIRE_API_KEY', 'QUIRE_CONFIG_DIR', 'XDG_CONFIG_HOME', 'DISPLAY', 'WAYLAND_DISPLAY']) delete env[name];
  Object.assign(env, { CI: '1' }, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      options.onStderr?.(stderr, child);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** The user code a waiting `quire login` printed. */
export const userCodeIn = (text: string) => /enter the code:\s+([A-Z]{4}-[A-Z]{4})/.exec(text)?.[1];

/** Runs a command with --json, checks its exit status, and parses the envelope it printed. */
export async function runJson(
  run: (args: string[], options?: CliOptions) => Promise<CliResult>,
  args: string[],
  options: CliOptions = {},
  expectCode = 0,
) {
  const result = await run([...args, '--json'], options);
  expect({ args, code: result.code, stderr: result.code === expectCode ? '' : result.stderr }).toEqual({ args, code: expectCode, stderr: '' });
  return JSON.parse(result.stdout);
}

/** Writes a file into `dir` and returns its path. */
export function writeFileIn(dir: string, name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

export interface CliWorld {
  app: TestApp;
  /** The app's URL (PUBLIC_URL). */
  base: string;
  /** An API key of the user "ada". */
  key: string;
  /** The CLI's config folder (QUIRE_CONFIG_DIR), also a place for files to upload or import. */
  dir: string;
  /** Origin of the local web server of pages to preview or import. */
  pagesOrigin: string;
  close(): Promise<void>;
}

/**
 * What CLI tests of media and imports run against: a listening app, a local web server of pages
 * (`page(origin)` answers its requests) that UNFURL_ALLOWED_PRIVATE_HOSTS lets the app fetch,
 * the user "ada" with an API key, and a config folder.
 */
export async function startCliWorld(label: string, page: (origin: string) => http.RequestListener): Promise<CliWorld> {
  const pagesPort = await freePort();
  const pagesOrigin = `http://127.0.0.1:${pagesPort}`;
  const pages = http.createServer(page(pagesOrigin));
  await new Promise<void>((resolve) => pages.listen(pagesPort, '127.0.0.1', () => resolve()));
  const { app, base } = await startListeningApp({ UNFURL_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${pagesPort}` });
  const key = await createKey(app, await registerUser(app, 'ada'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-cli-${label}-`));
  return {
    app,
    base,
    key,
    dir,
    pagesOrigin,
    async close() {
      await app.close();
      await new Promise((resolve) => pages.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `quire` run as the world's user: QUIRE_URL, QUIRE_API_KEY and QUIRE_CONFIG_DIR set. */
export const cliOf = (world: Pick<CliWorld, 'base' | 'key' | 'dir'>) => (args: string[], options: CliOptions = {}) =>
  runCli(args, { ...options, env: { QUIRE_CONFIG_DIR: world.dir, QUIRE_URL: world.base, QUIRE_API_KEY: world.key, ...options.env } });
