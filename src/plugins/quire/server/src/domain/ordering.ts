/**
 * Order of sections: each carries a fractional ordering key (`rank`), so inserting or moving
 * one section writes that row alone and never renumbers the others. Keys are compared as
 * plain strings in code-unit order, here in JavaScript, never by the database's collation
 * (PostgreSQL's locale collation does not order mixed-case ASCII the way bytes do).
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

export interface Ranked {
  rank: string;
}

export const compareRanks = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows in document order. */
export function sortByRank<T extends Ranked>(rows: T[]): T[] {
  return [...rows].sort((x, y) => compareRanks(x.rank, y.rank));
}

/** `n` keys in order strictly between `lower` and `upper` (null: open end). */
export function ranksBetween(lower: string | null, upper: string | null, n: number): string[] {
  if (n === 1) return [generateKeyBetween(lower, upper)];
  return generateNKeysBetween(lower, upper, n);
}

/**
 * The neighbours a new or moved item goes between, in a list sorted by rank:
 * after the item at `afterIndex`, before the item at `beforeIndex`, or at the end.
 */
export function slotBounds<T extends Ranked>(
  sorted: T[],
  target: { afterIndex?: number; beforeIndex?: number },
): { lower: string | null; upper: string | null } {
  if (target.afterIndex !== undefined) {
    const i = target.afterIndex;
    return { lower: sorted[i].rank, upper: sorted[i + 1]?.rank ?? null };
  }
  if (target.beforeIndex !== undefined) {
    const i = target.beforeIndex;
    return { lower: sorted[i - 1]?.rank ?? null, upper: sorted[i].rank };
  }
  return { lower: sorted[sorted.length - 1]?.rank ?? null, upper: null };
}
