/**
 * `quire search` (one article with --in, or every article) and `quire keys create --scope
 * --expires`, run as a subprocess against a listening server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, createKey, createLoginKey, registerUser, type TestApp, type TestUser } from '../helpers/strapi';
import { startListeningApp } from '../helpers/cli-login';
import { runCli, runJson, type CliOptions } from '../helpers/cli';
import { expiryOf } from '../../src/cli/commands/keys';

let app: TestApp;
let base: string;
let ada: TestUser;
let loginKey: string;
let dir: string;

beforeAll(async () => {
  ({ app, base } = await startListeningApp());
  ada = await registerUser(app, 'ada');
  loginKey = await createLoginKey(app, ada, 'ada laptop');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-search-'));
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const quire = (args: string[], options: CliOptions = {}) =>
  runCli(args, { ...options, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, QUIRE_API_KEY: loginKey, ...options.env } });
const quireJson = (args: string[], options: CliOptions = {}, code = 0) => runJson(quire, args, options, code);

describe('quire search', () => {
  let first: string;
  beforeAll(async () => {
    first = (await quireJson(['articles', 'create', '--title', 'Prices', '-'], { input: '# Costs\n\nIt costs 100% more.\n\n## Other\n\nNothing.' })).data.article.id;
    await quireJson(['articles', 'create', '--title', 'Later', '-'], { input: '# Margins\n\nA 100% margin.' });
  });

  it('finds text in one article: anchor, count, title and snippets', async () => {
    const out = await quire(['search', '100%', '--in', first]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^\S{6,}\s+1\s+Costs\n {4}# Costs It costs 100% more\.\n$/);
    const json = await quireJson(['search', 'NOTHING', '--in', first]);
    expect(json.data.matches).toEqual([expect.objectContaining({ title: 'Other', count: 1 })]);
    expect((await quire(['search', 'absent', '--in', first])).stdout).toBe('No section contains "absent".\n');
  });

  it('finds text across every article, most recently updated first', async () => {
    const json = await quireJson(['search', '100%']);
    expect(json.data.results.map((r: { article: { title: string } }) => r.article.title)).toEqual(['Later', 'Prices']);
    const paged = await quireJson(['search', '100%', '--limit', '1']);
    expect(paged.data.results).toHaveLength(1);
    const text = await quire(['search', '100%', '--limit', '1']);
    expect(text.stdout).toContain(`More: quire search "100%" --cursor ${paged.data.nextCursor}`);
    const next = await quireJson(['search', '100%', '--cursor', paged.data.nextCursor]);
    expect(next.data.results.map((r: { article: { title: string } }) => r.article.title)).toEqual(['Prices']);
  });

  it('refuses an empty or too long query (exit 2)', async () => {
    expect((await quireJson(['search', ''], {}, 2)).error.code).toBe('invalid-argument');
    expect((await quireJson(['search', 'x'.repeat(201), '--in', first], {}, 2)).error.message).toMatch(/200 characters/);
  });
});

describe('quire keys create --scope --expires', () => {
  it('creates a read key that expires, and lists its scope and expiry', async () => {
    const created = await quire(['keys', 'create', '--name', 'reviewer', '--scope', 'read', '--expires', '7d']);
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(/scope read, expires \d{4}-/);
    const secret = created.stdout.trim();
    const listed = (await quireJson(['keys', 'list'])).data.keys.find((k: { name: string }) => k.name === 'reviewer');
    expect(listed.scope).toBe('read');
    expect(Date.parse(listed.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    // The read key reads, and cannot write.
    expect((await app.http.get('/api/articles').set(bearer(secret))).status).toBe(200);
    expect((await app.http.post('/api/articles').set(bearer(secret)).send({ title: 'x' })).status).toBe(403);
    const table = await quire(['keys', 'list']);
    expect(table.stdout).toMatch(/reviewer\s+qk_\S+\s+read\s/);
  });

  it('refuses a scope that is not one of three, and a past expiry (exit 2)', async () => {
    expect((await quireJson(['keys', 'create', '--scope', 'admin'], {}, 2)).error.message).toMatch(/scope must be one of write, suggest, read/);
    expect((await quireJson(['keys', 'create', '--expires', '2001-01-01T00:00:00Z'], {}, 2)).error.message).toMatch(/in the past/);
  });

  it('an agent\'s key (from keys create) cannot create keys: 403, exit 1', async () => {
    const agentKey = await createKey(app, ada, 'agent');
    const out = await quireJson(['keys', 'create'], { env: { QUIRE_API_KEY: agentKey } }, 1);
    expect(out.error.code).toBe('permission-denied');
  });

  it('reads --expires durations', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(expiryOf('30m', now)).toBe('2030-01-01T00:30:00.000Z');
    expect(expiryOf('12h', now)).toBe('2030-01-01T12:00:00.000Z');
    expect(expiryOf('7d', now)).toBe('2030-01-08T00:00:00.000Z');
    expect(expiryOf('2031-05-05T10:00:00Z', now)).toBe('2031-05-05T10:00:00Z');
  });
});
