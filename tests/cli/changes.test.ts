/**
 * CONTRACT 23 from the terminal: `--reason` and `--run` on write commands, `quire changes
 * [article]` lists the change sets, `quire changes show` prints a diff, `quire changes revert`
 * undoes one change set (or a run), run as a subprocess against a listening server.
 */
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

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  key = await createKey(app, await registerUser(app, 'ada'), 'cli agent');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-changes-'));
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const quire = (args: string[], options: CliOptions = {}) => runCli(args, { ...options, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: key, ...options.env } });
const json = (args: string[], options: CliOptions = {}, code = 0) => runJson(quire, args, options, code);

describe('quire changes', () => {
  it('records --reason and --run, lists, shows and reverts', async () => {
    const created = await json(['articles', 'create', '--title', 'CLI changes', '-'], { input: '# Intro\n\nPlain words here.' });
    const id = created.data.article.id as string;
    const anchor = created.data.outline[0].anchor as string;
    const replaced = await json(['--reason', 'sharper wording', '--run', 'cli-run', 'sections', 'replace', id, anchor, '-'], { input: '# Intro\n\nSharp words here.' });
    expect(replaced.data.changeSet).toEqual({ id: expect.any(String), anchor: expect.any(String) });
    const change = replaced.data.changeSet.anchor as string;
    await json(['--reason', 'garçon über', 'notes', 'add', id, '--kind', 'idea', '--title', 'An idea']);

    const listed = await json(['changes', id]);
    expect(listed.data.changes.map((c) => c.reason)).toEqual(['garçon über', 'sharper wording']);
    expect(listed.data.changes[1]).toMatchObject({ run: 'cli-run', by: { kind: 'agent', name: 'cli agent' } });
    const text = await quire(['changes', id, '--in-run', 'cli-run']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(change);
    expect(text.stdout).toContain('sharper wording');

    const shown = await quire(['changes', 'show', id, change]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('[-Plain-]{+Sharp+}');

    const dry = await json(['changes', 'revert', change, '--in', id, '--dry-run']);
    expect(dry.data).toMatchObject({ change: null, reverted: [change], conflicts: [] });
    const reverted = await quire(['--reason', 'back', 'changes', 'revert', change, '--in', id]);
    expect(reverted.code).toBe(0);
    expect(reverted.stdout).toContain(`Reverted ${change}`);
    const section = await app.http.get(`/api/articles/${id}/sections/${anchor}`).set(bearer(key));
    expect(section.body.data.section.markdown).toBe('# Intro\n\nPlain words here.');

    const again = await json(['changes', 'revert', change, '--in', id], {}, 1);
    expect(again.error.code).toBe('conflict');
    const missing = await quire(['changes', 'revert', change]);
    expect(missing.code).toBe(2);
  });
});
