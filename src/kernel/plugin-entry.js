'use strict';
// The `strapi-server.js` of our local plugins, in one place: each plugin's entry file is
// `module.exports = require('../../kernel/plugin-entry')('<name>');`.
//
// Plain JavaScript, because Strapi requires it before anything is compiled. The plugins'
// TypeScript is compiled by the app's build (npm run build / npm run compile) into dist/.
// Strapi skips a plugin whose entry file is missing without a word, so this entry always
// exists and fails loudly when the compiled server code does not.
const path = require('path');

module.exports = function pluginEntry(name) {
  const compiled = path.join(__dirname, '..', '..', 'dist', 'src', 'plugins', name, 'server', 'src', 'index.js');
  let server;
  try {
    server = require(compiled);
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(compiled)) {
      throw new Error(`The ${name} plugin is not compiled (${compiled} is missing). Run "npm run build" first.`);
    }
    throw error;
  }
  return server.default || server;
};
