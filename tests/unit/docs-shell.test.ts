/**
 * The shell a reader copies must run as written in an interactive bash: every fenced sh/bash
 * block of README.md and docs/*.md, and every example of `quire <command> --help`, is parsed by
 * `bash -n` and read by a real interactive bash (history expansion on: `"![x]"` fails there with
 * "event not found", which `bash -n` cannot see) inside `if false`, so nothing runs. And the
 * docs and the CLI agree on which commands exist, each with examples in its --help.
 * (tests/cli/docs-recipes.test.ts runs the recipes themselves against a server.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { commandPath } from '../../src/cli/action';
import { buildProgram } from '../../src/cli/program';
import { DOCS, shellBlocks, type ShellBlock } from '../helpers/docs';

const ROOT = path.resolve(__dirname, '..', '..');

/** The commands that run something: those without subcommands, and those with an action of their own besides (`quire changes [article]`). */
function leaves(command: Command): Command[] {
  if (!command.commands.length) return [command];
  const own = command.parent && (command as unknown as { _actionHandler?: unknown })._actionHandler ? [command] : [];
  return [...own, ...command.commands.flatMap(leaves)];
}

function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
}

const examplesIn = (help: string) =>
  (help.split('\nExamples:\n')[1] ?? '')
    .split('\n')
    .filter((line) => line.startsWith('  $ '))
    .map((line) => line.slice(4));

/** What `bash -n` says about a script ('' when it parses). */
const syntaxErrors = (code: string) => spawnSync('bash', ['-n'], { input: code, encoding: 'utf8' }).stderr;

const BASH = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim();
/** Where the interactive bash runs: an empty directory, and no PATH, so nothing can run even if a broken line ends the `if false`. */
const SANDBOX = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-docs-shell-'));
afterAll(() => fs.rmSync(SANDBOX, { recursive: true, force: true }));

/** What an interactive bash says while reading the script (never running it). */
function interactiveErrors(code: string): string[] {
  const result = spawnSync(BASH, ['--norc', '--noprofile', '-i'], {
    input: `if false; then\n${code}\nfi\nexit\n`,
    encoding: 'utf8',
    cwd: SANDBOX,
    env: { PATH: path.join(SANDBOX, 'no-commands-here'), HOME: SANDBOX, HISTFILE: '/dev/null', TERM: 'dumb', PS1: '', PS2: '' },
    timeout: 10_000,
  });
  return result.stderr
    .split('\n')
    .filter((line) => /^bash: /.test(line) && !/job control|terminal process group|Inappropriate ioctl/.test(line));
}

/** `<article>`-style placeholders are redirections to the shell: blocks use variables instead. */
const placeholders = (code: string) =>
  code.split('\n').filter((line) => /(^|\s)<[a-z][\w-]*>(\s|$)/.test(line.replace(/'[^']*'|"[^"]*"|#.*$/g, '')));

const blocks = DOCS.flatMap(shellBlocks);
const program = buildProgram();
const leafCommands = leaves(program);

describe('shell in README.md and docs/*.md', () => {
  it('has blocks to check (README\'s quick start among them)', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.some((b) => b.where.startsWith('README.md') && b.code.includes('quire login'))).toBe(true);
  });

  it.each(blocks.map((b) => [b.where, b]))('%s parses, without interactive pitfalls or placeholders', (_where, block: ShellBlock) => {
    expect({ where: block.where, syntax: syntaxErrors(block.code), interactive: interactiveErrors(block.code), placeholders: placeholders(block.code) }).toEqual({
      where: block.where,
      syntax: '',
      interactive: [],
      placeholders: [],
    });
  });

  it('would catch the pitfalls: history expansion in double quotes, and syntax errors', () => {
    expect(interactiveErrors('echo "![Figure]($URL)" | quire sections add "$ART" -\n')).toContain('bash: ![Figure]: event not found');
    expect(interactiveErrors("printf '![Figure](%s)\\n' \"$URL\"\n")).toEqual([]);
    expect(syntaxErrors('quire outline <article>\n')).toMatch(/syntax error/);
    expect(placeholders('quire sections add <article> part2.md')).toHaveLength(1);
  });
});

describe('the CLI\'s commands and docs/cli.md', () => {
  const documented = new Set<string>();
  for (const line of fs.readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8').split('\n')) {
    const match = /^(?:\| |### )`quire ([^`]+)`/.exec(line);
    if (!match) continue;
    const words: string[] = [];
    for (const word of match[1].split(/\s+/)) {
      if (/^[<[-]/.test(word)) break;
      words.push(word);
    }
    documented.add(words.join(' '));
  }

  it('lists exactly the commands the CLI has', () => {
    expect([...documented].sort()).toEqual(leafCommands.map(commandPath).sort());
  });

  it.each(leafCommands.map((c) => [commandPath(c), c]))('quire %s --help shows examples of itself that run as written', (name, command: Command) => {
    const examples = examplesIn(helpOf(command));
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect([name, example.includes(`quire ${name}`)]).toEqual([name, true]);
      expect({ example, syntax: syntaxErrors(example), interactive: interactiveErrors(example), placeholders: placeholders(example) }).toEqual({
        example,
        syntax: '',
        interactive: [],
        placeholders: [],
      });
    }
  });
});
