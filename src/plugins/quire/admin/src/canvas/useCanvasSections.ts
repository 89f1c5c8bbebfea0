/**
 * The canvas's sections (CONTRACT 22: structure arrives through the live document). Read once
 * over HTTP (their records, with the outline's ETag) for the page's first paint; once the live
 * document is there, its `order` and `outline` entries (anchor, level, title, words, source,
 * revision: written by the server in every write's transaction) are the sections: a section
 * added, moved, deleted, restored or retitled by anyone, and its word count, show as the
 * document changes, with no request. Only while the live document is away (connecting,
 * offline, refused) does the canvas ask whether the outline changed, slowly (SLOW_POLL_MS).
 */
import * as React from 'react';
import type { SectionRecord } from '../api';
import { useSectionsApi } from '../api/sections';
import type { LiveOutlineEntry, useLiveArticle } from './live';

/** How often the outline's ETag is asked for while the live document is away (a 304 costs one indexed read). */
export const SLOW_POLL_MS = 15_000;
/** Kept for the page's exports: the slow poll is the only poll left. */
export const POLL_MS = SLOW_POLL_MS;

export interface LoadedSections {
  sections: SectionRecord[];
  /** The outline's version: its HTTP ETag, or (live) a signature of the live order and revisions. */
  etag: string | null;
}

type Live = ReturnType<typeof useLiveArticle>;

/** A short signature of the live outline: it changes whenever a section's revision, the order or an entry does. */
export function liveVersion(order: string[], outline: Record<string, LiveOutlineEntry>): string {
  let hash = 5381;
  for (const id of order) {
    const entry = outline[id];
    const part = `${id}:${entry?.rev ?? 0}:${entry?.anchor ?? ''};`;
    for (let i = 0; i < part.length; i += 1) hash = ((hash * 33) ^ part.charCodeAt(i)) | 0;
  }
  return `live-${order.length}-${(hash >>> 0).toString(36)}`;
}

/** A section's record with the live outline's entry over it (a section no HTTP read saw: from the entry alone). */
export const withEntry = (id: string, record: SectionRecord | undefined, entry: LiveOutlineEntry): SectionRecord => ({
  id,
  markdown: record?.markdown ?? null,
  html: record?.html ?? '',
  anchor: entry.anchor,
  level: entry.level,
  title: entry.title,
  words: entry.words,
  source: entry.source,
});

export function useCanvasSections(id: string, found: boolean, live: Live, onOutlineChanged: () => void, fail: (problem: unknown) => void) {
  const api = useSectionsApi(id);
  const [loaded, setLoaded] = React.useState<LoadedSections | null>(null);
  const etagRef = React.useRef<string | null>(null);
  const changedRef = React.useRef(onOutlineChanged);
  changedRef.current = onOutlineChanged;

  /** The sections and the outline's ETag they match. */
  const loadSections = React.useCallback(async () => {
    const { value, etag } = await api.list();
    etagRef.current = etag;
    setLoaded({ sections: value.sections, etag });
  }, [id]); // eslint-disable-line react-hooks/exhaustive-deps

  /** The current version of a section, with its ETag (the revisions dialog restores over it). */
  const readSection = async (anchor: string) => {
    const { value, etag } = await api.read(anchor);
    return { section: value.section, etag };
  };

  React.useEffect(() => {
    if (found) loadSections().catch(fail);
  }, [found, loadSections]); // eslint-disable-line react-hooks/exhaustive-deps

  const liveOrder = live.synced ? live.order : null;
  const liveOutline = live.synced && Object.keys(live.outline).length ? live.outline : null;
  const away = !live.synced || live.status !== 'connected';

  // Only while the live document is away: ask now and then whether the outline changed.
  React.useEffect(() => {
    if (!id || !away) return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      if (stopped || document.hidden || !etagRef.current) return;
      try {
        const outline = await api.outlineIfChanged(etagRef.current);
        if (outline === null || stopped) return;
        await loadSections();
        changedRef.current();
      } catch {
        // A failed ask is repeated at the next tick.
      }
    }, SLOW_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [id, away, loadSections]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Every section seen, live entries over HTTP records; entries of deleted sections are kept (a deleted section's notice names it). */
  const seenRef = React.useRef(new Map<string, SectionRecord>());
  const byId = React.useMemo(() => {
    const seen = seenRef.current;
    for (const section of loaded?.sections ?? []) seen.set(section.id, liveOutline?.[section.id] ? withEntry(section.id, section, liveOutline[section.id]) : section);
    for (const [sectionId, entry] of Object.entries(liveOutline ?? {})) seen.set(sectionId, withEntry(sectionId, seen.get(sectionId), entry));
    return new Map(seen);
  }, [loaded, liveOutline]);

  // A section in the live order with neither a record nor an entry (a document saved before the
  // outline rode in it): its record is read once.
  const missing = liveOrder?.some((sectionId) => !byId.has(sectionId)) ?? false;
  React.useEffect(() => {
    if (missing) loadSections().catch(() => undefined);
  }, [missing, liveOrder?.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps

  const sections = React.useMemo(
    () => (liveOrder ? liveOrder.map((sectionId) => byId.get(sectionId)).filter((section): section is SectionRecord => Boolean(section)) : (loaded?.sections ?? [])),
    [liveOrder, byId, loaded],
  );

  // The version the panels (suggestions, threads, changes, trash, preview) reload on.
  const version = liveOrder && liveOutline ? liveVersion(liveOrder, liveOutline) : (loaded?.etag ?? null);
  const current = React.useMemo(() => (loaded ? { sections: loaded.sections, etag: version } : null), [loaded, version]);

  // The article's totals (words, sections) follow the live outline: read again shortly after it changes.
  const firstVersion = React.useRef<string | null>(null);
  React.useEffect(() => {
    if (!version || !version.startsWith('live-')) return;
    if (firstVersion.current === null) {
      firstVersion.current = version;
      return;
    }
    const timer = window.setTimeout(() => changedRef.current(), 300);
    return () => window.clearTimeout(timer);
  }, [version]);

  return { loaded: current, setLoaded, sections, byId, loadSections, readSection };
}
