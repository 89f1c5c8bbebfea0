/** Suggestions on an article (edits proposed by a suggest-scoped caller), and an editor's decision on each. */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import { articleUrl } from './articles';
import type { AdminSuggestionsInPlace, SuggestionAccepted, SuggestionList, SuggestionOnly, SuggestionsQuery } from './schema-types';

export function useSuggestionsApi(articleId: string) {
  const client = useClient();
  const url = (rest: string) => articleUrl(articleId, rest);
  return {
    list: (query?: SuggestionsQuery) => dataOf<SuggestionList>(client.get(url('/suggestions'), query ? { params: query } : undefined)),
    /** `sections` (anchors): only the operations that change those; the rest stays pending. */
    accept: (anchor: string, sections?: string[]) => dataOf<SuggestionAccepted>(client.post(url(`/suggestions/${anchor}/accept`), sections?.length ? { sections } : {})),
    /** The open ones (pending or stale) with the sections each shows in (the canvas's GET .../in-place-suggestions). */
    inPlace: () => dataOf<AdminSuggestionsInPlace>(client.get(url('/in-place-suggestions'))),
    reject: (anchor: string, reason?: string, sections?: string[]) =>
      dataOf<SuggestionOnly>(client.post(url(`/suggestions/${anchor}/reject`), { ...(reason ? { reason } : {}), ...(sections?.length ? { sections } : {}) })),
  };
}
