/**
 * A bad configuration value stops the boot of the built server (`npm start`, i.e.
 * scripts/start.js) with one line naming the variable, the value and what is accepted: for the
 * plugins' variables and for the app's own (config/*.ts), never a stack trace or a silent
 * default.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverEnv } from '../helpers/server-env';

const appDir = path.resolve(__dirname, '..', '..');

function boot(extra: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-config-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...serverEnv(),
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: path.join(tmp, 'boot.db'),
    SERVE_ADMIN_PANEL: 'false',
    LOG_LEVEL: 'info',
    ...extra,
  };
  delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(appDir, 'scripts', 'start.js')], { cwd: appDir, env: env as NodeJS.ProcessEnv });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      fs.rmSync(tmp, { recursive: true, force: true });
      // eslint-disable-next-line no-control-regex
      resolve({ code, lines: output.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((line) => line.trim()) });
    });
  });
}

describe('a bad configuration value stops the boot with one line', () => {
  it.each([
    ['UNFURL_RATE_LIMIT', 'abc', 'UNFURL_RATE_LIMIT="abc" is not valid: expected a whole number from 1 to 1000000000'],
    ['CLI_LOGIN_INTERVAL', '0', 'CLI_LOGIN_INTERVAL="0" is not valid: expected a whole number from 1 to 60'],
    ['TRIGGER_SWEEP_INTERVAL_MS', 'soon', 'TRIGGER_SWEEP_INTERVAL_MS="soon" is not valid: expected a duration in milliseconds from 0 to 86400000'],
    ['PORT', 'http', 'PORT="http" is not valid: expected a whole number from 1 to 65535'],
    ['PUBLIC_URL', 'example.com', 'PUBLIC_URL="example.com" is not valid: expected an absolute http or https URL'],
    ['UPLOAD_PROVIDER', 's3', 'UPLOAD_PROVIDER="s3" is not valid: expected "local" or "aws-s3"'],
  ])('%s=%s', async (variable, value, message) => {
    const { code, lines } = await boot({ [variable]: value });
    expect(code).toBe(1);
    const naming = lines.filter((line) => line.includes(variable));
    expect(naming).toHaveLength(1);
    expect(naming[0].endsWith(message)).toBe(true);
    expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([]);
  });
});
