#!/usr/bin/env node
'use strict';
/**
 * Reads the CPU profile of a `BENCH_PROFILE=<dir> npm run bench` run, one scenario at a time:
 * `node bench/profile.js <dir> [scenario regexp] [rows]`. For each scenario's time window
 * (windows.json, written by bench/run.js) it prints the server's busy share, the top frames by
 * self time and by inclusive time, and the self time per package (a node_modules package, or our
 * own src/ file), so a cost can be told from where it is spent.
 */
const fs = require('node:fs');
const path = require('node:path');

const [dir, filter, rowsArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/profile.js <BENCH_PROFILE dir> [scenario regexp] [rows]');
  process.exit(2);
}
const rows = Number(rowsArg || 25);
const file = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => path.join(dir, f))
  // The main thread's: the largest (worker threads write theirs beside it).
  .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
if (!file) throw new Error(`no .cpuprofile in ${dir}: did the server stop cleanly?`);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const windows = JSON.parse(fs.readFileSync(path.join(dir, 'windows.json'), 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const shortUrl = (url) => url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'nm:').replace(/^.*\/dist\//, '');
const frameName = (n) => {
  const f = n.callFrame;
  if (!f.url) return `(${f.functionName || 'anonymous'})`;
  return `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
};
const packageOf = (n) => {
  const url = n.callFrame.url;
  if (!url) return n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (url.startsWith('node:')) return 'node:';
  return shortUrl(url);
};

// Each sample's time: the profile's start plus the deltas so far.
const times = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));

const top = (map, total) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([k, v]) => `  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
    .join('\n');

const re = filter ? new RegExp(filter, 'i') : null;
for (const w of windows) {
  if (re && !re.test(w.name)) continue;
  const self = new Map();
  const inclusive = new Map();
  const packages = new Map();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    if (times[i] < w.from || times[i] > w.to) continue;
    const leaf = byId.get(profile.samples[i]);
    total += 1;
    if (leaf.callFrame.functionName === '(idle)') {
      idle += 1;
      continue;
    }
    const name = frameName(leaf);
    self.set(name, (self.get(name) ?? 0) + 1);
    const pkg = packageOf(leaf);
    packages.set(pkg, (packages.get(pkg) ?? 0) + 1);
    const seen = new Set();
    for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
      const n = frameName(byId.get(id));
      if (seen.has(n)) continue;
      seen.add(n);
      inclusive.set(n, (inclusive.get(n) ?? 0) + 1);
    }
  }
  const busy = total - idle;
  console.log(`\n=== ${w.name}: ${total} samples, busy ${((100 * busy) / Math.max(total, 1)).toFixed(0)} % (shares below: of busy samples)`);
  console.log('self time, by package or file:');
  console.log(top(packages, busy));
  console.log('self time, by frame:');
  console.log(top(self, busy));
  console.log('inclusive time, by frame:');
  console.log(top(inclusive, busy));
}
