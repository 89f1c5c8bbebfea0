/**
 * The article's live document as data (CONTRACT 19 and 22), without a server: `order` (section
 * ids, the server's), one `Y.XmlFragment` per section (`section:<id>`), the premise (`Y.Text`),
 * `meta` (who changed or deleted a section, counters the canvas watches), and the structure the
 * canvas shows beside the text: `outline` (section id -> its anchor, level, title, words,
 * source and revision) and `presence` (agent name -> the section it wrote last, until when it
 * counts as present). `order`, `meta`, `outline` and `presence` are the server's alone (the
 * update guard refuses a client writing them). Map entries are small and overwritten in place:
 * an overwritten value leaves a few bytes in the state, not its content. These functions
 * change a Y.Doc as the smallest change, so the same code keeps the stored state (a write
 * under the article's lock) and builds a new one.
 */
import * as Y from 'yjs';
import type { LiveOutlineEntry, LivePresence } from '../../../shared/live-shapes';
import { textSplice } from '../../../shared/text-splice';
import type { ArticleEvent, EventActor } from '../domain/article-events';
import { fillFragment, fragmentToHtml, updateFragment } from './content';

export const sectionField = (sectionId: string) => `section:${sectionId}`;

/** A section as stored: its id, revision and HTML (Markdown sections: their rendered HTML). */
export interface StoredSection {
  id: string;
  rev: number;
  html: string;
}

/** Makes the document's section order `ids` (the server alone writes it). */
export function setOrder(doc: Y.Doc, ids: string[]): boolean {
  const order = doc.getArray<string>('order');
  if (order.toArray().join() === ids.join()) return false;
  order.delete(0, order.length);
  order.insert(0, ids);
  return true;
}

/** Makes a text hold `value` by its common prefix and suffix: one delete and one insert. */
export function setText(text: Y.Text, value: string): boolean {
  const splice = textSplice(text.toString(), value);
  if (!splice) return false;
  if (splice.removed > 0) text.delete(splice.start, splice.removed);
  if (splice.inserted) text.insert(splice.start, splice.inserted);
  return true;
}

/** Makes a section's fragment hold `html` (filled when empty, else the smallest change). */
export function setSection(doc: Y.Doc, sectionId: string, html: string): void {
  const fragment = doc.getXmlFragment(sectionField(sectionId));
  if (fragment.length === 0) fillFragment(fragment, html);
  else updateFragment(doc, fragment, html);
}

/** One section in the live outline, keyed by section id (shared/live-shapes.ts: the canvas reads it). */
export type OutlineMark = LiveOutlineEntry;

/**
 * Makes the live outline hold `entries` (every section of the article, by id): entries that
 * differ are set, entries of sections no longer there are deleted. Returns whether it changed.
 */
export function setOutline(doc: Y.Doc, entries: Array<OutlineMark & { id: string }>): boolean {
  const outline = doc.getMap<OutlineMark>('outline');
  const keep = new Set<string>();
  let changed = false;
  doc.transact(() => {
    for (const { id, anchor, level, title, words, source, rev } of entries) {
      keep.add(id);
      const mark: OutlineMark = { anchor, level, title, words, source, rev };
      const current = outline.get(id);
      if (current && JSON.stringify(current) === JSON.stringify(mark)) continue;
      outline.set(id, mark);
      changed = true;
    }
    for (const id of [...outline.keys()]) {
      if (keep.has(id)) continue;
      outline.delete(id);
      changed = true;
    }
  });
  return changed;
}

/** An agent (or a person over the API) counted as present in the article until `until` (ms since 1970). */
export type PresenceMark = LivePresence;

/**
 * Notes a writer in `presence` (CONTRACT 19: agents count as present 60 s after a write) and
 * drops the entries that expired, so the map holds the writers of the last minute only.
 */
export function notePresence(doc: Y.Doc, mark: Omit<PresenceMark, 'since'> & { since?: number }, now: number): void {
  const presence = doc.getMap<PresenceMark>('presence');
  doc.transact(() => {
    for (const [name, entry] of presence) if (!(Number(entry?.until) > now)) presence.delete(name);
    const known = presence.get(mark.name);
    presence.set(mark.name, { kind: mark.kind, name: mark.name, section: mark.section ?? known?.section ?? null, since: known?.since ?? mark.since ?? now, until: mark.until });
  });
}

/** Agents (and people over the API) count as present this long after a write (CONTRACT 19). */
export const AGENT_PRESENCE_MS = 60_000;

/**
 * What an article event says of its writer's presence; null for editors (the canvas's own
 * people are in the awareness). Creating an article writes its first sections, but the writer
 * is in the article, not at work in its first section: no section until it writes one.
 */
export function presenceOf(event: ArticleEvent, now: number): Omit<PresenceMark, 'since'> | null {
  if (event.by.kind === 'editor') return null;
  const created = event.changes.some((change) => change.type === 'article.created');
  const touched = created ? undefined : event.changes.find((change): change is Extract<typeof change, { sectionId: string }> => 'sectionId' in change && change.type !== 'section.deleted');
  return { kind: event.by.kind, name: event.by.name, section: touched?.sectionId ?? null, until: now + AGENT_PRESENCE_MS };
}

