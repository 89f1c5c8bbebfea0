/**
 * The article's open suggestions, where they show (CONTRACT 20), from
 * GET /quire/articles/{id}/in-place-suggestions, kept current by the live document's meta
 * `suggestionsRev` (bumped by the server's live channel when one is made or decided) and by the
 * article's version (a section stored may make one stale): see ../use-live-list.
 */
import * as React from 'react';
import type { SuggestionInPlace, SuggestionPlace } from '../../api';
import { useSuggestionsApi } from '../../api/suggestions';
import { useMessages } from '../../messages';
import { useLiveList, type LiveListSignals } from '../use-live-list';

/** A suggestion as one section shows it. */
export interface SectionSuggestion {
  suggestion: SuggestionInPlace;
  place: SuggestionPlace;
}

export const useSuggestionsInPlace = (articleId: string, signals: LiveListSignals) => {
  const api = useSuggestionsApi(articleId);
  const { list, reload } = useLiveList<SuggestionInPlace>(articleId, async () => (await api.inPlace()).suggestions, signals);
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
