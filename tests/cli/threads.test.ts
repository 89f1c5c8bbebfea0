/** `quire threads` (CONTRACT 24) as a subprocess against a listening server: list, show, create, reply, resolve, reopen. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, createKey, registerUser, type TestApp } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';
import { runCli, runJson, type CliOptions } from '../helpers/cli';

let app: TestApp;
let base: string;
let key: string;
let dir: string;
let id: string;
let section: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  const ada = await registerUser(app, 'ada');
  key = await createKey(app, ada, 'cli agent');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-threads-'));
  const res = await app.http.post('/api/articles').set(bearer(key)).send({ title: 'T', markdown: '## One\n\nThe first words of it.' });
  id = res.body.data.article.id;
  section = res.body.data.outline[0].anchor;
}, 180_000);
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const quire = (args: string[], options: CliOptions = {}) => runCli(args, { ...options, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: key } });

it('creates a thread on a quote, replies from stdin, lists, shows, resolves and reopens', async () => {
  const created = await runJson(quire, ['threads', 'create', id, section, 'first words', '--body', 'Which words?']);
  const thread = created.data.thread;
  expect(thread).toMatchObject({ quote: 'first words', status: 'open', section });

  const replied = await quire(['threads', 'reply', id, thread.anchor, '--file', '-'], { input: 'These **ones**.' });
  expect(replied.code).toBe(0);
  expect(replied.stdout).toContain('These **ones**.');

  const listed = await quire(['threads', 'list', id]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(thread.anchor);
  expect(listed.stdout).toContain('first words');

  const shown = await quire(['threads', 'show', id, thread.anchor]);
  expect(shown.stdout).toContain('Quote: "first words"');
  expect(shown.stdout).toContain('Which words?');

  expect((await quire(['threads', 'resolve', id, thread.anchor])).stdout).toContain('is resolved');
  expect((await runJson(quire, ['threads', 'list', id, '--status', 'open'])).data.threads).toEqual([]);
  expect((await quire(['threads', 'reopen', id, thread.anchor])).stdout).toContain('is open');

  const missing = await quire(['threads', 'create', id, section, 'not there', '--body', 'x']);
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toContain('invalid-argument');
  const noBody = await quire(['threads', 'reply', id, thread.anchor, '--body', 'a', '--file', 'b']);
  expect(noBody.code).toBe(2);
});
