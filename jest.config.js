// ESM-only packages (the unified collective and friends) are turned into CommonJS for Jest,
// whose module system cannot require(esm) on Node 20.
const esmPackages = [
  'unified', 'bail', 'is-plain-obj', 'trough', 'vfile', 'vfile-.*', 'unist-.*', 'remark-.*', 'rehype-.*',
  'mdast-.*', 'hast-.*', 'hastscript', 'micromark', 'micromark-.*', 'decode-named-character-reference',
  'character-entities.*', 'ccount', 'escape-string-regexp', 'markdown-table', 'longest-streak', 'zwitch',
  'property-information', 'space-separated-tokens', 'comma-separated-tokens', 'html-void-elements',
  'html-url-attributes', 'stringify-entities', 'trim-lines', 'devlop', 'web-namespaces', 'parse5', 'entities',
  'fractional-indexing', 'file-type', 'strtok3', 'token-types', 'peek-readable', 'uint8array-extras', '@tokenizer/.*',
  '@borewit/.*', 'standardwebhooks', '@stablelib/.*', 'direction', 'bcp-47-match', 'nth-check', 'css-selector-parser',
  'not', 'github-slugger', 'hast-util-.*', 'markdown-extensions', 'estree-util-.*', 'is-.*-character', 'is-alphabetical',
  'is-alphanumerical', 'is-decimal', 'is-hexadecimal', 'character-reference-invalid', 'parse-entities', 'unist-util-.*',
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`, '<rootDir>/dist/'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/build/', '<rootDir>/.tmp/'],
  testTimeout: 60_000,
  maxWorkers: 2,
};
