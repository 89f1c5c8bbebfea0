/**
 * The shapes the API modules send and receive, from the server's schemas only (type-only
 * imports, erased from the bundle; tests/unit/boundaries.test.ts forbids any other server import).
 */
import type { z } from 'zod';
import type * as admin from '../../../server/src/schemas/admin';
import type * as notes from '../../../server/src/schemas/inputs/notes';
import type * as sections from '../../../server/src/schemas/inputs/sections';
import type * as suggestions from '../../../server/src/schemas/inputs/suggestions';
import type * as trash from '../../../server/src/schemas/inputs/trash';
import type * as responses from '../../../server/src/schemas/responses';

export type AdminArticle = z.infer<typeof admin.adminArticle>;
export type AdminArticleDetail = z.infer<typeof admin.adminArticleDetail>;
export type AdminTrashedArticle = z.infer<typeof admin.adminTrashedArticle>;
export type AdminPreview = z.infer<typeof admin.adminPreview>;
export type AdminAgentChanges = z.infer<typeof admin.adminAgentChanges>;
export type AdminPendingSuggestions = z.infer<typeof admin.adminPendingSuggestions>;
export type AdminSuggestionsInPlace = z.infer<typeof admin.adminSuggestionsInPlace>;
export type AdminAcceptedRevision = z.infer<typeof admin.adminAcceptedRevision>;
export type AdminSections = z.infer<typeof admin.adminSections>;
/** GET /quire/owners: a user who owns articles, with how many. */
export type Owner = z.infer<typeof admin.articleOwner>;
export type UserSummaryList = z.infer<typeof admin.userSummaryList>;
export type CreateArticleInput = z.input<typeof admin.adminCreateArticleInput>;

export type Brief = z.infer<typeof responses.brief>;
export type Presence = z.infer<typeof responses.presence>;
export type Outline = z.infer<typeof responses.outlineOnly>;
export type SectionsAdded = z.infer<typeof responses.sectionsAdded>;
export type SectionOnly = z.infer<typeof responses.sectionOnly>;
export type NoteOnly = z.infer<typeof responses.noteOnly>;
export type NoteWithMap = z.infer<typeof responses.noteWithMap>;
export type NotesOnly = z.infer<typeof responses.notesOnly>;
export type PremiseOnly = z.infer<typeof responses.premiseOnly>;
export type RevisionList = z.infer<typeof responses.revisionList>;
export type RevisionOnly = z.infer<typeof responses.revisionOnly>;
export type RevisionRestored = z.infer<typeof responses.revisionRestored>;
export type TrashList = z.infer<typeof responses.trashList>;
export type SuggestionList = z.infer<typeof responses.suggestionList>;
export type SuggestionOnly = z.infer<typeof responses.suggestionOnly>;
export type SuggestionAccepted = z.infer<typeof responses.suggestionAccepted>;
export type Published = z.infer<typeof responses.published>;
export type ArticleOnly = z.infer<typeof responses.articleOnly>;
export type UnfurlPreview = z.infer<typeof responses.preview>;

export type AddSectionsInput = z.input<typeof sections.addSectionsInput>;
export type MoveSectionInput = z.input<typeof sections.moveSectionInput>;
export type CreateNoteInput = z.input<typeof notes.createNoteInput>;
export type PatchNoteInput = z.input<typeof notes.patchNoteInput>;
export type PatchBriefInput = z.input<typeof notes.patchBriefInput>;
export type RestoreFromTrashInput = z.input<typeof trash.restoreFromTrashInput>;
export type SuggestionsQuery = z.input<typeof suggestions.listSuggestionsQuery>;
