/**
 * The agents present in an article (CONTRACT 19): those who wrote in the last 60 s, as the live
 * document's `presence` holds them (the server notes each writer when its article event
 * arrives, with the time it stops counting: CONTRACT 22, no polling). An entry shows until its
 * `until`; the page re-renders when the next one expires.
 */
import * as React from 'react';
import type { LivePresence } from './live';
import type { PresentAgent } from './Presence';

/** The entries present at `now`, as the presence bar lists them. */
export function presentAt(presence: Record<string, LivePresence>, now: number): PresentAgent[] {
  return Object.values(presence)
    .filter((entry) => entry && entry.kind !== ('editor' as string) && Number(entry.until) > now)
    .map((entry) => ({ kind: entry.kind, name: entry.name, section: entry.section, since: new Date(entry.since).toISOString() }));
}

export function usePresentAgents(presence: Record<string, LivePresence>) {
  const [now, setNow] = React.useState(() => Date.now());
  const agents = React.useMemo(() => presentAt(presence, now), [presence, now]);
  // Wake when the next entry expires (the server drops it only at the next write).
  React.useEffect(() => {
    const current = Date.now();
    const next = Math.min(...Object.values(presence).map((entry) => Number(entry?.until)).filter((until) => until > current));
    if (!Number.isFinite(next)) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(next - current + 50, 2 ** 31 - 1));
    return () => window.clearTimeout(timer);
  }, [presence, now]);
  React.useEffect(() => setNow(Date.now()), [presence]);
  return agents;
}
