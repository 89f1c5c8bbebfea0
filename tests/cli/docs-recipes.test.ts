/**
 * README's first steps and CLI quick start, then docs/cli.md's agent session, run as written in
 * one bash session against a listening server: only the server's address is changed (a free
 * port instead of 1337), `quire` is this checkout's bin/quire.js, and `npm link` is skipped.
 * The `quire login` of the quick start is approved on the approval page, as ada, with the
 * password README registered her with.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type TestApp } from '../helpers/strapi';
import { decideLogin, startListeningApp } from '../helpers/cli-login';
import { userCodeIn } from '../helpers/cli';
import { shellBlocks } from '../helpers/docs';

const ROOT = path.resolve(__dirname, '..', '..');
const README_PASSWORD = 'a long passphrase';

let app: TestApp;
let base: string;
let home: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-recipes-'));
});
afterAll(async () => {
  await app?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

/** Runs a script with bash, approving the first login code it prints. */
function runBash(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = path.join(home, 'recipes.sh');
  fs.writeFileSync(file, script);
  const env: Record<string, string | undefined> = { ...process.env, QUIRE_CONFIG_DIR: path.join(home, 'config'), QUIRE_URL: base, CI: '1' };
  for (const name of ['QUIRE_API_KEY', 'DISPLAY', 'WAYLAND_DISPLAY']) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let approval: Promise<unknown> | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      const code = userCodeIn(stderr);
      if (code && !approval) approval = decideLogin(app, { username: 'ada' }, code, 'approve', README_PASSWORD);
    });
    child.on('error', reject);
    child.on('close', async (code) => {
      await approval;
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

it('README\'s first steps and quick start, then the agent session of docs/cli.md, run as written', async () => {
  const port = new URL(base).port;
  const readme = shellBlocks('README.md').slice(1); // the first block installs and starts the server
  const agent = shellBlocks('docs/cli.md').find((b) => b.code.includes('export QUIRE_URL='))!;
  expect(readme.map((b) => b.code).join('')).toContain('quire login');
  const address = (code: string) => code.replace(/localhost:1337|127\.0\.0\.1:1337/g, `127.0.0.1:${port}`);
  const script = [
    'set -euo pipefail',
    `quire() { node ${JSON.stringify(path.join(ROOT, 'bin', 'quire.js'))} "$@"; }`,
    'npm() { if [ "$*" = link ]; then echo "(npm link: skipped)"; else echo "unexpected: npm $*" >&2; return 1; fi; }',
    ...[...readme, agent].map((block) => `echo "== ${block.where}"\n${address(block.code)}`),
  ].join('\n');

  const result = await runBash(script);
  expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
  expect(result.stdout).toContain(`"username":"ada"`); // curl .../api/auth/me with $KEY
  expect(result.stderr).toContain('Waiting for approval...');
  expect(result.stdout).toMatch(/^Logged in to http:\/\/127\.0\.0\.1:\d+ as ada \(ada@example\.com\)\.$/m);
  expect(result.stdout).toMatch(new RegExp(`^Published: ${base}/p/on-anchors$`, 'm'));
  expect(result.stdout).toMatch(/^Imported article [0-9a-f-]{36}: Notes on anchors\n\d+ sections, \d+ words\nPremise: Short, stable names/m);

  // What the recipes made, read back through the API with ada's key.
  const jwt = (await app.http.post('/api/auth/local').send({ identifier: 'ada', password: README_PASSWORD })).body.jwt;
  const list = (await app.http.get('/api/articles').set('Authorization', `Bearer ${jwt}`)).body.data.articles as Array<{ id: string; title: string }>;
  expect(list.map((a) => a.title).sort()).toEqual(['Notes on anchors', 'On anchors', 'On anchors']);
  const outlines = await Promise.all(
    list.filter((a) => a.title === 'On anchors').map(async (a) => (await app.http.get(`/api/articles/${a.id}/outline`).set('Authorization', `Bearer ${jwt}`)).body.data.outline.map((s) => s.title)),
  );
  // README: Method inserted after the first section; docs/cli.md: Method appended, then replaced.
  expect(outlines.map((titles) => titles.join(' | ')).sort()).toEqual(['Introduction | Anchors | Method', 'Introduction | Method | Anchors']);
  expect(result.stdout).toContain('## Method\n\nStep one, then step two.');
  const notes = list.find((a) => a.title === 'Notes on anchors')!;
  const brief = (await app.http.get(`/api/articles/${notes.id}/brief`).set('Authorization', `Bearer ${jwt}`)).body.data;
  expect(brief.notes.map((n) => n.kind)).toEqual(['source', 'question']);
});

it('README step 3 run again (ada exists now) prints the server\'s message and fails, with no stack trace', async () => {
  const port = new URL(base).port;
  const [helper, register] = shellBlocks('README.md').slice(1, 3);
  expect(helper.code).toContain('json()');
  expect(register.code).toContain('/api/auth/local/register');
  const script = [helper.code, register.code.replace(/localhost:1337/g, `127.0.0.1:${port}`), 'echo "JWT=[$JWT]"'].join('\n');
  const result = await runBash(script);
  expect(result.stdout).toContain('JWT=[]');
  expect(result.stderr).toMatch(/^Error: .*(taken|exists|already)/im);
  expect(result.stderr).not.toMatch(/TypeError|\n\s+at |node:internal|\[eval\]/);
});
