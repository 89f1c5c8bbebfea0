/**
 * A list the canvas shows beside the sections and keeps current for everyone (suggestions,
 * threads): read when the canvas opens, whenever the article's version changes (a section
 * stored may change what the list says: an anchor moved, a suggestion gone stale), and at once
 * when the live document's meta counter for it moves (bumped by the server's live channel on
 * the list's events, within a second). While the live document is away, a slow poll stands in
 * (skipped while the tab is hidden).
 */
import * as React from 'react';

/** While the live document is away, how often a live list is read again. */
export const LIVE_LIST_POLL_MS = 15_000;

export interface LiveListSignals {
  /** The article's version (its ETag): a new one reads the list again. */
  version: string | null;
  /** The live document's meta counter for this list. */
  liveRev: unknown;
  /** Whether the live document is connected and synced (else the poll runs). */
  live: boolean;
}

/**
 * `load` reads the list; `key` names what it reads (the article id): a new key reads at once.
 * An answer older than the latest asked is dropped, so a slow read never overwrites a newer one.
 */
export function useLiveList<T>(key: string, load: () => Promise<T[]>, { version, liveRev, live }: LiveListSignals) {
  const [list, setList] = React.useState<T[]>([]);
  const asked = React.useRef(0);
  // The latest `load`, without re-subscribing on every render (callers pass a fresh closure).
  const loader = React.useRef(load);
  loader.current = load;
  const reload = React.useCallback(async () => {
    const mine = ++asked.current;
    const items = await loader.current();
    if (mine === asked.current) setList(items);
  }, [key]);
  React.useEffect(() => {
    reload().catch(() => undefined);
  }, [reload, version, liveRev]);
  React.useEffect(() => {
    if (live) return;
    const timer = window.setInterval(() => {
      if (!document.hidden) reload().catch(() => undefined);
    }, LIVE_LIST_POLL_MS);
    return () => window.clearInterval(timer);
  }, [reload, live]);
  return { list, reload };
}
