/**
 * Services own behaviour, repositories own SQL (docs/architecture.md): in the triggers plugin,
 * no service or controller builds a query. Knex and the query engine are reached only from
 * server/src/repositories/, through the kernel's db helpers (table names, the open transaction).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const PLUGIN = 'src/plugins/triggers/server/src';

/** What building a query looks like. `Buffer.from(` and `Array.from(` are not SQL. */
const SQL = [
  { name: '.from(', pattern: /(?<!\b(?:Buffer|Array|Object))\.from\(/ },
  { name: '.select(', pattern: /\.select\(/ },
  { name: '.where(', pattern: /\.where\(/ },
  { name: '.raw(', pattern: /\.raw\(/ },
  { name: 'strapi.db.connection', pattern: /\bdb\s*\.\s*connection\b/ },
  { name: 'strapi.db.query(', pattern: /\bdb\s*\.\s*query\s*\(/ },
  { name: 'knexOf', pattern: /\bknexOf\b/ },
];

/** The source without its comments, so a comment may name what it explains. */
const code = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function sqlIn(file: string, source: string): string[] {
  const found: string[] = [];
  code(source)
    .split('\n')
    .forEach((line, i) => {
      for (const { name, pattern } of SQL) if (pattern.test(line)) found.push(`${file}:${i + 1} uses ${name}`);
    });
  return found;
}

function filesUnder(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(rel);
    return /\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

describe('triggers: SQL only in repositories', () => {
  it('recognises a query (the check itself can fail)', () => {
    const fake = [
      "const row = await strapi.db.connection('triggers_workflows').where({ document_id: id }).first();",
      "const rows = await strapi.db.query('plugin::triggers.workflow').findMany({});",
      'const k = await knexOf(strapi);',
      "const q = k.select('id').from('t');",
      "const n = k.raw('?? + 1', ['attempts']);",
      "const id = Buffer.from(cursor, 'base64url').toString();",
      '// a comment may say strapi.db.connection(...).where(...)',
    ].join('\n');
    expect(sqlIn('fake.ts', fake)).toEqual([
      'fake.ts:1 uses .where(',
      'fake.ts:1 uses strapi.db.connection',
      'fake.ts:2 uses strapi.db.query(',
      'fake.ts:3 uses knexOf',
      'fake.ts:4 uses .from(',
      'fake.ts:4 uses .select(',
      'fake.ts:5 uses .raw(',
    ]);
  });

  it('finds the services and controllers it checks, and the repositories', () => {
    expect(filesUnder(`${PLUGIN}/services`).length).toBeGreaterThan(5);
    expect(filesUnder(`${PLUGIN}/controllers`).length).toBeGreaterThan(3);
    expect(filesUnder(`${PLUGIN}/repositories`).length).toBeGreaterThan(3);
  });

  it('no service or controller of the triggers plugin contains SQL', () => {
    const files = [...filesUnder(`${PLUGIN}/services`), ...filesUnder(`${PLUGIN}/controllers`)];
    const found = files.flatMap((file) => sqlIn(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
