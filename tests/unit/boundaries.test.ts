/**
 * The house rules about who imports whom (docs/architecture.md, "Rules of the house"):
 * - a plugin never imports another plugin's files, not even for types: shared code is in
 *   src/kernel, and the triggers plugin reaches articles through strapi.plugin('quire').service(...);
 * - the kernel imports no plugin;
 * - services and domain code never import controllers.
 */
import { importsOf, importsUnder, pluginOf, type ImportEdge } from '../helpers/imports';

const describeEdge = (e: ImportEdge) => `${e.from} imports "${e.specifier}"`;

/** Imports that cross from one plugin into another (by path, or by a plugin's package name). */
function crossPluginImports(edges: ImportEdge[]): string[] {
  return edges
    .filter((e) => {
      const own = pluginOf(e.from);
      const target = e.resolved ? pluginOf(e.resolved) : /^@quire\/plugin-([^/]+)/.exec(e.specifier)?.[1];
      return own !== undefined && target !== undefined && target !== own;
    })
    .map(describeEdge);
}

describe('import boundaries', () => {
  const plugins = importsUnder('src/plugins');

  it('finds the imports it checks (the check itself can fail)', () => {
    const fake = importsOf(
      'src/plugins/triggers/server/src/actions/x.ts',
      [
        "import type { A } from '../../../../quire/server/src/schemas/inputs';",
        "export { b } from '../../../../quire/server/src/services/b';",
        "const c = require('../../../../quire/strapi-server.js');",
        "const d = import('@quire/plugin-quire');",
        "import { ok } from '../../../../../kernel/respond';",
      ].join('\n'),
    );
    expect(crossPluginImports(fake)).toHaveLength(4);
    expect(plugins.length).toBeGreaterThan(100);
  });

  it('no plugin imports a file of another plugin', () => {
    expect(crossPluginImports(plugins)).toEqual([]);
  });

  it('the kernel imports no plugin', () => {
    const found = importsUnder('src/kernel').filter((e) => e.resolved?.startsWith('src/plugins/')).map(describeEdge);
    expect(found).toEqual([]);
  });

  it('services and domain code never import controllers', () => {
    const found = plugins
      .filter((e) => /\/server\/src\/(services|domain)\//.test(e.from) && /\/server\/src\/controllers\//.test(e.resolved ?? ''))
      .map(describeEdge);
    expect(found).toEqual([]);
  });
});

describe('the CLI and the server', () => {
  it('the CLI takes only types from the server, and only from its schemas', () => {
    const fs = require('node:fs');
    const path = require('node:path');
    const { appDir, sourceFiles } = require('../helpers/imports');
    const found: string[] = [];
    let typeImports = 0;
    for (const file of sourceFiles('src/cli') as string[]) {
      const text: string = fs.readFileSync(path.join(appDir, file), 'utf8');
      for (const statement of text.match(/^(?:import|export)[^;]*?from\s+'[^']*plugins\/[^']*';/gms) ?? []) {
        if (/^(import|export) type /.test(statement) && /plugins\/[^/]+\/server\/src\/schemas\//.test(statement)) typeImports += 1;
        else found.push(`${file}: ${statement.replace(/\s+/g, ' ')}`);
      }
    }
    expect(found).toEqual([]);
    expect(typeImports).toBeGreaterThan(0);
  });
});
