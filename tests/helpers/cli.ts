/**
 * Runs the built `quire` CLI as a real subprocess (node bin/quire.js), asynchronously, so the
 * in-process server it talks to keeps serving.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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
