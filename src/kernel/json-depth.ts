/**
 * A bound on the nesting of JSON, checked where JSON enters (the body parser's output, the
 * trigger route's raw bytes). V8 parses 300,000 nested arrays happily, but whatever walks the
 * result recursively afterwards (validation, JSON.stringify, storage) overflows the stack: a
 * 500 and a stack trace per request. Both checks here are linear and use no recursion.
 */
import { ApiError } from './errors';

/** Deepest nesting of objects and arrays accepted in a JSON body. */
export const MAX_JSON_DEPTH = 128;

export const tooDeep = () =>
  new ApiError(
    'invalid-argument',
    `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
    `Send JSON with at most ${MAX_JSON_DEPTH} levels of nested objects and arrays.`,
  );

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * True when JSON text (as UTF-8 bytes or a string) nests deeper than `max`, counted on the text
 * before parsing it (brackets inside strings do not count). Invalid JSON is left to the parser.
 */
export function jsonTextTooDeep(text: Buffer | string, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const c = bytes[i];
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (OPENERS.has(c)) {
      depth += 1;
      if (depth > max) return true;
    } else if (CLOSERS.has(c)) {
      depth -= 1;
    }
  }
  return false;
}

/** True when a parsed value nests objects and arrays deeper than `max` (an explicit stack, no recursion). */
export function jsonValueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<[object, number]> = [[value as object, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
