/**
 * The article's threads (CONTRACT 24): read from GET /quire/articles/{id}/threads when the
 * canvas opens, whenever the outline changes (typing moves their anchors), and at once when the
 * live document says one was opened, answered, resolved or reopened (meta `threadsRev`, bumped
 * by the server's live channel on thread.* and comment.* events, within a second). A slow poll
 * stands in while the live document is away.
 */
import * as React from 'react';
import { useThreadsApi, type ThreadRecord } from '../../api/threads';

/** While the live document is away, how often threads are looked for. */
export const THREADS_POLL_MS = 15_000;

export const useThreads = (articleId: string, { version, liveRev, live }: { version: string | null; liveRev: unknown; live: boolean }) => {
  const api = useThreadsApi(articleId);
  const [list, setList] = React.useState<ThreadRecord[]>([]);
  const asked = React.useRef(0);
  const reload = React.useCallback(async () => {
    const mine = ++asked.current;
    const { threads } = await api.list();
    // An older answer arriving after a newer one is dropped.
    if (mine === asked.current) setList(threads);
  }, [articleId]); // eslint-disable-line react-hooks/exhaustive-deps
  React.useEffect(() => {
    reload().catch(() => undefined);
  }, [reload, version, liveRev]);
  React.useEffect(() => {
    if (live) return;
    const timer = window.setInterval(() => {
      if (!document.hidden) reload().catch(() => undefined);
    }, THREADS_POLL_MS);
    return () => window.clearInterval(timer);
  }, [reload, live]);
  /** By section anchor. */
  const bySection = React.useMemo(() => {
    const map = new Map<string, ThreadRecord[]>();
    for (const thread of list) map.set(thread.section, [...(map.get(thread.section) ?? []), thread]);
    return map;
  }, [list]);
  return { list, bySection, reload, api };
};
