import type { ArticleRecord, NoteMapEntry, NoteRecord, OutlineEntry } from '../plugins/quire/server/src/schemas/records';
import { clip, plural, table, when } from './output';

// The server's own types, inferred from the schemas its routes are declared with (type-only
// imports: nothing of the server is loaded by the CLI at run time).
export type { Data } from '../plugins/quire/server/src/schemas/responses';
import type { Data, responses } from '../plugins/quire/server/src/schemas/responses';
/** A write a suggest key may make: the route's data (200/201), or the suggestion it made instead (202). */
export type Suggestible<K extends keyof typeof responses> = Data<K> | Data<'suggestionOnly'>;
export type { ApiKeyRecord, ArticleRecord, OutlineEntry } from '../plugins/quire/server/src/schemas/records';

/** A note of the map, or a full note (with its body and author). */
export type NoteEntry = NoteMapEntry | NoteRecord;

/** Short ids shown to people are never shorter than this (longer when two would share it). */
export const SHORT_ID_LENGTH = 8;

/**
 * Outline-style short ids: the shortest prefix of each id that none of the others shares,
 * never shorter than SHORT_ID_LENGTH. The server takes any unique prefix of 4 characters or
 * more, so what is shown can be typed back.
 */
export function shortIds(ids: string[], min = SHORT_ID_LENGTH): Map<string, string> {
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const common = (a = '', b = '') => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i += 1;
    return i;
  };
  const result = new Map<string, string>();
  sorted.forEach((id, i) => result.set(id, id.slice(0, Math.max(min, common(id, sorted[i - 1]) + 1, common(id, sorted[i + 1]) + 1))));
  return result;
}

/** A section without a heading, in the canvas's words (admin translations: canvas.untitled). */
export const UNTITLED = '(text before the first heading)';

/** A section's title for a table or list line. */
export const sectionTitle = (title: string, max = 70) => (title ? clip(title, max) : UNTITLED);

/** Headings indented by level, so the table reads as the article's shape. */
export function outlineTable(outline: OutlineEntry[]): string {
  if (!outline.length) return '(no sections)';
  return table(
    ['ANCHOR', 'LEVEL', 'WORDS', 'SOURCE', 'TITLE'],
    outline.map((s) => [s.anchor, s.level, s.words, s.source, '  '.repeat(Math.max(0, s.level - 1)) + sectionTitle(s.title)]),
  );
}

export function notesTable(notes: NoteEntry[]): string {
  if (!notes.length) return '(no notes)';
  return table(['ANCHOR', 'KIND', 'TITLE', 'URL'], notes.map((n) => [n.anchor, n.kind, clip(n.title, 50), n.url ?? '']));
}

export function articleLine(a: ArticleRecord): string {
  const parts = [a.status, plural(a.words, 'word'), plural(a.sections, 'section'), `updated ${when(a.updatedAt)}`];
  if (a.publishedAt) parts.push(`published ${when(a.publishedAt)}`);
  return parts.join(' · ');
}

export function articleHeader(a: ArticleRecord): string {
  return `${a.title}\n${a.id}\n${articleLine(a)}`;
}

/** A full note: its heading line, its link, then its body. */
export function noteText(n: NoteEntry): string {
  const lines = [`[${n.anchor}] ${n.kind}: ${n.title}`];
  if (n.url) lines.push(n.url);
  if ('createdBy' in n && n.createdBy) lines.push(`(added by ${n.createdBy})`);
  if ('body' in n && n.body) lines.push('', n.body);
  return lines.join('\n');
}
