/**
 * `quire edit`, `--if-match`, `revisions`, `trash` and `suggestions`, run as a subprocess against
 * a listening server, the way an agent uses them (QUIRE_API_KEY and --json, exit statuses).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, createKey, registerUser, type TestApp } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';
import { runCli, runJson, writeFileIn, type CliOptions } from '../helpers/cli';

let app: TestApp;
let base: string;
let key: string;
let dir: string;
let id: string;
let anchors: string[];
let suggestKey: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  const ada = await registerUser(app, 'ada');
  key = await createKey(app, ada, 'agent');
  suggestKey = await createKey(app, ada, 'suggester', 'suggest');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-edits-'));
  const res = await app.http.post('/api/articles').set(bearer(key)).send({ title: 'T', markdown: '## One\n\nFirst teh.\n\n## Two\n\nSecond teh.\n\n## Three\n\nThird.' });
  id = res.body.data.article.id;
  anchors = res.body.data.outline.map((e) => e.anchor);
}, 180_000);
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const quire = (args: string[], options: CliOptions = {}) => runCli(args, { ...options, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: key } });
const json = (args: string[], options: CliOptions = {}, code = 0) => runJson(quire, args, options, code);

it('sections get --json carries the ETag; --if-match writes when current, exits 10 when not', async () => {
  const got = await json(['sections', 'get', id, anchors[0]]);
  expect(got.etag).toMatch(/^"[^"]+"$/);
  const plain = await quire(['sections', 'get', id, anchors[0]]);
  expect(plain.stderr).toContain(`ETag: ${got.etag}`);
  const file = writeFileIn(dir, 'one.md', '## One\n\nFirst, edited.');
  expect((await quire(['sections', 'replace', id, anchors[0], file, '--if-match', got.etag])).code).toBe(0);
  const stale = await quire(['sections', 'replace', id, anchors[0], file, '--if-match', got.etag]);
  expect(stale.code).toBe(10);
  expect(stale.stderr).toContain('precondition-failed');
  expect(stale.stderr).toContain(`quire sections get ${id} ${anchors[0]} --json`);
  const malformed = await quire(['sections', 'replace', id, anchors[0], file, '--if-match', 'abc']);
  expect(malformed.code).toBe(2);
  expect(malformed.stderr).toContain('Error: --if-match "abc" is not an ETag. (invalid-argument)');
  expect(malformed.stderr).toMatch(/^Next: Pass the ETag exactly as quire printed it/m);
});

it('edit --dry-run prints the diffs and writes nothing; edit applies all or nothing', async () => {
  const ops = JSON.stringify([{ op: 'replaceText', find: 'teh', replace: 'the', count: 1, section: anchors[1] }, { op: 'move', section: anchors[2], before: anchors[0] }]);
  const dry = await quire(['edit', id, '--dry-run', '-'], { input: ops });
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain('Dry run: nothing was written.');
  expect(dry.stdout).toContain('-Second teh.');
  expect(dry.stdout).toContain('+Second the.');
  expect((await json(['outline', id])).data.outline.map((e) => e.title)).toEqual(['One', 'Two', 'Three']);
  const applied = await json(['edit', id, '-'], { input: JSON.stringify({ ops: JSON.parse(ops) }) });
  expect(applied.data.results.map((r) => r.op)).toEqual(['replaceText', 'move']);
  expect(applied.data.outline.map((e) => e.title)).toEqual(['Three', 'One', 'Two']);
  const bad = await quire(['edit', id, '-'], { input: '[{"op":"nope"}]' });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('ops[0]');
});

it('edit --dry-run with a suggest key prints the dry run too, and files no suggestion', async () => {
  const ops = JSON.stringify([{ op: 'replaceText', find: 'Third.', replace: 'Third, suggested.', section: anchors[2] }]);
  const dry = await runCli(['edit', id, '--dry-run', '-'], { input: ops, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: suggestKey } });
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain('Dry run: nothing was written.');
  expect(dry.stdout).toContain('+Third, suggested.');
  expect((await json(['suggestions', 'list', id])).data.suggestions).toEqual([]);
});

it('revisions list, show and restore; trash list and restore', async () => {
  const list = await quire(['revisions', 'list', id, anchors[0]]);
  expect(list.stdout).toMatch(/REV\s+WHEN\s+BY/);
  expect(list.stdout).toContain('agent (agent)');
  const old = await quire(['revisions', 'show', id, anchors[0], '1']);
  expect(old.stdout).toBe('## One\n\nFirst teh.\n');
  const restored = await json(['revisions', 'restore', id, anchors[0], '1']);
  expect(restored.data.section.markdown).toBe('## One\n\nFirst teh.');

  expect((await quire(['sections', 'delete', id, anchors[2]])).code).toBe(0);
  const trash = await json(['trash', 'list', id]);
  expect(trash.data.sections.map((s) => s.title)).toEqual(['Three']);
  const back = await json(['trash', 'restore', id, trash.data.sections[0].anchor, '--after', anchors[1]]);
  expect(back.data.outline.map((e) => e.title)).toEqual(['One', 'Two', 'Three']);
});

it('suggestions list, show, accept and reject', async () => {
  const make = async (markdown: string) =>
    (await app.http.post(`/api/articles/${id}/suggestions`).set(bearer(key)).send({ note: 'Please.', ops: [{ op: 'replace', section: anchors[1], markdown }] })).body.data.suggestion;
  const first = await make('## Two\n\nSuggested.');
  const listed = await quire(['suggestions', 'list', id, '--status', 'pending']);
  expect(listed.stdout).toContain(first.anchor);
  const shown = await quire(['suggestions', 'show', id, first.anchor]);
  expect(shown.stdout).toContain('+Suggested.');
  expect((await json(['suggestions', 'accept', id, first.anchor])).data.suggestion.status).toBe('accepted');
  const second = await make('## Two\n\nAnother.');
  const rejected = await quire(['suggestions', 'reject', id, second.anchor, '--reason', 'Too long.']);
  expect(rejected.stdout).toBe(`Rejected ${second.anchor}. Reason: Too long.\n`);
  expect((await json(['suggestions', 'show', id, second.anchor])).data.suggestion).toMatchObject({ status: 'rejected', reason: 'Too long.' });
  // The suggester reads why (CONTRACT section 20).
  const why = await runCli(['suggestions', 'show', id, second.anchor], { env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: suggestKey } });
  expect(why.stdout).toMatch(/^Reason: Too long\.$/m);
  expect((await quire(['suggestions', 'show', id, first.anchor])).stdout).not.toContain('Reason:');
});

it('suggestions reject --section rejects only those sections; the rest stays pending', async () => {
  const made = (
    await app.http
      .post(`/api/articles/${id}/suggestions`)
      .set(bearer(key))
      .send({ ops: [{ op: 'replaceText', section: anchors[0], find: 'First', replace: 'Initial' }, { op: 'replaceText', section: anchors[1], find: 'Suggested', replace: 'Proposed' }] })
  ).body.data.suggestion;
  const bad = await quire(['suggestions', 'reject', id, made.anchor, '--section', 'ffffffff']);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('ffffffff');
  const rejected = await quire(['suggestions', 'reject', id, made.anchor, '--section', anchors[0], '--reason', 'Keep First.']);
  expect(rejected.code).toBe(0);
  expect(rejected.stdout).toBe(`Rejected ${made.anchor} in ${anchors[0]}; the rest stays pending.\n`);
  const after = (await json(['suggestions', 'show', id, made.anchor])).data.suggestion;
  expect(after).toMatchObject({ status: 'pending', ops: [{ op: 'replaceText', section: anchors[1], find: 'Suggested', replace: 'Proposed' }] });
  expect((await json(['suggestions', 'reject', id, made.anchor])).data.suggestion.status).toBe('rejected');
});

describe('what the server sends is printed terminal-safe (issue 25 point 10)', () => {
  // A key name and an article title that would set the window title, clear the screen, return
  // the cursor, ring the bell and colour the rest (C1 CSI) if printed as sent.
  const hostile = 'evil\x1b]0;pwned\x07 bot\x1b[2J\r\x9b31m\x07\x7f';
  const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

  it('strips escape sequences and control characters from readable output, and escapes them in --json', async () => {
    const eveUser = await registerUser(app, 'eve');
    const eveKey = await createKey(app, eveUser, hostile);
    const eve = (args: string[]) => runCli(args, { env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: eveKey } });
    const created = await app.http.post('/api/articles').set(bearer(eveKey)).send({ title: `Title\x1b[31m red\x1b[0m`, markdown: '## A\n\nAlpha.' });
    expect(created.status).toBe(201);

    const keys = await eve(['keys', 'list']);
    expect(keys.code).toBe(0);
    expect(keys.stdout).not.toMatch(RAW_CONTROL);
    expect(keys.stdout).toContain('evil bot');
    const articles = await eve(['articles', 'list']);
    expect(articles.stdout).not.toMatch(RAW_CONTROL);
    expect(articles.stdout).toContain('Title red');

    const raw = await eve(['keys', 'list', '--json']);
    expect(raw.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(raw.stdout).data.keys.map((k) => k.name)).toEqual([hostile]);
    // An error message the server sends is printed safe too (stderr).
    const missing = await eve(['articles', 'show', `\x1b[2Jnope`]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).not.toMatch(RAW_CONTROL);
  });
});

it('a suggest key\'s edit, move and delete are not applied: each says which suggestion it filed', async () => {
  const created = await app.http.post('/api/articles').set(bearer(key)).send({ title: 'S', markdown: '## A\n\nAlpha.\n\n## B\n\nBeta.' });
  const [art, [a, b]] = [created.body.data.article.id as string, created.body.data.outline.map((e) => e.anchor) as string[]];
  const suggest = (args: string[], input?: string) => runCli(args, { input, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: suggestKey } });
  const runs = [
    await suggest(['edit', art, '-'], JSON.stringify([{ op: 'replaceText', find: 'Alpha.', replace: 'Alpha, suggested.', section: a }])),
    await suggest(['sections', 'move', art, b, '--before', a]),
    await suggest(['sections', 'delete', art, b]),
  ];
  const filed = (await json(['suggestions', 'list', art])).data.suggestions.map((s) => s.anchor).reverse();
  expect(filed).toHaveLength(3);
  runs.forEach((run, i) => {
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Not applied: your key may only suggest. Suggestion ${filed[i]} is pending review`);
  });
  expect(runs[0].stdout).toContain('+Alpha, suggested.');
  expect((await json(['outline', art])).data.outline.map((e) => e.title)).toEqual(['A', 'B']);
});

it('sections get and edit work on a section edited in the canvas: --as markdown renders it, replaceText works on its text (CONTRACT 20)', async () => {
  const res = await app.http.post('/api/articles').set(bearer(key)).send({ title: 'Canvas', markdown: '## Intro\n\nPlain.' });
  const art = res.body.data.article.id;
  const anchor = res.body.data.outline[0].anchor;
  await app.http.patch(`/api/articles/${art}/sections/${anchor}`).set(bearer(key)).send({ html: '<h2>Fish &amp; Chips</h2><p>The <a href="https://example.com/fish">fish</a> shop.</p>' });
  const html = await quire(['sections', 'get', art, anchor]);
  expect(html.stdout.trim()).toBe('<h2>Fish &#x26; Chips</h2><p>The <a href="https://example.com/fish">fish</a> shop.</p>');
  expect(html.stderr).toContain('--as markdown prints a Markdown rendering');
  const md = await quire(['sections', 'get', art, anchor, '--as', 'markdown']);
  expect(md.code).toBe(0);
  expect(md.stdout.trim()).toBe('## Fish & Chips\n\nThe [fish](https://example.com/fish) shop.');
  expect(md.stderr).toContain('printing a Markdown rendering of it');
  expect((await json(['sections', 'get', art, anchor, '--as', 'markdown'])).data.section).toMatchObject({ source: 'html', markdown: '## Fish & Chips\n\nThe [fish](https://example.com/fish) shop.' });
  const bad = await quire(['sections', 'get', art, anchor, '--as', 'xyz']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('as must be "markdown"');

  const edited = await json(['edit', art, '-'], { input: JSON.stringify([{ op: 'replaceText', section: anchor, find: 'fish', replace: 'cod' }]) });
  expect(edited.data.results[0]).toMatchObject({ op: 'replaceText', replaced: 1 });
  expect((await quire(['sections', 'get', art, anchor])).stdout.trim()).toBe('<h2>Fish &#x26; Chips</h2><p>The <a href="https://example.com/fish">cod</a> shop.</p>');
  const across = await quire(['edit', art, '-'], { input: JSON.stringify([{ op: 'replaceText', section: anchor, find: 'cod shop', replace: 'x' }]) });
  expect(across.code).toBe(2);
  expect(across.stderr).toContain('runs across an element boundary');
});
