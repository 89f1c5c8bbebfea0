import { newId } from '../../src/plugins/quire/server/src/domain/anchors';
import { ApiError } from '../../src/kernel/errors';
import { ranksBetween } from '../../src/plugins/quire/server/src/domain/ordering';
import { Outline, type OutlineItem } from '../../src/plugins/quire/server/src/domain/outline';
import { createOutlineCache } from '../../src/plugins/quire/server/src/services/outlines';

const scope = { item: 'section', listRoute: 'GET /api/articles/x/outline' };
const item = (rank: string, title = rank): OutlineItem => ({ uuid: newId(), rank, level: 2, title, words: 1, source: 'markdown', rev: 1 });

/** A pseudo-random sequence, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe('Outline', () => {
  it('orders by rank, gives unique anchors and resolves them', () => {
    const ranks = ranksBetween(null, null, 30);
    const rows = ranks.map((r) => item(r)).reverse();
    const outline = Outline.of(rows);
    expect(outline.items.map((i) => i.rank)).toEqual(ranks);
    const entries = outline.entries();
    expect(new Set(entries.map((e) => e.anchor)).size).toBe(30);
    for (const row of rows) expect(outline.resolve(outline.anchorOf(row.uuid).toUpperCase(), scope)).toEqual(row);
    expect(outline.words).toBe(30);
    expect(() => outline.resolve('zz', scope)).toThrow(ApiError);
  });

  it('derives the same outline by with() as by rebuilding from the rows, over many random changes', () => {
    const next = random(42);
    let rows = ranksBetween(null, null, 5).map((r) => item(r));
    let outline = Outline.of(rows);
    for (let step = 0; step < 400; step += 1) {
      const sorted = outline.items;
      const choice = next();
      if (choice < 0.5 || sorted.length < 2) {
        // insert 1-3 sections at a random place
        const at = Math.floor(next() * (sorted.length + 1));
        const ranks = ranksBetween(sorted[at - 1]?.rank ?? null, sorted[at]?.rank ?? null, 1 + Math.floor(next() * 3));
        const added = ranks.map((r) => item(r, `n${step}`));
        rows = [...rows, ...added];
        outline = outline.with({ upsert: added });
      } else if (choice < 0.7) {
        const victim = sorted[Math.floor(next() * sorted.length)];
        rows = rows.filter((r) => r.uuid !== victim.uuid);
        outline = outline.with({ remove: [victim.uuid] });
      } else if (choice < 0.85) {
        // move
        const moving = sorted[Math.floor(next() * sorted.length)];
        const others = sorted.filter((i) => i !== moving);
        const at = Math.floor(next() * (others.length + 1));
        const [rank] = ranksBetween(others[at - 1]?.rank ?? null, others[at]?.rank ?? null, 1);
        const moved = { ...moving, rank };
        rows = rows.map((r) => (r.uuid === moving.uuid ? moved : r));
        outline = outline.with({ upsert: [moved] });
      } else {
        // replace content in place
        const target = sorted[Math.floor(next() * sorted.length)];
        const changed = { ...target, title: `edited ${step}`, words: step, level: 3 };
        rows = rows.map((r) => (r.uuid === target.uuid ? changed : r));
        outline = outline.with({ upsert: [changed] });
      }
      const rebuilt = Outline.of(rows);
      expect(outline.items).toEqual(rebuilt.items);
      expect(outline.entries()).toEqual(rebuilt.entries());
    }
    expect(outline.size).toBeGreaterThan(50);
  });

  it('never changes an outline it was derived from', () => {
    const base = Outline.of(ranksBetween(null, null, 3).map((r) => item(r)));
    const entries = JSON.stringify(base.entries());
    base.with({ remove: [base.items[0].uuid], upsert: [item(ranksBetween(base.items[2].rank, null, 1)[0])] });
    expect(JSON.stringify(base.entries())).toBe(entries);
    expect(base.size).toBe(3);
  });
});

describe('outline cache', () => {
  const outlineOf = (n: number) => Outline.of(ranksBetween(null, null, n).map((r) => item(r)));

  it('answers only for the revision it holds', () => {
    const cache = createOutlineCache(50_000);
    const outline = outlineOf(3);
    cache.set(1, 4, outline);
    expect(cache.get(1, 4)).toBe(outline);
    expect(cache.get(1, 5)).toBeUndefined();
    expect(cache.get(2, 4)).toBeUndefined();
    cache.drop(1);
    expect(cache.get(1, 4)).toBeUndefined();
  });

  it('holds at most QUIRE_OUTLINE_CACHE_SECTIONS sections, dropping the least recently used', () => {
    const cache = createOutlineCache(10);
    cache.set(1, 0, outlineOf(4));
    cache.set(2, 0, outlineOf(4));
    expect(cache.get(1, 0)).toBeDefined(); // 1 is now more recent than 2
    cache.set(3, 0, outlineOf(4));
    expect([cache.get(1, 0) !== undefined, cache.get(2, 0) !== undefined, cache.get(3, 0) !== undefined]).toEqual([true, false, true]);
    cache.set(4, 0, outlineOf(11)); // larger than the whole cache: not kept
    expect(cache.get(4, 0)).toBeUndefined();
  });
});
