import { isMap, isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { invalidArgument } from '#kernel/errors';

/** `---` on the first line, YAML, then `---` (or `...`) on a line of its own. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

const YAML_OPTIONS = { maxAliasCount: 50 };

/**
 * Offset of the first key that repeats an earlier key of its mapping (scalar keys with equal
 * values, as the yaml package compares them), or -1. The package's own check compares each key
 * with every earlier one (30,000 keys took 12 s); a set per mapping makes it linear.
 */
function firstDuplicateKey(doc: Document): number {
  let first = -1;
  visit(doc, {
    Map(_, map) {
      if (!isMap(map)) return;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = pair.key;
        if (!isScalar(key) || (typeof key.value === 'number' && Number.isNaN(key.value))) continue;
        if (seen.has(key.value)) {
          const at = key.range?.[0] ?? -1;
          if (at >= 0 && (first < 0 || at < first)) first = at;
        } else {
          seen.add(key.value);
        }
      }
    },
  });
  return first;
}

/** The YAML's value, throwing the first error as `yaml`'s parse() does (its message for duplicate keys included). */
function parseYamlLinear(source: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { ...YAML_OPTIONS, uniqueKeys: false, lineCounter });
  const duplicate = firstDuplicateKey(doc);
  const error = doc.errors[0];
  if (duplicate >= 0 && (!error || duplicate < error.pos[0])) {
    const { line, col } = lineCounter.linePos(duplicate);
    throw new Error(`Map keys must be unique at line ${line}, column ${col}:`);
  }
  if (error) throw error;
  return doc.toJS(YAML_OPTIONS);
}

/**
 * Splits YAML front matter off a Markdown document. Only YAML is read (a `---js` block is
 * plain text here, never code); anything but a mapping is refused with 400.
 */
export function splitFrontMatter(source: string): { data: Record<string, unknown>; body: string } {
  const match = FRONT_MATTER.exec(source);
  if (!match) return { data: {}, body: source };
  let data: unknown;
  try {
    data = parseYamlLinear(match[1]) ?? {};
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    throw invalidArgument(`The front matter is not valid YAML: ${reason}`, 'Fix the YAML between the --- lines, or remove it.');
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw invalidArgument('The front matter must be a YAML mapping (title, premise, notes).', 'Write the front matter as "key: value" lines, or remove it.');
  }
  return { data: data as Record<string, unknown>, body: source.slice(match[0].length) };
}
