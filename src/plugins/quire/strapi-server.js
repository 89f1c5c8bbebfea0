'use strict';
// The plugin's entry for Strapi: see src/kernel/plugin-entry.js.
module.exports = require('../../kernel/plugin-entry')('quire');
