/**
 * `quire` for people at a terminal, as subprocesses against a listening server: text, files
 * and stdin cannot be confused; short article and key ids; errors told in the CLI's own
 * commands and flags (and --json still the server's envelope, byte for byte); one saved login
 * for every spelling of a local server; one time format; what an import made.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, createKey, createLoginKey, registerUser, type TestApp, type TestUser } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';
import { runCli, runJson, writeFileIn, type CliOptions } from '../helpers/cli';

let app: TestApp;
let base: string;
let port: number;
let ada: TestUser;
let adaKey: string;
let bobKey: string;
let dir: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  port = Number(new URL(base).port);
  ada = await registerUser(app, 'ada');
  adaKey = await createLoginKey(app, ada, 'ada terminal');
  bobKey = await createKey(app, await registerUser(app, 'bob'), 'bob');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-people-'));
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Ada at her terminal; files are in `dir`, which is also the working directory's stand-in. */
const quire = (args: string[], options: CliOptions = {}) =>
  runCli(args, { ...options, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: adaKey, ...options.env } });
const quireJson = (args: string[], options: CliOptions = {}, expectCode = 0) => runJson(quire, args, options, expectCode);
const file = (name: string, content: string) => writeFileIn(dir, name, content);
const api = (p: string, key = adaKey) => app.http.get(p).set(bearer(key));
const newArticle = async (title: string, markdown?: string) =>
  (await app.http.post('/api/articles').set(bearer(adaKey)).send({ title, ...(markdown ? { markdown } : {}) })).body.data.article.id as string;

