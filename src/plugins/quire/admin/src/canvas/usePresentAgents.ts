/**
 * The agents present in an article: those who wrote in the last 60 s (the server's presence
 * route), asked now and then and whenever the live document says something changed.
 */
import * as React from 'react';
import { useLiveApi } from '../api/live';
import type { PresentAgent } from './Presence';

/** How often the agents present are asked for (they count as present 60 s after a write). */
export const PRESENCE_MS = 5000;

export function usePresentAgents(id: string, found: boolean, metaVersion: number) {
  const api = useLiveApi();
  const [agents, setAgents] = React.useState<PresentAgent[]>([]);
  React.useEffect(() => {
    if (!found) return;
    let stopped = false;
    const ask = async () => {
      if (document.hidden) return;
      try {
        const { present } = await api.presence(id);
        if (!stopped) setAgents(present.filter((entry) => entry.kind !== 'editor'));
      } catch {
        // No presence route (yet), or a failed ask: the people in the article still show.
      }
    };
    void ask();
    const timer = window.setInterval(ask, PRESENCE_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [found, id, metaVersion]); // eslint-disable-line react-hooks/exhaustive-deps
  return agents;
}
