/**
 * scripts/check-clean-tree.sh, which CI runs right after `npm install` on a fresh clone: it
 * passes on an untouched clone and fails, naming the file, when the install rewrote one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'check-clean-tree.sh');

it('passes on a clean tree (ignored files included) and fails when a tracked or new file appears', () => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-clean-tree-'));
  try {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], { cwd: repo });
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'package-lock.json'), '{"lockfileVersion":3}\n');
    fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules\ndist/\n');
    git('add', '.');
    git('commit', '-qm', 'init');
    const check = () => spawnSync('bash', [SCRIPT, 'ci: after npm install'], { cwd: repo, encoding: 'utf8' });

    fs.mkdirSync(path.join(repo, 'node_modules'));
    fs.mkdirSync(path.join(repo, 'dist'));
    fs.writeFileSync(path.join(repo, 'dist', 'x.js'), '');
    expect(check().status).toBe(0);

    fs.writeFileSync(path.join(repo, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
    const rewritten = check();
    expect(rewritten.status).toBe(1);
    expect(rewritten.stderr).toContain('ci: after npm install: the working tree changed');
    expect(rewritten.stderr).toContain(' M package-lock.json');

    git('checkout', '--', 'package-lock.json');
    fs.writeFileSync(path.join(repo, 'npm-shrinkwrap.json'), '{}');
    expect(check().stderr).toContain('?? npm-shrinkwrap.json');
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
});
