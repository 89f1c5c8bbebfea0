#!/usr/bin/env node
'use strict';
// Strapi skips a local plugin whose compiled entry is missing without an error; make the
// build fail instead when the compile did not produce our plugins' server code.
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const required = [
  'dist/config/server.js',
  'dist/src/index.js',
  'dist/src/plugins/quire/server/src/index.js',
  'dist/src/plugins/quire/shared/editor-extensions.js',
  'dist/src/plugins/triggers/server/src/index.js',
];
const missing = required.filter((file) => !fs.existsSync(path.join(root, file)));
if (missing.length) {
  console.error(`check-build: missing compiled files: ${missing.join(', ')}`);
  process.exit(1);
}
