#!/usr/bin/env node
'use strict';
// `npm start`: what `strapi start` does for the built app (dist/), except that a configuration
// error ends the boot with its one line (PORT="http" is not valid: expected ...), not the stack
// trace that `strapi start` prints around errors thrown while it reads config/*.ts.
// A served deployment runs as production unless told otherwise (docs/operations.md, Starting):
// Strapi then prints "Environment production", keeps the Content-Type Builder read-only and marks
// the admin's refresh cookie Secure on HTTPS requests. `npm run develop` stays development.
process.env.NODE_ENV = process.env.NODE_ENV || 'production';
const path = require('path');
const { createStrapi } = require('@strapi/strapi');

const appDir = path.join(__dirname, '..');
// Strapi wraps errors of config files: "Could not load js config file <file>: <our line>".
const CONFIG_FILE_ERROR = /^Could not load js config file [^:]+: (.+)$/;

let app;
try {
  app = createStrapi({ appDir, distDir: path.join(appDir, 'dist') });
} catch (error) {
  const line = error instanceof Error ? CONFIG_FILE_ERROR.exec(error.message)?.[1] : undefined;
  console.error(line && !line.includes('\n') ? line : error);
  process.exit(1);
}
// Errors after this point (plugins' configuration included) are logged by Strapi in one line.
app.start();
