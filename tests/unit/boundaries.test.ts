/**
 * The house rules about who imports whom (docs/architecture.md, "Rules of the house"):
 * - a plugin never imports another plugin's files, not even for types: shared code is in
 *   src/kernel, and the triggers plugin reaches articles through strapi.plugin('quire').service(...),
 *   typed by the contract in src/contracts/plugin-services.ts;
 * - the kernel and the plugins' contracts (src/contracts) import no plugin;
 * - services and domain code never import controllers;
 * - a controller never imports another controller (what two share is a service, domain code,
 *   a page helper or controllers/conditional.ts, none of which is a controller);
 * - route declarations never import mcp/ (MCP is a door onto the routes, not a part of them),
 *   services never import live/ (the live canvas subscribes to the services' events), and
 *   controllers never import repositories/ (they call services);
 * - there is no import cycle in the server code, type-only imports included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { appDir, importsOf, importsUnder, pluginOf, type ImportEdge } from '../helpers/imports';

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

  it('a plugin names the kernel by its alias (#kernel/...), never by a relative path', () => {
    // Its strapi-server.js is the exception: Strapi requires it from src/ before anything is compiled.
    const found = plugins.filter((e) => !e.from.endsWith('/strapi-server.js') && e.specifier.startsWith('.') && e.resolved?.startsWith('src/kernel/')).map(describeEdge);
    expect(found).toEqual([]);
    expect(plugins.filter((e) => e.specifier.startsWith('#kernel/') && e.resolved?.startsWith('src/kernel/')).length).toBeGreaterThan(200);
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

/**
 * The layers inside a plugin, and what its admin code may take from its server (issue 21 point 7):
 * - domain code is the bottom layer: it imports no schema, service, repository, controller or
 *   route (the shapes it computes are its own; schemas/ checks at compile time that it agrees);
 * - admin code (the browser's bundle) takes from the server only types, and only from schemas/:
 *   never a service's or repository's file, not even for a type;
 * - admin pages call their plugin's API modules (admin/src/api/<resource>.ts), never the fetch
 *   client themselves, and take their words and toasts from their plugin's messages.ts.
 */
