/**
 * Extra Strapi processes for the multi-process tests (and the cross-process bench): each is
 * tests/helpers/second-process.js, the compiled app from dist in its own OS process, with the
 * environment given (the same database and REDIS_URL as the test's own app). SIGKILL to crash
 * one, SIGTERM to stop it cleanly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Redis from 'ioredis';
import supertest from 'supertest';

export interface StrapiProcess {
  process: ChildProcess;
  pid: number;
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  http: supertest.Agent;
  /** What it wrote to stdout and stderr so far (for a failing test's message). */
  output(): string;
}

/** Starts one and resolves once it listens; rejects with its output if it exits first. */
export async function startStrapiProcess(env: NodeJS.ProcessEnv): Promise<StrapiProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, 'second-process.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /READY (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code, signal) => reject(new Error(`a Strapi process exited (${code ?? signal}) before it was ready: ${output}`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  return { process: child, pid: child.pid!, port, origin, http: supertest.agent(origin), output: () => output };
}

/** SIGKILL: the process dies at once, nothing of it runs again. */
export function killStrapiProcess(child: StrapiProcess): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGKILL');
  return exited;
}

/** SIGTERM (Strapi's destroy runs), then SIGKILL if it has not exited within `ms`. */
export async function stopStrapiProcess(child: StrapiProcess, ms = 20_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

/** Whether Redis answers at `url` (the multi-process tests are skipped without it). */
export async function redisAvailable(url: string): Promise<boolean> {
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
