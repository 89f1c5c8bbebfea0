/**
 * The outline of an article: its sections in document order, each with its anchor. Pure code
 * over the rows a service loaded (one query for the whole article).
 */
import { anchorsOfSorted, sortIds } from './anchors';
import { sortByRank } from './ordering';

export interface SectionSummary {
  uuid: string;
  rank: string;
  level: number;
  title: string;
  words: number;
  source: string;
}

export interface OutlineEntry {
  anchor: string;
  level: number;
  title: string;
  words: number;
  source: string;
}

export interface OutlineView<T extends SectionSummary> {
  /** Sections in document order. */
  ordered: T[];
  /** Section ids sorted for anchor lookups. */
  sortedIds: string[];
  anchors: Map<string, string>;
}

export function outlineView<T extends SectionSummary>(rows: T[]): OutlineView<T> {
  const sortedIds = sortIds(rows.map((r) => r.uuid));
  return { ordered: sortByRank(rows), sortedIds, anchors: anchorsOfSorted(sortedIds) };
}

export function outlineEntry(row: SectionSummary, anchor: string): OutlineEntry {
  return { anchor, level: Number(row.level), title: row.title, words: Number(row.words), source: row.source };
}

/** The outline entries of all sections, in document order. */
export function outlineEntries<T extends SectionSummary>(view: OutlineView<T>): OutlineEntry[] {
  return view.ordered.map((row) => outlineEntry(row, view.anchors.get(row.uuid)!));
}
