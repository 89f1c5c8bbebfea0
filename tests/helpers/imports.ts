/**
 * The import graph of our source: every module specifier of every file (imports, type-only
 * imports, `export ... from`, `require()`, `import()`), resolved to a path when it is relative
 * or names the kernel by its alias.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const appDir = path.resolve(__dirname, '..', '..');

export interface ImportEdge {
  /** Importing file, relative to the app root ("src/plugins/quire/server/src/x.ts"). */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** Where a relative or `#kernel/` specifier points, relative to the app root (no extension resolution needed to compare folders). */
  resolved?: string;
}

/** Source files (.ts, .tsx, .js, .mjs, .cjs) under `dir` (relative to the app root). */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(appDir, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(child);
      } else if (/\.(tsx?|[cm]?js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        out.push(child);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** The module specifiers of one file's text. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map(({ fileName: specifier }) => ({
    from: file,
    specifier,
    resolved: resolve(file, specifier),
  }));
}

/** Where a specifier points, relative to the app root: relative ones, and the kernel's alias (`#kernel/db` is src/kernel/db). */
function resolve(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  if (specifier.startsWith('#kernel/')) return path.posix.join('src/kernel', specifier.slice('#kernel/'.length));
  return undefined;
}

export function importsUnder(dir: string): ImportEdge[] {
  return sourceFiles(dir).flatMap((file) => importsOf(file, fs.readFileSync(path.join(appDir, file), 'utf8')));
}

/** "quire" for "src/plugins/quire/...", undefined outside the plugins. */
export const pluginOf = (file: string | undefined) => /^src\/plugins\/([^/]+)\//.exec(file ?? '')?.[1];
