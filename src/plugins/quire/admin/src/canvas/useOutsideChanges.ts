/**
 * What happened to the sections from outside while the canvas is open, read from the live
 * document: who changed a section lately (meta `changed:<id>`, shown for CHANGED_MS), and the
 * sections deleted while this person was typing in them (they leave `order`; meta
 * `deleted:<id>` says who), kept as "ghosts" with the text typed, where they were, until
 * restored or dismissed.
 */
import * as React from 'react';
import type * as Y from 'yjs';
import type { SectionRecord } from '../api';
import type { ChangeMark, LiveUser, useLiveArticle } from './live';

/** How long a section shows who changed it from outside (CONTRACT 19: at least 5 s). */
export const CHANGED_MS = 6000;
/** A deletion counts as "while typing" when this person typed in the section this recently. */
const TYPING_MS = 60_000;

/** A section deleted while this person was typing in it: their text, and where it was. */
export interface Ghost {
  id: string;
  anchor: string;
  title: string;
  html: string;
  /** The id of the section it followed (null: it was first). */
  after: string | null;
}

export const isMark = (value: unknown): value is ChangeMark => typeof value === 'object' && value !== null && typeof (value as ChangeMark).name === 'string';

type Live = ReturnType<typeof useLiveArticle>;

export function useOutsideChanges(live: Live, me: LiveUser | null, byId: Map<string, SectionRecord>, refresh: { sections: () => void; article: () => void }) {
  /** Sections changed from outside lately: id -> who. */
  const [changed, setChanged] = React.useState<Record<string, string>>({});
  const [ghosts, setGhosts] = React.useState<Ghost[]>([]);
  /** What this person typed lately, per section id: when, and the section's HTML then. */
  const typedRef = React.useRef(new Map<string, { at: number; html: string }>());
  /** Sections this person deleted themselves (no "deleted by" notice for those). */
  const removedHereRef = React.useRef(new Set<string>());
  const metaRef = React.useRef<Record<string, unknown> | null>(null);
  const orderRef = React.useRef<string[] | null>(null);
  const refreshRef = React.useRef(refresh);
  refreshRef.current = refresh;

  // Who changed a section, read from each change of the meta map as it comes, not from the
  // snapshot a render sees: an agent's mark and the mark of this person's own typing stored a
  // moment later can reach a busy page between two renders, and the second hid the first.
  const meRef = React.useRef(me);
  meRef.current = me;
  const doc = live.synced ? live.doc : null;
  React.useEffect(() => {
    if (!doc) return;
    const meta = doc.getMap('meta');
    const marks = (event: Y.YMapEvent<unknown>) => {
      const fresh: Record<string, string> = {};
      for (const key of event.keysChanged) {
        const value = meta.get(key);
        if (!key.startsWith('changed:') || !isMark(value)) continue;
        if (value.kind === 'editor' && value.name === meRef.current?.name) continue; // our own typing, stored
        fresh[key.slice('changed:'.length)] = value.name;
      }
      if (!Object.keys(fresh).length) return;
      setChanged((current) => ({ ...current, ...fresh }));
      window.setTimeout(() => setChanged((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !(key in fresh)))), CHANGED_MS);
    };
    meta.observe(marks);
    return () => meta.unobserve(marks);
  }, [doc]);

  React.useEffect(() => {
    if (!live.synced) {
      metaRef.current = null;
      orderRef.current = null;
      return;
    }
    const before = metaRef.current;
    metaRef.current = live.meta;
    if (before) {
      if (before.notesRev !== live.meta.notesRev || before.titleRev !== live.meta.titleRev) refreshRef.current.article();
    }
  }, [live.synced, live.meta]); // eslint-disable-line react-hooks/exhaustive-deps

  React.useEffect(() => {
    if (!live.synced || !live.order) return;
    const before = orderRef.current;
    orderRef.current = live.order;
    if (!before) return;
    const now = Date.now();
    const gone = before.filter((sectionId) => !live.order!.includes(sectionId));
    const back = new Set(live.order);
    setGhosts((current) => {
      const kept = current.filter((ghost) => !back.has(ghost.id));
      for (const sectionId of gone) {
        const typed = typedRef.current.get(sectionId);
        if (removedHereRef.current.has(sectionId) || !typed || now - typed.at > TYPING_MS || kept.some((ghost) => ghost.id === sectionId)) continue;
        const record = byId.get(sectionId);
        const index = before.indexOf(sectionId);
        const after = before.slice(0, index).reverse().find((other) => back.has(other)) ?? null;
        kept.push({ id: sectionId, anchor: record?.anchor ?? sectionId, title: record?.title ?? '', html: typed.html, after });
      }
      return kept;
    });
    // The sections' entries come with the order (the live outline); the article's totals are read again.
    if (gone.length || live.order.some((sectionId) => !before.includes(sectionId))) refreshRef.current.article();
  }, [live.synced, live.order]); // eslint-disable-line react-hooks/exhaustive-deps

  const onTyped = React.useCallback((sectionId: string, html: string) => {
    // Typing happens in the focused editor: an editor's own update as it mounts (a section an
    // agent just added) is not typing, and must not make its deletion a "deleted while typing".
    if (!(document.activeElement as HTMLElement | null)?.closest(`[data-section-editor="${CSS.escape(sectionId)}"]`)) return;
    typedRef.current.set(sectionId, { at: Date.now(), html });
  }, []);

  /** A section this person deletes: no ghost for it. */
  const removingHere = (sectionId: string) => removedHereRef.current.add(sectionId);
  const dismissGhost = (ghostId: string) => setGhosts((current) => current.filter((other) => other.id !== ghostId));

  return { changed, ghosts, onTyped, removingHere, dismissGhost };
}
