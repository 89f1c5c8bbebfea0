'use strict';
/**
 * BENCH_BEFORE=<git ref>: the code of that ref, built beside this checkout, so one run of the
 * bench measures the same scenarios on it and on the code here, under the same load.
 *
 * The ref is checked out in a temporary git worktree (os.tmpdir()/quire-bench-before-<commit>),
 * with this checkout's node_modules symlinked into it (the dependencies of the two must match
 * closely enough to run; a ref whose package.json differs is reported), and compiled there with
 * `npx tsc -p tsconfig.json` (no admin build: the bench's servers run without the admin panel).
 * Its servers run from that folder (tests/helpers/processes.js, `appDir`) with this checkout's
 * tests/helpers/strapi-process.js, so both sides answer the bench's questions alike.
 * BENCH_BEFORE_KEEP=true keeps the worktree and its build for the next run (reused when the
 * commit is the same); otherwise it is removed at the end.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

const git = (args, cwd = ROOT) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * Builds `ref` (see above). Resolves to { ref, commit, label, dir, warnings, remove() }.
 * @param {string} ref
 * @param {(line: string) => void} log
 */
async function prepareBefore(ref, log = console.log) {
  let commit;
  try {
    commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  } catch {
    throw new Error(`BENCH_BEFORE=${ref}: not a commit of this repository (git rev-parse failed)`);
  }
  const short = commit.slice(0, 7);
  const subject = git(['log', '-1', '--format=%s', commit]).slice(0, 70);
  const dir = path.join(os.tmpdir(), `quire-bench-before-${short}`);
  const keep = process.env.BENCH_BEFORE_KEEP === 'true';
  const warnings = [];
  const started = Date.now();
  const built = fs.existsSync(path.join(dir, 'dist', 'src', 'plugins', 'quire', 'server', 'src', 'index.js'));
  if (built && fs.existsSync(path.join(dir, '.git'))) {
    log(`Before: reusing the build of ${short} in ${dir}`);
  } else {
    if (fs.existsSync(dir)) {
      try {
        git(['worktree', 'remove', '--force', dir]);
      } catch {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    git(['worktree', 'prune']);
    log(`Before: checking out ${short} (${subject}) in ${dir}...`);
    git(['worktree', 'add', '--detach', dir, commit]);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    log(`Before: compiling ${short} (npx tsc -p tsconfig.json)...`);
    try {
      execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      throw new Error(`Before: ${short} did not compile: ${String(error.stdout || error.message).slice(0, 2000)}`);
    }
    log(`Before: built in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const deps = (root) => JSON.stringify(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies ?? {});
  if (deps(dir) !== deps(ROOT)) warnings.push(`${short}'s package.json dependencies differ from this checkout's: it runs on this checkout's node_modules`);
  return {
    ref,
    commit,
    label: `before (${short})`,
    dir,
    warnings,
    remove() {
      if (keep) return;
      try {
        git(['worktree', 'remove', '--force', dir]);
      } catch {
        fs.rmSync(dir, { recursive: true, force: true });
        try {
          git(['worktree', 'prune']);
        } catch {
          // nothing registered
        }
      }
    },
  };
}

/** The code here, as the "after" side. */
function current() {
  let short = 'working tree';
  try {
    short = git(['rev-parse', '--short', 'HEAD']) + (git(['status', '--porcelain', '--untracked-files=no']) ? '+changes' : '');
  } catch {
    // not a git checkout
  }
  return { label: `after (${short})`, dir: ROOT, remove() {} };
}

module.exports = { prepareBefore, current };
