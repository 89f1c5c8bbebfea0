/**
 * The article commands of `quire`, run as a subprocess against a listening server: an agent
 * (QUIRE_API_KEY and --json alone) and a person (readable output) write an article section by
 * section. Needs the article routes (issue 3).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, createKey, registerUser, type TestApp, type TestUser } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';
import { runCli, runJson, writeFileIn, type CliOptions } from '../helpers/cli';

let app: TestApp;
let base: string;
let ada: TestUser;
let adaKey: string;
let bobKey: string;
let dir: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  ada = await registerUser(app, 'ada');
  adaKey = await createKey(app, ada, 'agent');
  bobKey = await createKey(app, await registerUser(app, 'bob'), 'bob');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-articles-'));
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An agent: nothing but QUIRE_URL and QUIRE_API_KEY. */
const agent = (args: string[], options: CliOptions = {}) =>
  runCli(args, { ...options, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: adaKey, ...options.env } });
const agentJson = (args: string[], options: CliOptions = {}, expectCode = 0) => runJson(agent, args, options, expectCode);
const file = (name: string, content: string) => writeFileIn(dir, name, content);
const api = (p: string) => app.http.get(p).set(bearer(adaKey));

describe('an agent writes an article section by section with QUIRE_API_KEY and --json', () => {
  let id: string;
  const anchors = async () => (await agentJson(['outline', id])).data.outline.map((s) => `${s.title}:${s.anchor}`);
  const anchorOf = async (title: string) => (await agentJson(['outline', id])).data.outline.find((s) => s.title === title).anchor as string;

  it('creates the article from stdin, with a premise', async () => {
    const created = await agentJson(['articles', 'create', '--title', 'On anchors', '--premise', 'Anchors beat line numbers.', '-'], {
      input: '# Introduction\n\nWhy anchors.\n\n## Method\n\nHow.',
    });
    expect(created.success).toBe(true);
    expect(created.data.article).toEqual(expect.objectContaining({ title: 'On anchors', status: 'draft', sections: 2 }));
    expect(created.data.outline.map((s) => s.title)).toEqual(['Introduction', 'Method']);
    id = created.data.article.id;
  });

  it('prints the server\'s envelope unchanged', async () => {
    for (const route of [['outline', id], ['articles', 'show', id]]) {
      const result = await agent([...route, '--json']);
      const direct = await api(route[0] === 'outline' ? `/api/articles/${id}/outline` : `/api/articles/${id}`);
      expect(result.stdout).toBe(direct.text + '\n');
    }
  });

  it('adds sections after, before and at the end, from stdin and from files', async () => {
    const intro = await anchorOf('Introduction');
    const added = await agentJson(['sections', 'add', id, '--after', intro], { input: '## Background\n\nContext.\n\n## Related work\n\nOthers.' });
    expect(added.data.added.map((s) => s.title)).toEqual(['Background', 'Related work']);
    await agentJson(['sections', 'add', id, file('coda.md', '## Coda\n\nThe end.')]);
    await agentJson(['sections', 'add', id, '--before', intro, file('pre.md', 'A preface without heading.')]);
    expect((await anchors()).map((a) => a.split(':')[0])).toEqual(['', 'Introduction', 'Background', 'Related work', 'Method', 'Coda']);
  });

  it('reads a section back as Markdown and HTML', async () => {
    const anchor = await anchorOf('Background');
    const markdown = await agent(['sections', 'get', id, anchor]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toBe('## Background\n\nContext.\n');
    const html = await agent(['sections', 'get', id, anchor, '--html']);
    expect(html.stdout).toContain('<h2');
    expect(html.stdout).toContain('Context.');
    const json = await agentJson(['sections', 'get', id, anchor]);
    expect(json.data.section).toEqual(expect.objectContaining({ anchor, title: 'Background', source: 'markdown', markdown: '## Background\n\nContext.' }));
  });

  it('replaces a section with Markdown (splitting) and with HTML', async () => {
    const method = await anchorOf('Method');
    const replaced = await agentJson(['sections', 'replace', id, method, '-'], { input: '## Method\n\nStep one.\n\n## Results\n\nIt works.' });
    expect(replaced.data.updated.map((s) => s.title)).toEqual(['Method', 'Results']);
    const results = await anchorOf('Results');
    const html = await agentJson(['sections', 'replace', id, results, '--html', file('results.html', '<h2>Results</h2><p>It <b>works</b>.</p>')]);
    expect(html.data.updated).toEqual([expect.objectContaining({ title: 'Results', source: 'html' })]);
    const get = await agent(['sections', 'get', id, results]);
    expect(get.stderr).toContain('has no Markdown; printing its HTML');
    expect(get.stdout).toContain('<b>works</b>');
  });

  it('moves and deletes sections', async () => {
    const coda = await anchorOf('Coda');
    const intro = await anchorOf('Introduction');
    const moved = await agentJson(['sections', 'move', id, coda, '--before', intro]);
    expect(moved.data.outline.map((s) => s.title).slice(0, 3)).toEqual(['', 'Coda', 'Introduction']);
    const related = await anchorOf('Related work');
    const deleted = await agentJson(['sections', 'delete', id, related]);
    expect(deleted.data.outline.map((s) => s.title)).not.toContain('Related work');
  });

  it('sets, reads and clears the premise', async () => {
    expect((await agentJson(['brief', 'set', id, 'A', 'new', 'premise.'])).data.premise).toBe('A new premise.');
    expect((await agentJson(['brief', 'set', id, '--file', '-'], { input: 'From stdin.\n' })).data.premise).toBe('From stdin.');
    expect((await agentJson(['brief', 'get', id])).data.premise).toBe('From stdin.');
    expect((await agentJson(['brief', 'clear', id])).data.premise).toBeNull();
  });

  it('adds, lists, reads, edits and deletes notes', async () => {
    const added = await agentJson(['notes', 'add', id, '--kind', 'source', '--title', 'RFC 8628', '--link', 'https://www.rfc-editor.org/rfc/rfc8628', '--body', 'Device *grant*.']);
    const note = added.data.note;
    expect(note).toEqual(expect.objectContaining({ kind: 'source', title: 'RFC 8628', body: 'Device *grant*.', createdBy: 'agent' }));
    await agentJson(['notes', 'add', id, '--kind', 'idea', '--title', 'From a file', '--body-file', file('idea.md', 'An idea.')]);
    const list = await agentJson(['notes', 'list', id]);
    expect(list.data.notes.map((n) => n.title)).toEqual(['RFC 8628', 'From a file']);
    expect((await agentJson(['notes', 'get', id, note.anchor])).data.note.html).toContain('<em>grant</em>');
    const edited = await agentJson(['notes', 'edit', id, note.anchor, '--title', 'The RFC', '--clear-link', '--clear-body']);
    expect(edited.data.note).toEqual(expect.objectContaining({ title: 'The RFC', url: null, body: null }));
    const deleted = await agentJson(['notes', 'delete', id, note.anchor]);
    expect(deleted.data.notes.map((n) => n.title)).toEqual(['From a file']);
  });

  it('renames, lists and deletes the article; --yes is required without a terminal', async () => {
    expect((await agentJson(['articles', 'rename', id, 'On anchors, revised'])).data.article.title).toBe('On anchors, revised');
    const list = await agentJson(['articles', 'list', '--limit', '5']);
    expect(list.data.articles.map((a) => a.id)).toContain(id);
    expect(list.data).toHaveProperty('nextCursor');

    const refused = await agent(['articles', 'delete', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Pass --yes');
    expect((await api(`/api/articles/${id}`)).status).toBe(200);
    const deleted = await agentJson(['articles', 'delete', id, '--yes']);
    expect(deleted.data.id).toBe(id);
    const gone = await agentJson(['articles', 'show', id], {}, 4);
    expect(gone.error.code).toBe('not-found');
  });
});

describe('a person at the terminal', () => {
  let id: string;

  it('sees readable tables and text', async () => {
    const t = (args: string[], options: CliOptions = {}) => agent(args, options);
    const created = await t(['articles', 'create', '--title', 'Field notes', file('field.md', '# Field notes\n\nDay one.\n\n## Day two\n\nRain.')]);
    expect(created.code).toBe(0);
    const match = /^Created article ([0-9a-f-]{36}): Field notes$/m.exec(created.stdout);
    expect(match).not.toBeNull();
    id = match![1];
    expect(created.stdout).toMatch(/^ANCHOR\s+LEVEL\s+WORDS\s+SOURCE\s+TITLE$/m);
    expect(created.stdout).toMatch(/^[0-9a-f]{6,}\s+2\s+\d+\s+markdown\s+ {2}Day two$/m);

    const list = await t(['articles', 'list']);
    expect(list.stdout).toMatch(/^ID\s+STATUS\s+WORDS\s+SECTIONS\s+UPDATED\s+TITLE$/m);
    // Short ids, outline-style: the first 8 characters (this user has no two sharing them).
    expect(list.stdout).toMatch(new RegExp(`^${id.slice(0, 8)}\\s+draft\\s+\\d+\\s+2\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+Field notes$`, 'm'));

    await t(['brief', 'set', id, 'Weather diary.']);
    await t(['notes', 'add', id, '--kind', 'question', '--title', 'Will it rain?']);
    const show = await t(['articles', 'show', id]);
    expect(show.stdout).toContain(`Field notes\n${id}\ndraft · `);
    expect(show.stdout).toContain('Outline:');
    expect(show.stdout).toContain('Premise:\nWeather diary.');
    expect(show.stdout).toMatch(/^[0-9a-f]{6,}\s+question\s+Will it rain\?$/m);

    const brief = await t(['brief', 'get', id]);
    expect(brief.stdout).toMatch(/^\[[0-9a-f]{6,}\] question: Will it rain\?$/m);
    const outline = await t(['outline', id]);
    expect(outline.stdout.trimEnd().split('\n')).toHaveLength(3);
  });

  it('gets errors in words on stderr with the next step, and a status per code', async () => {
    const missing = await agent(['sections', 'get', id, 'ffffffff']);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^Error: .+ \(not-found\)$/m);
    expect(missing.stderr).toMatch(/^Next: .*outline/m);

    const empty = await agent(['sections', 'add', id, '-'], { input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('(invalid-argument)');

    const neither = await agent(['sections', 'move', id, 'ffffffff']);
    expect(neither.code).toBe(2);

    const noFile = await agent(['sections', 'add', id, path.join(dir, 'nope.md')]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('no such file');

    const someoneElses = await agent(['articles', 'show', id], { env: { QUIRE_API_KEY: bobKey } });
    expect(someoneElses.code).toBe(4);
  });
});
