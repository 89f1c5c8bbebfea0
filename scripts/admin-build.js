#!/usr/bin/env node
'use strict';
/**
 * The admin panel's build (dist/build, made by `strapi build`) is slow (about 40 s here), so it
 * is made once and reused while its inputs are unchanged:
 *
 *   node scripts/admin-build.js stamp    records the inputs' fingerprint next to a fresh build
 *                                        (npm run build does it after strapi build)
 *   node scripts/admin-build.js ensure   builds only when dist/build is missing or was built
 *                                        from other inputs (the browser tests' global setup)
 *
 * The inputs: the admin code of our plugins and of the app, the plugins' package.json (their
 * admin entries), the config files the build reads, and the installed dependencies (lockfile).
 */
const { createHash } = require('crypto');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const buildDir = path.join(root, 'dist', 'build');
const stampFile = path.join(buildDir, '.quire-admin-inputs');

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function inputs() {
  const plugins = fs.readdirSync(path.join(root, 'src', 'plugins'));
  return [
    // shared/ holds code both the server and the panel bundle (the TipTap schema, the word diff).
    ...plugins.flatMap((name) => [
      ...filesUnder(path.join(root, 'src', 'plugins', name, 'admin')),
      ...filesUnder(path.join(root, 'src', 'plugins', name, 'shared')),
      path.join(root, 'src', 'plugins', name, 'package.json'),
    ]),
    ...filesUnder(path.join(root, 'src', 'kernel', 'admin-ui')),
    ...filesUnder(path.join(root, 'src', 'admin')),
    ...['config/plugins.ts', 'config/admin.ts', 'config/server.ts', 'package.json', 'package-lock.json'].map((file) => path.join(root, file)),
  ]
    .filter((file) => fs.existsSync(file))
    .sort();
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const file of inputs()) {
    hash.update(path.relative(root, file).split(path.sep).join('/'));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const isFresh = () =>
  fs.existsSync(path.join(buildDir, 'index.html')) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8').trim() === fingerprint();

function stamp() {
  if (!fs.existsSync(path.join(buildDir, 'index.html'))) {
    console.error('admin-build: dist/build/index.html is missing; run "npm run build" first.');
    process.exit(1);
  }
  fs.writeFileSync(stampFile, `${fingerprint()}\n`);
}

function ensure() {
  if (isFresh()) {
    console.log('admin-build: dist/build is up to date, reusing it.');
    return;
  }
  const reason = fs.existsSync(path.join(buildDir, 'index.html')) ? 'its inputs changed' : 'it is missing';
  console.log(`admin-build: building the admin panel (${reason})...`);
  const started = Date.now();
  const strapi = path.join(root, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js');
  // As `npm run build` runs it: Jest's NODE_ENV=test is not the build's business.
  const env = { ...process.env };
  delete env.NODE_ENV;
  const run = spawnSync(process.execPath, [strapi, 'build'], { cwd: root, stdio: 'inherit', env });
  if (run.status !== 0) {
    console.error(`admin-build: strapi build failed (exit ${run.status}).`);
    process.exit(run.status || 1);
  }
  stamp();
  console.log(`admin-build: built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

const command = process.argv[2];
if (command === 'stamp') stamp();
else if (command === 'ensure') ensure();
else {
  console.error('usage: node scripts/admin-build.js stamp|ensure');
  process.exit(2);
}
