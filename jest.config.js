// ESM-only packages (the unified collective and friends) are turned into CommonJS for Jest,
// whose module system cannot require(esm) on Node 20.
const esmPackages = [
  'unified', 'bail', 'is-plain-obj', 'trough', 'vfile', 'vfile-.*', 'unist-.*', 'remark-.*', 'rehype-.*',
  'mdast-.*', 'hast-.*', 'hastscript', 'micromark', 'micromark-.*', 'decode-named-character-reference',
  'character-entities.*', 'ccount', 'escape-string-regexp', 'markdown-table', 'longest-streak', 'zwitch',
  'property-information', 'space-separated-tokens', 'comma-separated-tokens', 'html-void-elements',
  'html-url-attributes', 'stringify-entities', 'trim-lines', 'devlop', 'web-namespaces', 'parse5', 'entities',
  'fractional-indexing', 'file-type', 'strtok3', 'token-types', 'peek-readable', 'uint8array-extras', '@tokenizer/.*',
  '@borewit/.*', 'standardwebhooks', 'svix', '@stablelib/.*', 'direction', 'bcp-47-match', 'nth-check', 'css-selector-parser',
  'not', 'github-slugger', 'hast-util-.*', 'markdown-extensions', 'estree-util-.*', 'is-.*-character', 'is-alphabetical',
  'is-alphanumerical', 'is-decimal', 'is-hexadecimal', 'character-reference-invalid', 'parse-entities', 'unist-util-.*',
];

const common = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`, '<rootDir>/dist/'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/build/', '<rootDir>/.tmp/'],
  resolver: '<rootDir>/tests/helpers/jest-resolver.js',
};

/**
 * Three projects, run in this order by `npm test` (package.json):
 * - `unit` (tests/unit): domain code, repositories on in-memory SQLite, the house rules; no
 *   Strapi boot, under a minute. It runs before the app is even compiled.
 * - `api` (tests/api, tests/cli): booting the compiled app in-process and speaking HTTP, or the
 *   CLI as a subprocess; CI runs them on SQLite and again on PostgreSQL.
 * - `browser` (tests/e2e, in Chromium; CI runs them once, on SQLite). Its global setup builds
 *   the admin panel only when dist/build is missing or stale, and starts the one Chromium that
 *   every browser test connects to (tests/e2e/README.md).
 * `npx jest --selectProjects unit` runs the fast tier alone (a test path goes after `--`).
 */
module.exports = {
  projects: [
    { ...common, displayName: 'unit', roots: ['<rootDir>/tests/unit'], testMatch: ['**/*.test.ts'] },
    {
      ...common,
      displayName: 'api',
      roots: ['<rootDir>/tests'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/tests/e2e/', '<rootDir>/tests/unit/'],
    },
    {
      ...common,
      displayName: 'browser',
      roots: ['<rootDir>/tests/e2e'],
      testMatch: ['**/*.test.ts'],
      globalSetup: '<rootDir>/tests/e2e/global-setup.ts',
      globalTeardown: '<rootDir>/tests/e2e/global-teardown.ts',
    },
  ],
  // Booting Strapi in a beforeAll takes 10-20 s alone, several times that when both workers boot at once on a busy machine.
  testTimeout: 120_000,
  maxWorkers: 2,
};