/** A new article document: the stored sections in order, the premise, the outline, the counters at 0. */
export function buildDoc(doc: Y.Doc, sections: StoredSection[], premise: string, outline?: Array<OutlineMark & { id: string }>): void {
  doc.transact(() => {
    doc.getArray<string>('order').insert(0, sections.map((s) => s.id));
    for (const section of sections) fillFragment(doc.getXmlFragment(sectionField(section.id)), section.html);
    doc.getText('premise').insert(0, premise);
    doc.getMap('meta').set('notesRev', 0);
    doc.getMap('meta').set('titleRev', 0);
    if (outline) setOutline(doc, outline);
  });
}

/**
 * Brings a stored state to the stored rows where they differ from the revisions it records
 * (`revs`), and to the stored premise: a write that reached the rows without it (written
 * before this code, or by a door that missed it). Returns whether anything changed.
 */
export function healDoc(doc: Y.Doc, sections: StoredSection[], revs: Record<string, number>, premise: string, outline?: Array<OutlineMark & { id: string }>): boolean {
  let changed = false;
  doc.transact(() => {
    for (const section of sections) {
      if (revs[section.id] === section.rev) continue;
      setSection(doc, section.id, section.html);
      changed = true;
    }
    changed = setOrder(doc, sections.map((s) => s.id)) || changed;
    changed = setText(doc.getText('premise'), premise) || changed;
    if (outline) changed = setOutline(doc, outline) || changed;
    changed = sweepStrays(doc) || changed;
  });
  return changed;
}

/** The shared types the article's document is made of, besides its sections' fragments. */
const ARTICLE_ROOTS = new Set(['order', 'meta', 'premise', 'outline', 'presence']);

/**
 * Empties what no one may keep in the document (issue 32): shared types that are not the
 * article's (`getMap('junk')`) and fragments of sections neither in `order` nor deleted while
 * open, written before the update guard refused them. Their content is deleted, so Yjs keeps
 * only its small garbage-collected ranges and the stored state shrinks; processes that hold the
 * document merge the deletions as any other change. Returns whether it changed anything.
 */
export function sweepStrays(doc: Y.Doc): boolean {
  const order = new Set(doc.getArray<string>('order').toArray());
  const meta = doc.getMap('meta');
  let changed = false;
  doc.transact(() => {
    for (const [name, shared] of [...doc.share]) {
      if (ARTICLE_ROOTS.has(name)) continue;
      if (name.startsWith('section:')) {
        const id = name.slice('section:'.length);
        if (order.has(id) || meta.has(`deleted:${id}`)) continue;
      }
      // A type only ever written by an update has no constructor yet: its entries say whether it is a map or a list.
      const raw = shared as unknown as { _map: Map<string, Y.Item>; _start: unknown };
      const keys = [...raw._map].filter(([, item]) => !item.deleted).map(([key]) => key);
      if (keys.length > 0) {
        const map = shared.constructor === Y.AbstractType ? doc.getMap(name) : (shared as unknown as Y.Map<unknown>);
        for (const key of keys) map.delete(key);
        changed = true;
      }
      if (raw._start !== null) {
        const list = (shared.constructor === Y.AbstractType ? doc.getArray(name) : shared) as unknown as { length: number; delete(index: number, length: number): void };
        if (list.length > 0) {
          list.delete(0, list.length);
          changed = true;
        }
      }
    }
  });
  return changed;
}

/** What one write did to an article's sections, with the content of those that have content now. */
export interface SectionsWrite {
  by: EventActor;
  at: string;
  /** Sections with new content (inserted, replaced, restored), as stored now. */
  written: StoredSection[];
  /** Sections restored from the trash (their `deleted:` notice goes). */
  restored: string[];
  /** Sections deleted (their fragment stays, for a restore to diff against). */
  deleted: string[];
  /** The article's section ids in order after the write. */
  order: string[];
  /** The article's outline after the write (every section), when known. */
  outline?: Array<OutlineMark & { id: string }>;
}

/** Applies a write of the sections to the document, and says who made it in `meta`. */
export function applyWrite(doc: Y.Doc, write: SectionsWrite): void {
  const meta = doc.getMap('meta');
  const who = { name: write.by.name, kind: write.by.kind, at: write.at };
  doc.transact(() => {
    for (const section of write.written) {
      setSection(doc, section.id, section.html);
      meta.set(`changed:${section.id}`, who);
    }
    for (const id of write.restored) meta.delete(`deleted:${id}`);
    for (const id of write.deleted) meta.set(`deleted:${id}`, { ...who, trashId: id });
    setOrder(doc, write.order);
    if (write.outline) setOutline(doc, write.outline);
  });
}

/** The HTML of a section's fragment in a document. */
export const sectionHtml = (doc: Y.Doc, sectionId: string) => fragmentToHtml(doc.getXmlFragment(sectionField(sectionId)));

/** The update that brings `to` what `from` has and it lacks (an update applied twice counts once). */
export const missingIn = (to: Y.Doc, from: Uint8Array) => Y.diffUpdate(from, Y.encodeStateVector(to));

