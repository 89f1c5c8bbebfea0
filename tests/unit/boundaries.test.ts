/**
 * The house rules about who imports whom (docs/architecture.md, "Rules of the house"):
 * - a plugin never imports another plugin's files, not even for types: shared code is in
 *   src/kernel, and the triggers plugin reaches articles through strapi.plugin('quire').service(...),
 *   typed by the contract in src/contracts/plugin-services.ts;
 * - the kernel and the plugins' contracts (src/contracts) import no plugin;
 * - services and domain code never import controllers;
 * - a controller never imports another controller (what two share is a service, domain code,
 *   a page helper or controllers/conditional.ts, none of which is a controller).
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

/** Without an extension: a specifier names "./keys", the file is "./keys.ts". */
const moduleOf = (file: string) => file.replace(/\.(tsx?|[cm]?js)$/, '').replace(/\/index$/, '');

/**
 * Imports from one controller into another. The controllers are the modules a plugin's
 * controllers/index.ts registers; the index itself is not one.
 */
function controllerToControllerImports(edges: ImportEdge[]): string[] {
  const controllers = new Set(
    edges.filter((e) => /\/server\/src\/controllers\/index\.[tj]s$/.test(e.from) && e.resolved?.includes('/server/src/controllers/')).map((e) => moduleOf(e.resolved!)),
  );
  return edges
    .filter((e) => controllers.has(moduleOf(e.from)) && e.resolved !== undefined && controllers.has(moduleOf(e.resolved)) && moduleOf(e.resolved) !== moduleOf(e.from))
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
        // Type-only imports cross too.
        "import type { QuireServices } from '../../../../quire/server/src/services/contract';",
      ].join('\n'),
    );
    expect(crossPluginImports(fake)).toEqual([
      'src/plugins/triggers/server/src/actions/x.ts imports "../../../../quire/server/src/schemas/inputs"',
      'src/plugins/triggers/server/src/actions/x.ts imports "../../../../quire/server/src/services/b"',
      'src/plugins/triggers/server/src/actions/x.ts imports "../../../../quire/strapi-server.js"',
      'src/plugins/triggers/server/src/actions/x.ts imports "@quire/plugin-quire"',
      'src/plugins/triggers/server/src/actions/x.ts imports "../../../../quire/server/src/services/contract"',
    ]);
    expect(plugins.length).toBeGreaterThan(100);
  });

  it('no plugin imports a file of another plugin', () => {
    expect(crossPluginImports(plugins)).toEqual([]);
  });

  it('the kernel imports no plugin', () => {
    const found = importsUnder('src/kernel').filter((e) => e.resolved?.startsWith('src/plugins/')).map(describeEdge);
    expect(found).toEqual([]);
  });

  it('the contracts between the plugins import no plugin: they are types both sides check against', () => {
    const edges = importsUnder('src/contracts');
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.filter((e) => e.resolved?.startsWith('src/plugins/')).map(describeEdge)).toEqual([]);
  });

  it('services and domain code never import controllers', () => {
    const found = plugins
      .filter((e) => /\/server\/src\/(services|domain)\//.test(e.from) && /\/server\/src\/controllers\//.test(e.resolved ?? ''))
      .map(describeEdge);
    expect(found).toEqual([]);
  });

  it('finds controllers importing controllers (the check itself can fail)', () => {
    const dir = 'src/plugins/quire/server/src/controllers';
    const fake = [
      ...importsOf(`${dir}/index.ts`, "import a from './a';\nimport b from './b';\nimport { x } from '../services/x';"),
      ...importsOf(`${dir}/a.ts`, "import { helper } from './b';\nimport { actorOf } from './conditional';\nimport { y } from '../services/y';"),
      ...importsOf(`${dir}/b.ts`, "import type { Z } from './a';"),
    ];
    expect(controllerToControllerImports(fake)).toEqual([`${dir}/a.ts imports "./b"`, `${dir}/b.ts imports "./a"`]);
  });

  it('a controller never imports another controller', () => {
    expect(controllerToControllerImports(plugins)).toEqual([]);
    // The rule sees the registered controllers (else it would pass for want of any).
    expect(plugins.filter((e) => /\/server\/src\/controllers\/index\.ts$/.test(e.from)).length).toBeGreaterThan(10);
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

describe('the kernel names no plugin', () => {
  const fs = require('node:fs');
  const path = require('node:path');
  const { appDir, sourceFiles } = require('../helpers/imports');
  const { settings: quireSettings } = require('../../src/plugins/quire/server/src/config');
  const { settings: triggersSettings } = require('../../src/plugins/triggers/server/src/config');
  const { variablesOf } = require('../../src/kernel/config');

  const plugins: string[] = fs
    .readdirSync(path.join(appDir, 'src/plugins'), { withFileTypes: true })
    .filter((entry: { isDirectory(): boolean }) => entry.isDirectory())
    .map((entry: { name: string }) => entry.name);
  const kernelFiles: string[] = sourceFiles('src/kernel');
  const read = (file: string): string => fs.readFileSync(path.join(appDir, file), 'utf8');
  /** What the kernel declares itself is app-level (REDIS_URL...), even where a plugin's config reads it too. */
  const kernelSettings = new Set<string>(variablesOf(require('../../src/kernel/redis').redisSettings('')));
  const pluginSettings = [...variablesOf(quireSettings), ...variablesOf(triggersSettings)].filter((name: string) => !kernelSettings.has(name));

  /** The prefixes of the credentials and secrets the plugins issue (qk_, cko_...). */
  function credentialPrefixes(): string[] {
    const prefixes = new Set<string>();
    for (const file of sourceFiles('src/plugins') as string[]) {
      for (const m of read(file).matchAll(/\b[A-Z_]*PREFIX\s*=\s*'([a-z]{1,8}_)'/g)) prefixes.add(m[1]);
    }
    return [...prefixes];
  }
  const prefixes = credentialPrefixes();

  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const word = (s: string) => new RegExp(`(?<![A-Za-z0-9_])${escape(s)}(?![A-Za-z0-9])`, 'i');
  const rules: Array<[string, RegExp]> = [
    ...plugins.map((name): [string, RegExp] => [`the plugin "${name}"`, word(name)]),
    ...prefixes.map((prefix): [string, RegExp] => [`the credential prefix "${prefix}"`, new RegExp(`(?<![A-Za-z0-9])${escape(prefix)}`)]),
    ...pluginSettings.map((name: string): [string, RegExp] => [`the setting ${name}`, new RegExp(`\\b${name}\\b`)]),
    // Whatever a plugin may add later under its own name.
    ...plugins.map((name): [string, RegExp] => [`a setting of "${name}"`, new RegExp(`\\b${escape(name.toUpperCase().replace(/S$/, ''))}S?_[A-Z]`)]),
  ];

  function namings(file: string, text: string): string[] {
    const found: string[] = [];
    text.split('\n').forEach((line, i) => {
      for (const [what, pattern] of rules) if (pattern.test(line)) found.push(`${file}:${i + 1} names ${what}: ${line.trim().slice(0, 120)}`);
    });
    return found;
  }

  it('knows what to look for (the check itself can fail)', () => {
    expect(plugins).toEqual(expect.arrayContaining(['quire', 'triggers']));
    expect(prefixes).toEqual(expect.arrayContaining(['qk_', 'cko_', 'ck_']));
    expect(pluginSettings).toEqual(expect.arrayContaining(['QUIRE_REVISIONS_KEEP', 'TRIGGER_RATE_LIMIT', 'UNFURL_RATE_LIMIT']));
    expect(pluginSettings).not.toContain('REDIS_URL');
    const fake = [
      "registerPrefixes(strapi, 'triggers', ['/webhook']);",
      "const name = 'quire_session';",
      'Bearer qk_...',
      "if (token.startsWith('cko_')) {",
      "text('TRIGGER_QUEUE', { default: 'x' })",
      '// QUIRE_NEW_THING',
      '/* read UNFURL_RATE_LIMIT */',
      'const stack_trace = 1; // a trigger fires; QuireBot/1.0', // none of these
    ].join('\n');
    expect([...new Set(namings('fake.ts', fake).map((f) => f.split(' names ')[0]))]).toEqual(['fake.ts:1', 'fake.ts:2', 'fake.ts:3', 'fake.ts:4', 'fake.ts:5', 'fake.ts:6', 'fake.ts:7']);
    expect(kernelFiles.length).toBeGreaterThan(20);
  });

  it('no kernel file names a plugin, one of its credential prefixes or one of its settings', () => {
    expect(kernelFiles.flatMap((file) => namings(file, read(file)))).toEqual([]);
  });
});
