/**
 * The outline of an article: its sections in document order (by rank), their ids in sorted
 * order (for anchors and anchor lookups) and each one's anchor. Pure code.
 *
 * An Outline is immutable: a write derives a new one with `with()`, so one can be shared
 * between requests (and kept in a cache) without copying.
 */
import { MIN_ANCHOR_LENGTH, normalizeAnchor, sortIds, type AnchorScope, ambiguousAnchor, unknownAnchor, matchInSorted } from './anchors';
import { sortByRank } from './ordering';

/** Where a section's content comes from: Markdown, or HTML once an editor saved it from the canvas. */
export type SectionSource = 'markdown' | 'html';

/**
 * One section in an article's outline, as the API answers it. The domain owns the shape;
 * schemas/records.ts describes it for the wire and checks at compile time that both agree.
 */
export interface OutlineEntry {
  anchor: string;
  level: number;
  title: string;
  words: number;
  source: SectionSource;
  /** The section's revision: only with ?include=rev. */
  rev?: number;
}

export interface OutlineItem {
  uuid: string;
  rank: string;
  level: number;
  title: string;
  words: number;
  source: SectionSource;
  /** The section's revision (CONTRACT section 10): +1 on every change of its content. */
  rev: number;
}

/** An outline entry with its section's revision (`?include=rev`). */
export type OutlineEntryWithRev = OutlineEntry & { rev: number };

