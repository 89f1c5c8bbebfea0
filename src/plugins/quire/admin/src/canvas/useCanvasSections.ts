/**
 * The canvas's sections: their records read over HTTP (titles, words, source, with the outline's
 * ETag), polled for a change of that ETag, and put in the live document's `order` once it is
 * there (the HTTP order until then). A section the live order names and the records lack (an
 * agent or another editor added it) is read at once.
 */
import * as React from 'react';
import type { SectionRecord } from '../api';
import { useSectionsApi } from '../api/sections';
import type { useLiveArticle } from './live';

/** How often the canvas asks whether the outline changed (a 304 costs one indexed read): titles and word counts. */
export const POLL_MS = 3000;

export interface LoadedSections {
  sections: SectionRecord[];
  etag: string | null;
}

type Live = ReturnType<typeof useLiveArticle>;

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

  // Titles and word counts: poll the outline's ETag; on a change, reload the sections' records
  // (the editors are bound to the live document and are not touched).
  React.useEffect(() => {
    if (!id) return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      if (stopped || document.hidden || !etagRef.current) return;
      try {
        const outline = await api.outlineIfChanged(etagRef.current);
        if (outline === null || stopped) return;
        await loadSections();
        changedRef.current();
      } catch {
        // A failed poll is retried at the next tick.
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [id, loadSections]); // eslint-disable-line react-hooks/exhaustive-deps

  // The order of the live document wins once it is there; the HTTP outline until then.
  const byId = React.useMemo(() => new Map((loaded?.sections ?? []).map((section) => [section.id, section])), [loaded]);
  const liveOrder = live.synced ? live.order : null;
  const missing = liveOrder?.some((sectionId) => !byId.has(sectionId)) ?? false;
  React.useEffect(() => {
    // A section the server added (an agent, another editor): read its record.
    if (missing) loadSections().catch(() => undefined);
  }, [missing, liveOrder?.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  const sections = React.useMemo(
    () => (liveOrder ? liveOrder.map((sectionId) => byId.get(sectionId)).filter((section): section is SectionRecord => Boolean(section)) : (loaded?.sections ?? [])),
    [liveOrder, byId, loaded],
  );

  return { loaded, setLoaded, sections, byId, loadSections, readSection };
}
