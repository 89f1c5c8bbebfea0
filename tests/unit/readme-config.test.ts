/**
 * The README's configuration table and the code agree: every environment variable the server
 * reads is in the table, and every variable in the table is read. Variables are read only in
 * config modules, declared with the kernel's helpers (src/kernel/config.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { appDir, sourceFiles } from '../helpers/imports';

/** Server code: the app's config and src, without the CLI (a client; its variables are in docs/cli.md). */
// The admin pages run in the browser: a `process.env` there is sample code shown to operators, not a setting.
const serverFiles = [...sourceFiles('config'), ...sourceFiles('src').filter((f) => !f.startsWith('src/cli/') && !f.includes('/admin/src/'))];
const read = (file: string) => fs.readFileSync(path.join(appDir, file), 'utf8');

const NAME = '([A-Z][A-Z0-9_]*)';
/** Declarations with the kernel's helpers: int('PORT', ...), oneOf('LOG_LEVEL', [...]), secret('JWT_SECRET')... */
const DECLARATION = new RegExp(`\\b(?:int|duration|bool|oneOf|text|url|list|hostList|secret)\\(\\s*'${NAME}'`, 'g');
/** Direct reads: process.env.X, process.env['X'], and Strapi's env('X') / env.int('X'). */
const DIRECT = [new RegExp(`process\\.env\\.${NAME}`, 'g'), new RegExp(`process\\.env\\[\\s*['"]${NAME}['"]`, 'g'), new RegExp(`\\benv(?:\\.\\w+)?\\(\\s*['"]${NAME}['"]`, 'g')];

function matches(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[1]);
}

function readmeVariables(): string[] {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('## Configuration'));
  const table = section.slice(0, section.indexOf('\n## ', 1)).split('\n').filter((line) => line.startsWith('| `'));
  return table.flatMap((row) => matches(row.split('|')[1], /`([A-Z][A-Z0-9_]*)`/g));
}

describe('configuration variables', () => {
  const declared = new Set(serverFiles.flatMap((file) => matches(read(file), DECLARATION)));
  const documented = new Set(readmeVariables());

  it('are read through config modules only (no process.env or env() elsewhere)', () => {
    const direct = serverFiles.flatMap((file) => DIRECT.flatMap((pattern) => matches(read(file), pattern)).map((name) => `${file}: ${name}`));
    expect(direct).toEqual([]);
    expect(declared.size).toBeGreaterThan(40);
  });

  it('are all in the README table, and the table lists nothing else', () => {
    expect([...declared].filter((name) => !documented.has(name)).sort()).toEqual([]);
    expect([...documented].filter((name) => !declared.has(name)).sort()).toEqual([]);
  });
});