/** Index of the first element not below `key` in a sorted array (binary search). */
function lowerBound<T>(sorted: readonly T[], key: string, keyOf: (t: T) => string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(sorted[mid]) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const self = (s: string) => s;
const rankOf = (item: OutlineItem) => item.rank;

/** Anchors of sorted ids: one common-prefix comparison per adjacent pair. */
function anchorsOfSortedIds(ids: readonly string[]): string[] {
  const n = ids.length;
  const shared: number[] = new Array(Math.max(0, n - 1));
  for (let i = 0; i + 1 < n; i += 1) {
    const a = ids[i];
    const b = ids[i + 1];
    let k = 0;
    while (k < a.length && a.charCodeAt(k) === b.charCodeAt(k)) k += 1;
    shared[i] = k;
  }
  const anchors: string[] = new Array(n);
  for (let i = 0; i < n; i += 1) {
    const length = Math.max(MIN_ANCHOR_LENGTH, i > 0 ? shared[i - 1] + 1 : 0, i + 1 < n ? shared[i] + 1 : 0);
    anchors[i] = ids[i].slice(0, length);
  }
  return anchors;
}

const toItem = (row: OutlineItem): OutlineItem => ({
  uuid: row.uuid,
  rank: row.rank,
  level: Number(row.level),
  title: row.title,
  words: Number(row.words),
  source: row.source,
  rev: Number(row.rev ?? 1),
});

const entryOf = (item: OutlineItem, anchor: string): OutlineEntry => ({
  anchor,
  level: item.level,
  title: item.title,
  words: item.words,
  source: item.source,
});

/** The anchor of ids[i] from its neighbours. */
function anchorAt(ids: readonly string[], i: number): string {
  const id = ids[i];
  let length = MIN_ANCHOR_LENGTH;
  for (const other of [ids[i - 1], ids[i + 1]]) {
    if (other === undefined) continue;
    let k = 0;
    while (k < id.length && id.charCodeAt(k) === other.charCodeAt(k)) k += 1;
    if (k + 1 > length) length = k + 1;
  }
  return id.slice(0, length);
}

export class Outline {
  /** Sections in document order. */
  readonly items: readonly OutlineItem[];
  /** Section ids in sorted order. */
  readonly ids: readonly string[];
  /** Anchors, aligned with `ids`. */
  private readonly anchors: readonly string[];
  /** Outline entries, aligned with `items`. */
  private readonly entryList: readonly OutlineEntry[];

  private constructor(items: readonly OutlineItem[], ids: readonly string[], anchors: readonly string[], entries: readonly OutlineEntry[]) {
    this.items = items;
    this.ids = ids;
    this.anchors = anchors;
    this.entryList = entries;
  }

  /** The outline of stored rows, in any order. */
  static of(rows: OutlineItem[]): Outline {
    const items = sortByRank(rows.map(toItem));
    const ids = sortIds(items.map((i) => i.uuid));
    const anchors = anchorsOfSortedIds(ids);
    const byId = new Map(ids.map((id, i) => [id, anchors[i]]));
    return new Outline(items, ids, anchors, items.map((item) => entryOf(item, byId.get(item.uuid)!)));
  }

  get size(): number {
    return this.items.length;
  }

  /** The anchor of a section of this outline (binary search of the sorted ids). */
  anchorOf(uuid: string): string {
    return this.anchors[lowerBound(this.ids, uuid, self)];
  }

  entry(item: OutlineItem): OutlineEntry {
    return this.entryList[this.indexOf(item.uuid)];
  }

  /** Outline entries in document order. Shared: callers must not change them. */
  entries(): OutlineEntry[] {
    return this.entryList as OutlineEntry[];
  }

  /** Outline entries with their sections' revisions (`?include=rev`). */
  entriesWithRev(): OutlineEntryWithRev[] {
    return this.entryList.map((entry, i) => ({ ...entry, rev: this.items[i].rev }));
  }

  /** The section with this id, if it is in the outline. */
  find(uuid: string): OutlineItem | undefined {
    return this.has(uuid) ? this.items[this.indexOf(uuid)] : undefined;
  }

  get words(): number {
    let n = 0;
    for (const item of this.items) n += item.words;
    return n;
  }

  /** The section an anchor addresses, or the API's 404 (none) / 400 (several). */
  resolve(raw: string, scope: AnchorScope): OutlineItem {
    const anchor = normalizeAnchor(raw);
    const match = anchor === null ? { kind: 'none' as const } : matchInSorted(this.ids as string[], anchor);
    if (match.kind === 'many') throw ambiguousAnchor(raw, scope);
    if (match.kind === 'none') throw unknownAnchor(raw, scope);
    return this.items[this.indexOf(match.id)];
  }

  /** Position of a section in document order. */
  indexOf(uuid: string): number {
    return this.items.findIndex((item) => item.uuid === uuid);
  }

  private has(uuid: string): boolean {
    return this.ids[lowerBound(this.ids, uuid, self)] === uuid;
  }

  /**
   * A new outline with some sections removed and others added or replaced (same uuid: new
   * content or rank). The arrays are copied once; each change is placed by binary search, and
   * only the anchors next to a change are computed again, so a write to a large article costs
   * a few copies of references, not a rebuild.
   */
  with(change: { remove?: string[]; upsert?: OutlineItem[] }): Outline {
    const upserts = (change.upsert ?? []).map(toItem);
    const removed = (change.remove ?? []).filter((uuid) => this.has(uuid));
    const added = upserts.filter((item) => !this.has(item.uuid));
    // Items (and their entries) leave their old place when removed or replaced.
    const leaving = new Set([...removed, ...upserts.filter((item) => !added.includes(item)).map((i) => i.uuid)]);
    let items: OutlineItem[];
    let entries: OutlineEntry[];
    if (leaving.size) {
      const keep = this.items.map((item) => !leaving.has(item.uuid));
      items = this.items.filter((_, i) => keep[i]);
      entries = this.entryList.filter((_, i) => keep[i]);
    } else {
      items = this.items.slice();
      entries = this.entryList.slice();
    }

    const ids = [...this.ids];
    const anchors = [...this.anchors];
    const dirty = new Set<string>();
    for (const uuid of removed) {
      const at = lowerBound(ids, uuid, self);
      ids.splice(at, 1);
      anchors.splice(at, 1);
      if (ids[at - 1] !== undefined) dirty.add(ids[at - 1]);
      if (ids[at] !== undefined) dirty.add(ids[at]);
    }
    for (const item of added) {
      const at = lowerBound(ids, item.uuid, self);
      ids.splice(at, 0, item.uuid);
      anchors.splice(at, 0, '');
      dirty.add(item.uuid);
      if (ids[at - 1] !== undefined) dirty.add(ids[at - 1]);
      if (ids[at + 1] !== undefined) dirty.add(ids[at + 1]);
    }
    const changedAnchors = new Map<string, string>();
    for (const uuid of dirty) {
      const at = lowerBound(ids, uuid, self);
      if (ids[at] !== uuid) continue;
      const anchor = anchorAt(ids, at);
      if (anchor !== anchors[at]) changedAnchors.set(uuid, anchor);
      anchors[at] = anchor;
    }

    for (const item of upserts) {
      const at = lowerBound(items, item.rank, rankOf);
      items.splice(at, 0, item);
      entries.splice(at, 0, entryOf(item, anchors[lowerBound(ids, item.uuid, self)]));
    }
    const upserted = new Set(upserts.map((i) => i.uuid));
    for (const [uuid, anchor] of changedAnchors) {
      if (upserted.has(uuid)) continue;
      const at = items.findIndex((item) => item.uuid === uuid);
      entries[at] = entryOf(items[at], anchor);
    }
    return new Outline(items, ids, anchors, entries);
  }
}
