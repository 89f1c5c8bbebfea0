#!/usr/bin/env node
'use strict';
// The quire command-line client. Its TypeScript (src/cli) is compiled by the app's build
// (npm run compile or npm run build) into dist/src/cli.
const path = require('path');

const entry = path.join(__dirname, '..', 'dist', 'src', 'cli', 'index.js');
let cli;
try {
  cli = require(entry);
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(entry)) {
    process.stderr.write('quire is not built yet: run "npm run compile" (or "npm run build") in the Quire directory.\n');
    process.exit(1);
  }
  throw error;
}
cli.main(process.argv).then((code) => {
  process.exitCode = code;
});
