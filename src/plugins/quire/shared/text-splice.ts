/**
 * The smallest change from one text to another by their common prefix and suffix: one delete
 * and one insert. The live premise is kept this way by the server (a write of the premise) and
 * by the canvas (a keystroke in its textarea). Pure code, shared by the server and the admin bundle.
 */
export interface TextSplice {
  /** Where the change starts. */
  start: number;
  /** How many characters of the old text go. */
  removed: number;
  /** What comes in their place. */
  inserted: string;
}

/** The splice that makes `before` into `after`, or null when they are equal. */
export function textSplice(before: string, after: string): TextSplice | null {
  if (before === after) return null;
  const shortest = Math.min(before.length, after.length);
  let start = 0;
  while (start < shortest && before[start] === after[start]) start += 1;
  let end = 0;
  while (end < shortest - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end += 1;
  return { start, removed: before.length - start - end, inserted: after.slice(start, after.length - end) };
}
