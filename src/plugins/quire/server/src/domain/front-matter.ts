import { parse as parseYaml } from 'yaml';
import { invalidArgument } from './errors';

/** `---` on the first line, YAML, then `---` (or `...`) on a line of its own. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Splits YAML front matter off a Markdown document. Only YAML is read (a `---js` block is
 * plain text here, never code); anything but a mapping is refused with 400.
 */
export function splitFrontMatter(source: string): { data: Record<string, unknown>; body: string } {
  const match = FRONT_MATTER.exec(source);
  if (!match) return { data: {}, body: source };
  let data: unknown;
  try {
    data = parseYaml(match[1], { maxAliasCount: 50 }) ?? {};
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    throw invalidArgument(`The front matter is not valid YAML: ${reason}`, 'Fix the YAML between the --- lines, or remove it.');
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw invalidArgument('The front matter must be a YAML mapping (title, premise, notes).', 'Write the front matter as "key: value" lines, or remove it.');
  }
  return { data: data as Record<string, unknown>, body: source.slice(match[0].length) };
}
