import { compareRanks, ranksBetween, slotBounds, sortByRank } from '../../src/plugins/quire/server/src/domain/ordering';

describe('ordering keys', () => {
  it('generates keys strictly between their bounds, compared as plain strings', () => {
    const [a] = ranksBetween(null, null, 1);
    const [b] = ranksBetween(a, null, 1);
    const [m] = ranksBetween(a, b, 1);
    expect(compareRanks(a, m)).toBe(-1);
    expect(compareRanks(m, b)).toBe(-1);
    const many = ranksBetween(a, b, 50);
    expect(many).toEqual([...many].sort());
    expect(new Set(many).size).toBe(50);
    expect(many[0] > a && many[49] < b).toBe(true);
  });

  it('keeps a valid order under many inserts at one spot (mixed-case keys sorted by code unit)', () => {
    let rows = [{ rank: ranksBetween(null, null, 1)[0], n: 0 }];
    rows.push({ rank: ranksBetween(rows[0].rank, null, 1)[0], n: 10_000 });
    // Always insert right after the first row: the worst case for key growth.
    for (let n = 1; n <= 1000; n += 1) {
      const sorted = sortByRank(rows);
      const { lower, upper } = slotBounds(sorted, { afterIndex: 0 });
      rows.push({ rank: ranksBetween(lower, upper, 1)[0], n: 10_000 - n });
    }
    const sorted = sortByRank(rows);
    expect(sorted[0].n).toBe(0);
    expect(sorted.slice(1).map((r) => r.n)).toEqual([...sorted.slice(1).map((r) => r.n)].sort((x, y) => x - y));
    expect(new Set(rows.map((r) => r.rank)).size).toBe(rows.length);
  });

  it('finds the bounds of after, before and append', () => {
    const sorted = [{ rank: 'a0' }, { rank: 'a1' }, { rank: 'a2' }];
    expect(slotBounds(sorted, { afterIndex: 0 })).toEqual({ lower: 'a0', upper: 'a1' });
    expect(slotBounds(sorted, { afterIndex: 2 })).toEqual({ lower: 'a2', upper: null });
    expect(slotBounds(sorted, { beforeIndex: 0 })).toEqual({ lower: null, upper: 'a0' });
    expect(slotBounds(sorted, { beforeIndex: 2 })).toEqual({ lower: 'a1', upper: 'a2' });
    expect(slotBounds(sorted, {})).toEqual({ lower: 'a2', upper: null });
    expect(slotBounds([], {})).toEqual({ lower: null, upper: null });
  });
});
