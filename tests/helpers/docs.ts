/** The documentation's fenced shell blocks, for tests that check or run them. */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** README.md and every docs/*.md, as paths relative to the repository. */
export const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

export interface ShellBlock {
  where: string;
  code: string;
}

/** Fenced blocks marked sh, bash or shell (indented ones too, as in list items). */
export function shellBlocks(file: string): ShellBlock[] {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)```(sh|bash|shell)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j += 1) body.push(lines[j].slice(Math.min(indent, lines[j].search(/\S|$/))));
    blocks.push({ where: `${file}:${i + 1}`, code: body.join('\n') + '\n' });
    i = j;
  }
  return blocks;
}

