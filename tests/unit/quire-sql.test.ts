/**
 * Services own behaviour, repositories own SQL (docs/architecture.md, "Rules of the house"):
 * no file of the quire plugin's server outside repositories/ builds a query (Knex calls,
 * table names, the Query Engine, the bare connection). The kernel's database helpers
 * (src/kernel/db.ts) are outside the plugin and not checked here.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const serverSrc = 'src/plugins/quire/server/src';

/** What a query looks like in our code: Knex's builder, table names, the Query Engine and the bare connection. */
const SQL: Array<[string, RegExp]> = [
  ['.select(', /\.select\(/],
  ['.where(', /\.where(?:In|Raw|Not|Null|NotNull)?\(/],
  ['.raw(', /\.raw\((?!\))/],
  ['.from(', /(?<!\b(?:Buffer|Array|Uint8Array|Object))\.from\(/],
  ['strapi.db.connection', /strapi\.db\.connection/],
  ['strapi.db.query(', /strapi\.db\.query\(/],
  ['tableName(', /\btableName\(/],
];

/**
 * Files not yet converted, each to move its SQL into a repository (none now: a file that must
 * wait goes here, with why). The test fails when one of them no longer holds SQL, so the list
 * only shrinks.
 */
const NOT_YET_CONVERTED = new Set<string>([]);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(rel);
    return /\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

/** The SQL markers in a source text, comments left out. */
function sqlIn(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return SQL.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
}

describe('SQL lives in repositories', () => {
  const files = filesUnder(serverSrc)
    .map((file) => file.slice(serverSrc.length + 1))
    .filter((file) => !file.startsWith('repositories/'));

  it('finds what it looks for (the check itself can fail)', () => {
    expect(sqlIn("const rows = await k(tableName(strapi, 'x')).where({ id }).select('a');")).toEqual(['.select(', '.where(', 'tableName(']);
    expect(sqlIn('await strapi.db.query(UID.note).createMany({ data });')).toEqual(['strapi.db.query(']);
    expect(sqlIn('const k = strapi.db.connection; k.raw("select 1")')).toEqual(['.raw(', 'strapi.db.connection']);
    expect(sqlIn("query.from('quire_notes')")).toEqual(['.from(']);
    expect(sqlIn('Buffer.from(text); Array.from(set); // .where( in a comment\n/* .select( */')).toEqual([]);
  });

  it('no file of the quire server outside repositories/ holds SQL (but the listed ones, not yet converted)', () => {
    const offending = files
      .filter((file) => !NOT_YET_CONVERTED.has(file))
      .map((file) => [file, sqlIn(fs.readFileSync(path.join(root, serverSrc, file), 'utf8'))] as const)
      .filter(([, found]) => found.length)
      .map(([file, found]) => `${file}: ${found.join(', ')}`);
    expect(offending).toEqual([]);
  });

  it('every file still listed as not converted holds SQL (convert it, then take it off the list)', () => {
    const converted = [...NOT_YET_CONVERTED].filter((file) => !files.includes(file) || !sqlIn(fs.readFileSync(path.join(root, serverSrc, file), 'utf8')).length);
    expect(converted).toEqual([]);
  });
});

/**
 * Services hold behaviour and transactions, not database handles: a repository finds its own
 * (kernel/db repositoryOf: the open transaction, or the pool), and a service that opens a
 * transaction passes it (`repo.in(trx)`). So no service or controller calls knexOf.
 */
describe('services take no database handle of their own', () => {
  const KNEX_OF = /\bknexOf\b/;
  const checked = filesUnder(serverSrc)
    .map((file) => file.slice(serverSrc.length + 1))
    .filter((file) => file.startsWith('services/') || file.startsWith('controllers/'));

  it('finds the services and controllers it checks', () => {
    expect(checked).toEqual(expect.arrayContaining(['services/notes.ts', 'services/edits.ts', 'controllers/sections.ts']));
    expect(KNEX_OF.test('const k = await knexOf(strapi);')).toBe(true);
  });

  it('no service or controller calls knexOf', () => {
    const code = (file: string) => fs.readFileSync(path.join(root, serverSrc, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    expect(checked.filter((file) => KNEX_OF.test(code(file)))).toEqual([]);
  });
});
