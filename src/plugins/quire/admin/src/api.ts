/** What the plugin's admin routes answer: the server's own types (type-only imports, erased from the bundle). */
import type { z } from 'zod';
import type { actor, editResult, revisionEntry, revisionRecord, suggestionRecord, trashEntry } from '../../server/src/schemas/records';
import type { ArticleOwner } from '../../server/src/services/admin-articles';
import type { adminSuggestionInPlace, adminSuggestionPlace } from '../../server/src/schemas/admin';

export type { AdminArticle, AdminArticleDetail, ArticleOwner } from '../../server/src/services/admin-articles';
export type { LinkPreview, NoteKind, NoteRecord, OutlineEntry, SectionRecord } from '../../server/src/schemas/records';

/** Review (CONTRACT 12, 14): who made a change, a section's versions, the trash, suggestions. */
export type Actor = z.infer<typeof actor>;
export type RevisionEntry = z.infer<typeof revisionEntry>;
export type Revision = z.infer<typeof revisionRecord>;
export type TrashEntry = z.infer<typeof trashEntry>;
export type Suggestion = z.infer<typeof suggestionRecord>;
export type EditResult = z.infer<typeof editResult>;
/** An open suggestion (pending or stale) with the sections it shows in (GET .../in-place-suggestions). */
export type SuggestionInPlace = z.infer<typeof adminSuggestionInPlace>;
export type SuggestionPlace = z.infer<typeof adminSuggestionPlace>;

/** GET /quire/owners: a user who owns articles, with how many. */
export type Owner = ArticleOwner & { articles: number };

/** The admin routes of one article (routes/admin.ts on the server). */
export const articleUrl = (id: string, rest = '') => `/quire/articles/${encodeURIComponent(id)}${rest}`;

/** A response read as text (the admin's JSON reader hides headers): its parsed `data` and ETag. */
export const parsed = <T,>(response: unknown): { data: T; etag: string | null } => {
  const { data, headers } = response as { data: string; headers?: Headers };
  return { data: JSON.parse(data).data as T, etag: headers?.get('ETag') ?? null };
};

/** Whether a write was refused because what it changes changed since it was read (412). */
export const isConflict = (problem: unknown) => (problem as { status?: number } | null)?.status === 412;
