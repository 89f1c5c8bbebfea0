/**
 * The shapes the plugin's admin routes answer, from the server's schemas only (type-only
 * imports, erased from the bundle). The calls themselves are in api/<resource>.ts (articles,
 * sections, notes, suggestions, trash, live, widgets), on the kernel's admin-ui/fetch.ts.
 */
import type { z } from 'zod';
import type { actor, editResult, revisionEntry, revisionRecord, suggestionRecord, trashEntry } from '../../server/src/schemas/records';
import type { Owner } from './api/schema-types';
import type { adminSuggestionInPlace, adminSuggestionPlace } from '../../server/src/schemas/admin';

export type { AdminArticle, AdminArticleDetail, Owner } from './api/schema-types';
export type { LinkPreview, NoteKind, NoteRecord, OutlineEntry, SectionRecord } from '../../server/src/schemas/records';
export { articleUrl } from './api/articles';

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

/** A user who owns articles (GET /quire/owners without the count). */
export type ArticleOwner = Omit<Owner, 'articles'>;
