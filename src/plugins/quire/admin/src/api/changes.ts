/**
 * An article's change sets (CONTRACT 23, the canvas's Changes panel): the list, "Undo this
 * change" and "Undo this run" (a revert by the editor), and who wrote which passage of a
 * section (the Authors view).
 */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import type { z } from 'zod';
import type { authorSpans, changeList, reverted } from '../../../server/src/schemas/change-sets';
import { articleUrl } from './articles';

export type ChangeList = z.infer<typeof changeList>;
export type ChangeSet = ChangeList['changes'][number];
export type Reverted = z.infer<typeof reverted>;
export type AuthorSpans = z.infer<typeof authorSpans>;

export function useChangesApi(articleId: string) {
  const client = useClient();
  const url = (rest: string) => articleUrl(articleId, rest);
  return {
    /** The newest change sets first (one page). */
    list: (limit = 30) => dataOf<ChangeList>(client.get(url('/changes'), { params: { limit } })),
    /** Undoes one change set in the text as it is now; passages changed since come back as conflicts. */
    revert: (anchor: string) => dataOf<Reverted>(client.post(url(`/changes/${encodeURIComponent(anchor)}/revert`), {})),
    /** Undoes every change set of a run, as one revert. */
    revertRun: (run: string) => dataOf<Reverted>(client.post(url('/changes/revert'), { run })),
    /** A section's text as spans, each with who wrote it. */
    authors: (section: string) => dataOf<AuthorSpans>(client.get(url(`/sections/${encodeURIComponent(section)}/authors`))),
  };
}
