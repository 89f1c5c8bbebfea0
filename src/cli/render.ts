import { clip, plural, table, when } from './output';

export interface OutlineEntry {
  anchor: string;
  level: number;
  title: string;
  words: number;
  source: string;
}

export interface NoteEntry {
  anchor: string;
  kind: string;
  title: string;
  url: string | null;
  body?: string | null;
  createdBy?: string;
}

export interface ArticleRecord {
  id: string;
  title: string;
  status: string;
  words: number;
  sections: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

/** Headings indented by level, so the table reads as the article's shape. */
export function outlineTable(outline: OutlineEntry[]): string {
  if (!outline.length) return '(no sections)';
  return table(
    ['ANCHOR', 'LEVEL', 'WORDS', 'SOURCE', 'TITLE'],
    outline.map((s) => [s.anchor, s.level, s.words, s.source, '  '.repeat(Math.max(0, s.level - 1)) + (s.title ? clip(s.title, 70) : '(no heading)')]),
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
  if (n.createdBy) lines.push(`(added by ${n.createdBy})`);
  if (n.body) lines.push('', n.body);
  return lines.join('\n');
}
