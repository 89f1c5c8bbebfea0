/**
 * The article's open suggestions, where they show (CONTRACT 20): read from
 * GET /quire/articles/{id}/in-place-suggestions when the canvas opens, whenever the outline
 * changes (a section stored may make one stale), and at once when the live document says a
 * suggestion was made or decided (meta `suggestionsRev`, bumped by the server's live channel).
 * A slow poll stands in while the live document is away.
 */
import * as React from 'react';
import type { SuggestionInPlace, SuggestionPlace } from '../../api';
import { useSuggestionsApi } from '../../api/suggestions';
import { useMessages } from '../../messages';

/** While the live document is away, how often suggestions are looked for. */
export const SUGGESTIONS_POLL_MS = 15_000;

/** A suggestion as one section shows it. */
export interface SectionSuggestion {
  suggestion: SuggestionInPlace;
  place: SuggestionPlace;
}

export const useSuggestionsInPlace = (articleId: string, { version, liveRev, live }: { version: string | null; liveRev: unknown; live: boolean }) => {
  const api = useSuggestionsApi(articleId);
  const [list, setList] = React.useState<SuggestionInPlace[]>([]);
  const asked = React.useRef(0);
  const reload = React.useCallback(async () => {
    const mine = ++asked.current;
    const { suggestions } = await api.inPlace();
    // An older answer arriving after a newer one is dropped.
    if (mine === asked.current) setList(suggestions);
  }, [articleId]); // eslint-disable-line react-hooks/exhaustive-deps
  React.useEffect(() => {
    reload().catch(() => undefined);
  }, [reload, version, liveRev]);
  React.useEffect(() => {
    if (live) return;
    const timer = window.setInterval(() => {
      if (!document.hidden) reload().catch(() => undefined);
    }, SUGGESTIONS_POLL_MS);
    return () => window.clearInterval(timer);
  }, [reload, live]);
  const bySection = React.useMemo(() => {
    const map = new Map<string, SectionSuggestion[]>();
    for (const suggestion of list) {
      for (const place of suggestion.places) map.set(place.section, [...(map.get(place.section) ?? []), { suggestion, place }]);
    }
    return map;
  }, [list]);
  return { list, bySection, reload };
};

/**
 * Accepting and rejecting (the canvas's admin routes, the editor deciding). An accept the server
 * finds stale (412: a section changed since) decides nothing: the editor is told, and the
 * suggestion shows again, to apply by hand. `onDecided` reloads the sections and totals.
 */
export const useDecide = (articleId: string, reload: () => Promise<void>, onDecided: () => void) => {
  const { m, notify } = useMessages();
  const api = useSuggestionsApi(articleId);
  return React.useCallback(
    async (suggestion: SuggestionInPlace, decision: 'accept' | 'reject', reason: string | null = null, sections?: string[]): Promise<boolean> => {
      let ok = false;
      try {
        // `sections`: accepted or rejected in those sections only, the rest stays pending (CONTRACT 23).
        if (decision === 'accept') await api.accept(suggestion.anchor, sections);
        else await api.reject(suggestion.anchor, reason ?? undefined, sections);
        if (sections?.length) notify.success(decision === 'accept' ? m('review.acceptedHere', 'Suggestion accepted in this section') : m('review.rejectedHere', 'Suggestion rejected in this section'));
        else notify.success(decision === 'accept' ? m('review.accepted', 'Suggestion accepted') : m('review.rejected', 'Suggestion rejected'));
        ok = true;
      } catch (error) {
        if ((error as { status?: number }).status === 412) {
          notify.warning(m('suggestions.staleOnAccept', 'This section changed since the suggestion was made, so it was not applied. Apply it by hand, or reject it.'));
        } else notify.failure(error);
      }
      await reload().catch(() => undefined);
      if (ok) onDecided();
      return ok;
    },
    [articleId, reload, onDecided], // eslint-disable-line react-hooks/exhaustive-deps
  );
};

export type Decide = ReturnType<typeof useDecide>;

/** Whether a key or a paste in a section changes its text (a person starting to type), not moving the caret or a shortcut. */
export const startsTyping = (event: React.KeyboardEvent | React.ClipboardEvent): boolean => {
  if (!(event.target as HTMLElement | null)?.closest?.('[data-section-editor][contenteditable="true"]')) return false;
  if (event.type === 'paste') return true;
  const { key, ctrlKey, metaKey, altKey } = event as React.KeyboardEvent;
  if (ctrlKey || metaKey || altKey) return false;
  return key.length === 1 || key === 'Backspace' || key === 'Delete' || key === 'Enter';
};
