'use strict';
// The plugin's TypeScript is compiled by the app's build (npm run build / npm run compile)
// into dist/. Strapi skips a plugin whose entry file is missing without a word, so this
// entry always exists and fails loudly when the compiled server code does not.
const path = require('path');

const compiled = path.join(__dirname, '..', '..', '..', 'dist', 'src', 'plugins', 'triggers', 'server', 'src', 'index.js');
let server;
try {
  server = require(compiled);
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(compiled)) {
    throw new Error(`The triggers plugin is not compiled (${compiled} is missing). Run "npm run build" first.`);
  }
  throw error;
}
module.exports = server.default || server;
