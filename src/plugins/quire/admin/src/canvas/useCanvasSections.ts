/**
 * The canvas's sections: their records read over HTTP (titles, words, source, with the outline's
 * ETag), polled for a change of that ETag, and put in the live document's `order` once it is
 * there (the HTTP order until then). A section the live order names and the records lack (an
 * agent or another editor added it) is read at once.
 */
import { useFetchClient } from '@strapi/strapi/admin';
import * as React from 'react';
import { articleUrl, parsed, type SectionRecord } from '../api';
import type { useLiveArticle } from './live';

/** How often the canvas asks whether the outline changed (a 304 costs one indexed read): titles and word counts. */
export const POLL_MS = 3000;

export interface LoadedSections {
  sections: SectionRecord[];
  etag: string | null;
}

type Live = ReturnType<typeof useLiveArticle>;

export function useCanvasSections(id: string, found: boolean, live: Live, onOutlineChanged: () => void, fail: (problem: unknown) => void) {
  const { get } = useFetchClient();
  const [loaded, setLoaded] = React.useState<LoadedSections | null>(null);
  const etagRef = React.useRef<string | null>(null);
  const changedRef = React.useRef(onOutlineChanged);
  changedRef.current = onOutlineChanged;

  /** The sections and the outline's ETag they match (read as text: the JSON reader hides headers). */
  const loadSections = React.useCallback(async () => {
    const { data: answer, etag } = parsed<{ sections: SectionRecord[] }>(await get<string>(articleUrl(id, '/sections'), { responseType: 'text' } as never));
    etagRef.current = etag;
    setLoaded({ sections: answer.sections, etag });
  }, [id]); // eslint-disable-line react-hooks/exhaustive-deps

  /** The current version of a section, with its ETag (the revisions dialog restores over it). */
  const readSection = async (anchor: string) => {
    const { data: answer, etag } = parsed<{ section: SectionRecord }>(await get<string>(articleUrl(id, `/sections/${anchor}`), { responseType: 'text' } as never));
    return { section: answer.section, etag };
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
        const response = await get<string>(articleUrl(id, '/outline'), {
          responseType: 'text',
          headers: { 'If-None-Match': etagRef.current },
          validateStatus: (status: number) => status === 304,
        } as never);
        if ((response as { status?: number }).status === 304 || stopped) return;
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