describe('layers and the admin code', () => {
  const fs = require('node:fs');
  const path = require('node:path');
  const ts = require('typescript');
  const { appDir, sourceFiles } = require('../helpers/imports');


  interface ServerImport {
    from: string;
    specifier: string;
    resolved: string;
    typeOnly: boolean;
  }

  /** The imports and re-exports of a file that resolve into a plugin's server/, and whether each is type-only. */
  function serverImportsOf(file: string, text: string): ServerImport[] {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const found: ServerImport[] = [];
    const add = (specifier: string, typeOnly: boolean) => {
      if (!specifier.startsWith('.')) return;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (/^src\/plugins\/[^/]+\/server\//.test(resolved)) found.push({ from: file, specifier, resolved, typeOnly });
    };
    const visit = (node: any) => {
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
        const typeOnly = Boolean(clause && (clause.isTypeOnly || (!clause.name && named.length > 0 && named.every((e: any) => e.isTypeOnly))));
        add(node.moduleSpecifier.text, typeOnly);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : [];
        add(node.moduleSpecifier.text, node.isTypeOnly || (named.length > 0 && named.every((e: any) => e.isTypeOnly)));
      } else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        const callee = node.expression;
        if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) add(node.arguments[0].text, false);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  }

  /** Admin-code calls of the fetch client or of `fetch` itself (code, not text in a string). */
  function fetchCallsOf(file: string, text: string): string[] {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const found = new Set<string>();
    const visit = (node: any) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ['useFetchClient', 'getFetchClient', 'fetch'].includes(node.expression.text)) {
        found.add(`${file} calls ${node.expression.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return [...found];
  }

  /** Functions a file declares under the names of the message helpers (`m`, `useMessages`). */
  function messageHelpersOf(file: string, text: string): string[] {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const found = new Set<string>();
    const visit = (node: any) => {
      const named = (name: any) => ts.isIdentifier(name) && ['m', 'useMessages'].includes(name.text);
      if (ts.isVariableDeclaration(node) && named(node.name) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
        found.add(`${file} defines ${node.name.text}`);
      } else if (ts.isFunctionDeclaration(node) && node.name && named(node.name)) found.add(`${file} defines ${node.name.text}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
    return [...found];
  }

  const read = (file: string): string => fs.readFileSync(path.join(appDir, file), 'utf8');
  const describeImport = (i: ServerImport) => `${i.from} imports "${i.specifier}"`;
  const adminFiles: string[] = sourceFiles('src/plugins').filter((file: string) => /^src\/plugins\/[^/]+\/admin\/src\//.test(file));
  const adminServerImports = adminFiles.flatMap((file) => serverImportsOf(file, read(file)));


  it('finds what it checks (the checks themselves can fail)', () => {
    const file = 'src/plugins/x/admin/src/pages/P.tsx';
    const fake = serverImportsOf(
      file,
      [
        "import type { A } from '../../../server/src/schemas/admin';",
        "import { type B, type C } from '../../../server/src/schemas/records';",
        "import { D } from '../../../server/src/schemas/inputs';",
        "import type { E } from '../../../server/src/services/admin-articles';",
        "export type { F } from '../../../server/src/repositories/admin';",
        "import { g } from '../../../server/src/domain/word-diff';",
        "import { h } from '../../../shared/editor-extensions';",
        "import { i } from '../api/articles';",
      ].join('\n'),
    );
    expect(fake.map((i) => [i.specifier, i.typeOnly])).toEqual([
      ['../../../server/src/schemas/admin', true],
      ['../../../server/src/schemas/records', true],
      ['../../../server/src/schemas/inputs', false],
      ['../../../server/src/services/admin-articles', true],
      ['../../../server/src/repositories/admin', true],
      ['../../../server/src/domain/word-diff', false],
    ]);
    expect(fetchCallsOf(file, "const { get } = useFetchClient();\nconst s = `await fetch(url)`;\nawait fetch('/x');")).toEqual([`${file} calls useFetchClient`, `${file} calls fetch`]);
    expect(messageHelpersOf(file, "const m = (id: string) => formatMessage({ id });\nfunction useMessages() {}\nconst { m: other } = useMessages();")).toEqual([
      `${file} defines m`,
      `${file} defines useMessages`,
    ]);
    expect(adminFiles.length).toBeGreaterThan(40);
    expect(adminServerImports.filter((i) => i.typeOnly && /\/server\/src\/schemas\//.test(i.resolved)).length).toBeGreaterThan(5);
  });

  it('domain code imports no schema, service, repository, controller or route', () => {
    const found = importsUnder('src/plugins')
      .filter((e) => /\/server\/src\/domain\//.test(e.from) && /\/server\/src\/(schemas|services|repositories|controllers|routes)\//.test(e.resolved ?? ''))
      .map(describeEdge);
    expect(found).toEqual([]);
  });

  it('admin code imports no server service or repository, not even a type', () => {
    const found = adminServerImports.filter((i) => /\/server\/src\/(services|repositories)\//.test(i.resolved)).map(describeImport);
    expect(found).toEqual([]);
  });

  it('admin code takes from the server only types, and only from its schemas', () => {
    const found = adminServerImports.filter((i) => !(i.typeOnly && /\/server\/src\/schemas\//.test(i.resolved))).map(describeImport);
    expect(found).toEqual([]);
  });

  it('admin pages call their API modules (admin/src/api/), never the fetch client themselves', () => {
    const found = adminFiles.filter((file) => !/\/admin\/src\/api\//.test(file)).flatMap((file) => fetchCallsOf(file, read(file)));
    expect(found).toEqual([]);
  });

  it('admin pages take their words and toasts from their plugin\'s messages.ts (the kernel\'s useMessages), not helpers of their own', () => {
    const found = adminFiles.filter((file) => !/\/admin\/src\/messages\.ts$/.test(file)).flatMap((file) => messageHelpersOf(file, read(file)));
    expect(found).toEqual([]);
  });
});

/** Edges from files under `from` (a plugin's server/src folder) into files under `to`. */
function layerImports(edges: ImportEdge[], from: string, to: string, allowed: readonly string[] = []): string[] {
  const inside = (file: string | undefined, folder: string) => new RegExp(`/server/src/${folder}(/|$)`).test(file ?? '');
  return edges.filter((e) => inside(e.from, from) && inside(e.resolved, to) && !allowed.includes(e.from)).map(describeEdge);
}

/**
 * The services that reach live/: services/live.ts starts the live channel (live/server.ts), and
 * services/live-state.ts keeps an open article's stored Yjs state in every write's transaction
 * with the live document's model (live/article-doc.ts, live/content.ts). No other service may.
 */
const SERVICES_INTO_LIVE = ['src/plugins/quire/server/src/services/live.ts', 'src/plugins/quire/server/src/services/live-state.ts'];

/** The file a resolved specifier names ("./keys" is "./keys.ts", "./routes" is "./routes/index.ts"), or undefined (a package, JSON...). */
function fileOf(resolved: string, exists: (file: string) => boolean): string | undefined {
  return ['', '.ts', '.tsx', '.js', '/index.ts', '/index.js'].map((ext) => resolved + ext).find(exists);
}

/** The import cycles among `edges` (each a list of files, from the strongly connected components of the graph). */
function importCycles(edges: ImportEdge[], exists: (file: string) => boolean): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    const target = e.resolved && fileOf(e.resolved, exists);
    if (!target) continue;
    if (!graph.has(e.from)) graph.set(e.from, new Set());
    graph.get(e.from)!.add(target);
  }
  // Tarjan's strongly connected components: a component of more than one file (or a file importing itself) is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.has(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('layers: routes, services, controllers, and cycles', () => {
  const server = [...importsUnder('src/kernel'), ...importsUnder('src/contracts'), ...importsUnder('src/plugins').filter((e) => /\/server\//.test(e.from))];
  const onDisk = (file: string) => fs.existsSync(path.join(appDir, file)) && fs.statSync(path.join(appDir, file)).isFile();
  const Q = 'src/plugins/quire/server/src';

  it('finds what it checks (the checks themselves can fail)', () => {
    const fake = [
      ...importsOf(`${Q}/routes/mcp.ts`, "import { toolActions } from '../mcp/catalog';\nimport { x } from '../domain/mcp-limits';"),
      ...importsOf(`${Q}/services/notes.ts`, "import type { LiveChannel } from '../live/channel';\nimport { y } from '../repositories/notes';"),
      ...importsOf(`${Q}/services/live.ts`, "import { startLiveChannel } from '../live/channel';"),
      ...importsOf(`${Q}/controllers/presence.ts`, "import { articleUuid } from '../repositories/store';\nimport { getService } from '../services/get-service';"),
    ];
    expect(layerImports(fake, 'routes', 'mcp')).toEqual([`${Q}/routes/mcp.ts imports "../mcp/catalog"`]);
    expect(layerImports(fake, 'services', 'live', SERVICES_INTO_LIVE)).toEqual([`${Q}/services/notes.ts imports "../live/channel"`]);
    expect(layerImports(fake, 'services', 'live')).toHaveLength(2);
    expect(layerImports(fake, 'controllers', 'repositories')).toEqual([`${Q}/controllers/presence.ts imports "../repositories/store"`]);

    // a -> b -> c -> a is one cycle (a type-only import counts), d -> a is not in it, e imports itself.
    const files = new Set(['x/a.ts', 'x/b/index.ts', 'x/c.ts', 'x/d.ts', 'x/e.ts']);
    const cyclic = [
      ...importsOf('x/a.ts', "import { b } from './b';"),
      ...importsOf('x/b/index.ts', "import type { C } from '../c';"),
      ...importsOf('x/c.ts', "export { a } from './a';\nimport z from 'zod';"),
      ...importsOf('x/d.ts', "import { a } from './a';"),
      ...importsOf('x/e.ts', "import { e } from './e';"),
    ];
    expect(importCycles(cyclic, (file) => files.has(file)).sort()).toEqual([['x/a.ts', 'x/b/index.ts', 'x/c.ts'], ['x/e.ts']]);
    expect(server.length).toBeGreaterThan(300);
  });

  it('route declarations never import mcp/', () => {
    expect(layerImports(server, 'routes', 'mcp')).toEqual([]);
  });

  it('services never import live/ (but services/live.ts and services/live-state.ts, named above)', () => {
    expect(layerImports(server, 'services', 'live', SERVICES_INTO_LIVE)).toEqual([]);
  });

  it('controllers never import repositories/', () => {
    expect(layerImports(server, 'controllers', 'repositories')).toEqual([]);
  });

  /**
   * The one loop allowed: a plugin's typed service map (services/get-service.ts) is the type of
   * its services/index.ts, and services reach one another through it (as Strapi's
   * content-manager types its getService). It is type-only, so nothing loads in a circle.
   */
  const serviceMapImport = (e: ImportEdge) => /\/server\/src\/services\/get-service\.ts$/.test(e.from) && /^\.(\/index)?$/.test(e.specifier);

  it('a service map imports its services for their types only', () => {
    const maps = server.filter(serviceMapImport);
    expect(maps.map((e) => e.from).sort()).toEqual(['src/plugins/quire/server/src/services/get-service.ts', 'src/plugins/triggers/server/src/services/get-service.ts']);
    for (const { from } of maps) expect(fs.readFileSync(path.join(appDir, from), 'utf8')).toMatch(/^import type services from '\.';$/m);
  });

  it('the server code has no import cycle', () => {
    expect(importCycles(server.filter((e) => !serviceMapImport(e)), onDisk)).toEqual([]);
  });
});

/**
 * Services are looked up typed (issue 33 point 3): a plugin's own through its services/get-service.ts,
 * the other plugin's through the contract (quire's triggers.ts, triggers' quire.ts), live/ included.
 */
describe('typed service lookups', () => {
  const { sourceFiles } = require('../helpers/imports');
  const LOOKUP = /\.plugin\(\s*'(quire|triggers)'\s*\)\s*\.service\(|\bplugin\(\)\s*\.service\(/g;
  const TYPED_HOMES = [
    'src/plugins/quire/server/src/services/get-service.ts',
    'src/plugins/triggers/server/src/services/get-service.ts',
    'src/plugins/quire/server/src/triggers.ts',
    'src/plugins/triggers/server/src/quire.ts',
  ];
  /** Where the code (comments blanked, line breaks kept) looks a service up untyped, as file:line; a lookup may span lines. */
  const untyped = (file: string, text: string) => {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');
    return [...code.matchAll(LOOKUP)].map((m) => `${file}:${code.slice(0, m.index).split('\n').length}`);
  };

  it('finds an untyped lookup (the check itself can fail)', () => {
    const fake = [
      "const a = strapi.plugin('quire').service('articles');",
      "const b = plugin().service('vault');",
      "// strapi.plugin('quire').service('x')",
      "const c = getService(strapi, 'articles');",
      'await strapi',
      "  .plugin('quire')",
      "  .service('rateLimit');",
    ].join('\n');
    expect(untyped('x.ts', fake)).toEqual(['x.ts:1', 'x.ts:2', 'x.ts:6']);
  });

  it('no file looks a service up untyped, but the typed lookups themselves', () => {
    const files: string[] = sourceFiles('src/plugins').filter((f: string) => /\/server\/src\//.test(f) && !TYPED_HOMES.includes(f));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => untyped(file, fs.readFileSync(path.join(appDir, file), 'utf8')))).toEqual([]);
  });
});
