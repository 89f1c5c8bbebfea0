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
/**
 * Suites whose subject does not change with the database: the CLI (a subprocess; the server's
 * SQL under it is what tests/api covers), boot-time configuration checked on a SQLite file of its
 * own whatever DATABASE_URL says, the event-loop guards for hostile input, the worker pool's
 * limits, the rate limits (memory and Redis), and S3 storage. CI runs the `api` project twice,
 * on SQLite and then on PostgreSQL; the second pass (TEST_PASS=postgres in .ci/run) leaves these
 * out, since they already ran once: the brief's "slow suites once" (about 6 of CI's minutes).
 */
const DATABASE_INDEPENDENT = [
  '<rootDir>/tests/cli/',
  '<rootDir>/tests/api/config-boot.test.ts',
  '<rootDir>/tests/api/start-production.test.ts',
  '<rootDir>/tests/api/event-loop.test.ts',
  '<rootDir>/tests/api/edits-event-loop.test.ts',
  '<rootDir>/tests/api/worker-limits.test.ts',
  '<rootDir>/tests/api/unfurl-rate-limit.test.ts',
  '<rootDir>/tests/api/unfurl-rate-limit-redis.test.ts',
  '<rootDir>/tests/api/auth-rate-limit.test.ts',
  '<rootDir>/tests/api/auth-rate-limit-redis.test.ts',
  '<rootDir>/tests/api/upload-s3.test.ts',
];
const secondPass = process.env.TEST_PASS === 'postgres';

module.exports = {
  projects: [
    { ...common, displayName: 'unit', roots: ['<rootDir>/tests/unit'], testMatch: ['**/*.test.ts'] },
    {
      ...common,
      displayName: 'api',
      roots: ['<rootDir>/tests'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/tests/e2e/', '<rootDir>/tests/unit/', ...(secondPass ? DATABASE_INDEPENDENT : [])],
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