describe('text, --file and stdin cannot be confused', () => {
  let art: string;
  beforeAll(async () => {
    art = await newArticle('Content rules');
  });

  it('brief set: a premise that only names a file is refused, and --file is named', async () => {
    const premise = file('premise.md', 'Premises come from files too.\n');
    const refused = await quire(['brief', 'set', art, premise]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`Error: "${premise}" is the name of a file here, not a premise. (invalid-argument)`);
    expect(refused.stderr).toContain(`Next: Pass --file ${premise} to use the file's content`);
    expect((await api(`/api/articles/${art}/brief`)).body.data.premise).toBeNull();

    expect((await quireJson(['brief', 'set', art, '--file', premise])).data.premise).toBe('Premises come from files too.');
    // Words that merely look like a file name are fine when no such file exists; piped words are kept as they are.
    expect((await quireJson(['brief', 'set', art, 'notes.md'])).data.premise).toBe('notes.md');
    expect((await quireJson(['brief', 'set', art, '--file', '-'], { input: premise })).data.premise).toBe(premise);
  });

  it('brief set with nothing: "pass the text, --file F, or pipe it", and the premise is kept', async () => {
    const before = (await api(`/api/articles/${art}/brief`)).body.data.premise;
    const empty = await quire(['brief', 'set', art], { input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('Error: No premise given (the input was empty). (invalid-argument)');
    expect(empty.stderr).toContain('Next: Pass the text, --file F, or pipe it.');
    expect((await api(`/api/articles/${art}/brief`)).body.data.premise).toBe(before);
    const both = await quire(['brief', 'set', art, 'Words', '--file', 'x.md']);
    expect(both.code).toBe(2);
  });

  it('notes add --body and articles create --premise refuse a file name and name --body-file / --premise-file', async () => {
    const why = file('why.md', 'Because anchors survive edits.');
    const body = await quire(['notes', 'add', art, '--kind', 'decision', '--title', 'Use anchors', '--body', why]);
    expect(body.code).toBe(2);
    expect(body.stderr).toContain(`Next: Pass --body-file ${why} to use the file's content`);
    const added = await quireJson(['notes', 'add', art, '--kind', 'decision', '--title', 'Use anchors', '--body-file', why]);
    expect(added.data.note.body).toBe('Because anchors survive edits.');
    const edit = await quire(['notes', 'edit', art, added.data.note.anchor, '--body', why]);
    expect(edit.code).toBe(2);

    const premise = file('p.txt', 'The premise, from a file.');
    const create = await quire(['articles', 'create', '--title', 'With premise', '--premise', premise]);
    expect(create.code).toBe(2);
    expect(create.stderr).toContain(`Next: Pass --premise-file ${premise} to use the file's content`);
    const created = await quireJson(['articles', 'create', '--title', 'With premise', '--premise-file', premise]);
    expect((await api(`/api/articles/${created.data.article.id}/brief`)).body.data.premise).toBe('The premise, from a file.');
  });

  it('a file argument given text says there is no such file and how to pipe text instead', async () => {
    const sections = await quire(['sections', 'add', art, '## Coda\n\nThe end.']);
    expect(sections.code).toBe(2);
    expect(sections.stderr).toContain('There is no file named "## Coda');
    expect(sections.stderr).toContain(`Next: To pass the Markdown itself, pipe it: printf '%s\\n' '## Coda`);
    expect(sections.stderr).toContain(`| quire sections add ${art} -`);
    const imported = await quire(['import', 'Some words to import']);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain('| quire import -');
  });
});

describe('short ids', () => {
  const A1 = 'c0ffee00-0000-4000-8000-000000000001';
  const A2 = 'c0ffee11-0000-4000-8000-000000000002';
  const setId = async (from: string, to: string) => {
    expect(await app.strapi.db.connection('quire_articles').where({ uuid: from }).update({ uuid: to })).toBe(1);
  };

  it('articles list shows outline-style short ids that address the article', async () => {
    const id = await newArticle('Short and sweet', '# Short and sweet\n\nText.');
    const list = await quire(['articles', 'list']);
    const row = list.stdout.split('\n').find((line) => line.endsWith('Short and sweet'))!;
    const short = row.split(/\s+/)[0];
    expect(short).toBe(id.slice(0, 8));
    expect((await quire(['outline', short])).stdout).toContain('Short and sweet');
    expect((await quireJson(['articles', 'show', id.slice(0, 4).toUpperCase()])).data.article.id).toBe(id);
  });

  it('an ambiguous article prefix lists the articles it matched; --json is the server\'s envelope', async () => {
    await setId(await newArticle('First coffee'), A1);
    await setId(await newArticle('Second coffee'), A2);
    const list = await quire(['articles', 'list']);
    expect(list.stdout).toMatch(/^c0ffee00\s.*First coffee$/m);
    expect(list.stdout).toMatch(/^c0ffee11\s.*Second coffee$/m);

    const human = await quire(['outline', 'c0ffee']);
    expect(human.code).toBe(2);
    expect(human.stderr).toBe(
      [
        'Error: The id "c0ffee" matches more than one of your articles. (invalid-argument)',
        'It matches:',
        `  ${A1}  First coffee`,
        `  ${A2}  Second coffee`,
        'Next: Use a longer anchor (more of the characters of the one you mean).',
        '',
      ].join('\n'),
    );
    const json = await quire(['outline', 'c0ffee', '--json']);
    expect(json.stdout).toBe((await api('/api/articles/c0ffee/outline')).text + '\n');
    expect((await quireJson(['outline', 'c0ffee1'])).data.outline).toHaveLength(1);
    // Bob's key never sees Ada's articles, by prefix or otherwise.
    const bob = await quire(['articles', 'show', 'c0ffee1'], { env: { QUIRE_API_KEY: bobKey } });
    expect(bob.code).toBe(4);
    expect(bob.stderr).toContain('Next: quire articles list');
  });

  it('an ambiguous article prefix finds its matches past the first page of articles, and prints at most 20', async () => {
    // Carol's 22 oldest articles share a prefix; 100 newer ones fill the first page of the list.
    const carol = await registerUser(app, 'carol');
    const carolKey = await createKey(app, carol, 'carol');
    const create = async (title: string) =>
      (await app.http.post('/api/articles').set(bearer(carolKey)).send({ title })).body.data.article.id as string;
    const shared = Array.from({ length: 22 }, (_, i) => `dec0de${String(i).padStart(2, '0')}-0000-4000-8000-000000000000`);
    for (const [i, to] of shared.entries()) await setId(await create(`Old ${i}`), to);
    for (let i = 0; i < 100; i++) await create(`New ${i}`);
    const firstPage = (await api('/api/articles?limit=100', carolKey)).body.data.articles as Array<{ id: string }>;
    expect(firstPage.filter((a) => a.id.startsWith('dec0de'))).toEqual([]);

    const human = await quire(['outline', 'dec0de'], { env: { QUIRE_API_KEY: carolKey } });
    expect(human.code).toBe(2);
    expect(human.stderr).toBe(
      [
        'Error: The id "dec0de" matches more than one of your articles. (invalid-argument)',
        'It matches:',
        ...shared.slice(0, 20).map((id, i) => `  ${id}  Old ${i}`),
        '  (and 2 more)',
        'Next: Use a longer anchor (more of the characters of the one you mean).',
        '',
      ].join('\n'),
    );
  });

  it('keys list shows short key ids, and keys revoke takes a unique prefix', async () => {
    const t = (args: string[]) => quire(args);
    const [k1, k2] = [await createKey(app, ada, 'alpha one'), await createKey(app, ada, 'alpha two')];
    const keys = (await quireJson(['keys', 'list'])).data.keys as Array<{ id: string; name: string }>;
    const one = keys.find((k) => k.name === 'alpha one')!;
    const two = keys.find((k) => k.name === 'alpha two')!;
    const table = (await t(['keys', 'list'])).stdout;
    expect(table).toMatch(new RegExp(`^\\s+${one.id.slice(0, 8)}\\s+alpha one\\s`, 'm'));

    // Two ids sharing their first 6 characters, written to the database on purpose.
    const shared = 'zzzzzz';
    for (const [key, suffix] of [[one, 'a'], [two, 'b']] as const) {
      await app.strapi.db.connection('quire_api_keys').where({ document_id: key.id }).update({ document_id: `${shared}${suffix}${key.id.slice(7)}` });
    }
    const ambiguous = await t(['keys', 'revoke', shared]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/^It matches:\n {2}zzzzzza\S+ {2}alpha one\n {2}zzzzzzb\S+ {2}alpha two$/m);
    const missing = await t(['keys', 'revoke', 'qqqqqq']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('Next: quire keys list');
    expect(missing.stderr).not.toContain('articles');

    const revoked = await t(['keys', 'revoke', `${shared}b`]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked key ${shared}b${two.id.slice(7)}.\n`);
    expect((await app.http.get('/api/auth/me').set(bearer(k2))).status).toBe(401);
    expect((await app.http.get('/api/auth/me').set(bearer(k1))).status).toBe(200);
  });
});

describe('errors in the CLI\'s own words', () => {
  let art: string;
  beforeAll(async () => {
    const doc = Array.from({ length: 20 }, (_, i) => `## Part ${i + 1}\n\nText ${i + 1}.`).join('\n\n');
    art = await newArticle('Many parts', doc);
  });

  it('names flags, not fields, and the server\'s envelope stays unchanged under --json', async () => {
    const args = ['notes', 'add', art, '--kind', 'source', '--title', 'A link', '--link', 'not a link'];
    const human = await quire(args);
    expect(human.code).toBe(2);
    // The message is a sentence a person reads (no field name); the next step names the flag.
    expect(human.stderr).toMatch(/^Error: The link must be a full web address that starts with http:\/\/ or https:\/\/, such as https:\/\/example\.com\/page\. \(invalid-argument\)$/m);
    expect(human.stderr).toMatch(/^Next: Pass --link as an absolute http\(s\) URL\.$/m);
    const json = await quire([...args, '--json']);
    const direct = await app.http.post(`/api/articles/${art}/notes`).set(bearer(adaKey)).send({ kind: 'source', title: 'A link', url: 'not a link' });
    expect(json.stdout).toBe(direct.text + '\n');
    expect(JSON.parse(json.stdout).error.message).toMatch(/^url: /);

    const note = (await quireJson(['notes', 'add', art, '--kind', 'idea', '--title', 'Edit me'])).data.note;
    const edit = await quire(['notes', 'edit', art, note.anchor, '--link', 'ftp://x']);
    expect(edit.stderr).toMatch(/^Next: Pass --link as an absolute http\(s\) URL, or --clear-link to remove it\.$/m);
    const nothing = await quire(['notes', 'edit', art, note.anchor]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Pass at least one of --kind, --title');
  });

  it('tells each command\'s next step as a quire command', async () => {
    const article = await quire(['outline', 'ffffffff-0000-4000-8000-000000000000']);
    expect(article.code).toBe(4);
    expect(article.stderr).toMatch(/^Next: quire articles list$/m);
    const section = await quire(['sections', 'get', art, 'ffffffff']);
    expect(section.stderr).toMatch(new RegExp(`^Next: quire outline ${art}$`, 'm'));
    const note = await quire(['notes', 'get', art, 'ffffffff']);
    expect(note.stderr).toMatch(new RegExp(`^Next: quire notes list ${art}$`, 'm'));
    for (const result of [article, section, note]) expect(result.stderr).not.toMatch(/GET \/api|Hint:/);
  });

  it('says which site the server could not reach, and does not ask to report it', async () => {
    const unreachable = await quire(['unfurl', 'http://quire-cli-test.invalid/post']);
    expect(unreachable.code).toBe(6);
    expect(unreachable.stderr).toMatch(/^Error: The server could not reach quire-cli-test\.invalid: no DNS answer\. \(internal\)$/m);
    expect(unreachable.stderr).toMatch(/^Next: Check the URL .*outbound network/m);
    expect(unreachable.stderr).not.toMatch(/report/i);
  });

  it('lists the sections an ambiguous anchor matched, with their anchors and titles', async () => {
    const outline = (await api(`/api/articles/${art}/outline`)).body.data.outline as Array<{ anchor: string; title: string }>;
    // 20 sections, 16 hex digits: two anchors share their first character.
    const counts = new Map<string, number>();
    for (const s of outline) counts.set(s.anchor[0], (counts.get(s.anchor[0]) ?? 0) + 1);
    const prefix = [...counts].find(([, n]) => n > 1)![0];
    const matched = outline.filter((s) => s.anchor.startsWith(prefix));
    const human = await quire(['sections', 'get', art, prefix]);
    expect(human.code).toBe(2);
    expect(human.stderr).toContain(`Error: The anchor "${prefix}" matches more than one section of this article. (invalid-argument)\nIt matches:\n`);
    for (const s of matched) expect(human.stderr).toContain(`\n  ${s.anchor}  ${s.title}\n`);
    expect(human.stderr).toMatch(/^Next: Use a longer anchor/m);
    const json = await quire(['sections', 'get', art, prefix, '--json']);
    expect(json.stdout).toBe((await api(`/api/articles/${art}/sections/${prefix}`)).text + '\n');
  });
});

describe('the saved login', () => {
  it('is the same for every spelling of a local server; elsewhere, it names the servers logged in to', async () => {
    const home = fs.mkdtempSync(path.join(dir, 'home-'));
    const t = (args: string[], env: Record<string, string> = {}) =>
      runCli(args, { env: { QUIRE_CONFIG_DIR: home, QUIRE_API_KEY: undefined, QUIRE_URL: undefined, ...env } });
    expect((await t(['login', '--key', adaKey, '--url', `http://127.0.0.1:${port}`])).code).toBe(0);
    for (const url of [`http://localhost:${port}`, `http://LOCALHOST:${port}/`, `http://127.0.0.1:${port}/`]) {
      const me = await t(['whoami'], { QUIRE_URL: url });
      expect([url, me.code, me.stdout.split('\n')[0]]).toEqual([url, 0, `${ada.username} <${ada.email}> (user ${ada.id})`]);
    }
    const other = await t(['whoami'], { QUIRE_URL: `http://localhost:${port + 1}` });
    expect(other.code).toBe(3);
    expect(other.stderr).toContain(`Error: Not logged in to http://localhost:${port + 1}. You are logged in to http://127.0.0.1:${port} (as ${ada.username}).`);
    expect(other.stderr).toContain(`Next: Run "quire login --url http://localhost:${port + 1}" to log in there, or pass --url http://127.0.0.1:${port}`);
    // Logging out under another spelling forgets the one saved login.
    expect((await t(['logout', '--keep-key'], { QUIRE_URL: `http://localhost:${port}` })).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(home, 'config.json'), 'utf8')).servers).toEqual({});
  });
});

describe('times and imports', () => {
  it('prints local readable times for people and keeps ISO-8601 UTC in --json', async () => {
    const id = await newArticle('Timed');
    const updatedAt = (await api(`/api/articles/${id}`)).body.data.article.updatedAt as string;
    // Kathmandu is UTC+05:45 all year.
    const local = new Date(new Date(updatedAt).getTime() + (5 * 60 + 45) * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    const shown = await quire(['articles', 'show', id], { env: { TZ: 'Asia/Kathmandu' } });
    expect(shown.stdout).toContain(`updated ${local}`);
    const json = await quireJson(['articles', 'show', id], { env: { TZ: 'Asia/Kathmandu' } });
    expect(json.data.article.updatedAt).toBe(updatedAt);
  });

  it('quire import says what it created: title, sections, premise and notes', async () => {
    const draft = file('draft.md', '---\ntitle: Imported draft\npremise: Say what you made.\nnotes:\n  - kind: source\n    title: RFC 8628\n    url: https://www.rfc-editor.org/rfc/rfc8628\n---\n## One\n\nFirst.\n\n## Two\n\nSecond.\n');
    const result = await quire(['import', draft]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Imported article [0-9a-f-]{36}: Imported draft\n2 sections, 4 words\nPremise: Say what you made\.\nNotes: 1\n {2}source: RFC 8628 <https:\/\/www\.rfc-editor\.org\/rfc\/rfc8628>\n\nANCHOR/,
    );
  });
});
