/**
 * The article's threads (CONTRACT 24), from GET /quire/articles/{id}/threads, kept current by
 * the live document's meta `threadsRev` (bumped by the server's live channel on thread.* and
 * comment.* events) and by the article's version (typing moves their anchors): see
 * ../use-live-list.
 */
import * as React from 'react';
import { useThreadsApi, type ThreadRecord } from '../../api/threads';
import { useLiveList, type LiveListSignals } from '../use-live-list';

export const useThreads = (articleId: string, signals: LiveListSignals) => {
  const api = useThreadsApi(articleId);
  const { list, reload } = useLiveList<ThreadRecord>(articleId, async () => (await api.list()).threads, signals);
  /** By section anchor. */
  const bySection = React.useMemo(() => {
    const map = new Map<string, ThreadRecord[]>();
    for (const thread of list) map.set(thread.section, [...(map.get(thread.section) ?? []), thread]);
    return map;
  }, [list]);
  return { list, bySection, reload, api };
};
