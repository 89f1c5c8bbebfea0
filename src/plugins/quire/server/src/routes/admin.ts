/**
 * Admin routes (the admin panel's API), served under the plugin's prefix: /quire/... They are
 * called by the admin pages (admin/src) with the signed-in admin's token; see
 * src/kernel/admin-routes.ts for the conventions and the error format.
 */
import { z } from 'zod';
import { adminData, adminErrorAnswers, adminPage } from '../../../../../kernel/admin-routes';
import { empty } from '../../../../../kernel/routes';
import { QUIRE_ACTIONS } from '../permissions';
import { adminArticle, adminArticleDetail, adminArticlesQuery, adminOwnersQuery, adminSections, articleOwner } from '../schemas/admin';
import {
  addSectionsInput,
  createNoteInput,
  listSuggestionsQuery,
  moveSectionInput,
  patchBriefInput,
  patchNoteInput,
  rejectSuggestionInput,
  replaceSectionInput,
  restoreFromTrashInput,
  unfurlQuery,
} from '../schemas/inputs';
import {
  articleDeleted,
  articleOnly,
  brief,
  noteOnly,
  noteWithMap,
  notesOnly,
  outlineOnly,
  premiseOnly,
  presence,
  preview,
  published,
  revisionList,
  revisionOnly,
  revisionRestored,
  sectionOnly,
  sectionReplaced,
  sectionsAdded,
  suggestionAccepted,
  suggestionList,
  suggestionOnly,
  trashList,
} from '../schemas/responses';
import { revisionParams, trashParams } from './history';
import { noteParams, route, sectionParams } from './route';
import { suggestionParams } from './suggestions';

const { read, edit, publish, delete: remove } = QUIRE_ACTIONS;
const articleParams = z.object({ id: z.string().describe('The article\'s full id.') });
const sectionAt = sectionParams.extend({ id: articleParams.shape.id });
const noteAt = noteParams.extend({ id: articleParams.shape.id });
const revisionAt = revisionParams.extend({ id: articleParams.shape.id });
const trashedAt = trashParams.extend({ id: articleParams.shape.id });
const suggestionAt = suggestionParams.extend({ id: articleParams.shape.id });

export const adminArticleRoutes = route('adminArticles', 'Admin panel', {
  list: {
    method: 'GET',
    path: '/quire/articles',
    summary: 'Every user\'s articles, for the admin panel',
    admin: { actions: [QUIRE_ACTIONS.read] },
    query: adminArticlesQuery,
    responses: { 200: adminPage(adminArticle, 'A page of articles, most recently updated first.'), ...adminErrorAnswers(400) },
  },
  get: {
    method: 'GET',
    path: '/quire/articles/:id',
    summary: 'One article of any user, for the admin panel',
    admin: { actions: [QUIRE_ACTIONS.read] },
    params: articleParams,
    responses: { 200: adminData(adminArticleDetail, 'The article.'), ...adminErrorAnswers(404) },
  },
  owners: {
    method: 'GET',
    path: '/quire/owners',
    summary: 'Users who own articles, for the admin panel\'s owner filter',
    admin: { actions: [QUIRE_ACTIONS.read] },
    query: adminOwnersQuery,
    responses: { 200: adminData(z.array(articleOwner), 'The most prolific first.'), ...adminErrorAnswers(400) },
  },
});

/**
 * The canvas (/admin/plugins/quire/articles/{id}): the content routes of sections 10 to 14, for
 * an editor acting on any user's article (the same services, the article's owner kept). PUT
 * where the content API has PATCH: the admin's fetch client has no PATCH.
 */
export const adminCanvasRoutes = route('adminCanvas', 'Admin panel', {
  outline: {
    method: 'GET',
    path: '/quire/articles/:id/outline',
    summary: 'An article\'s outline, for the canvas to poll',
    description: 'Answers 304 without a body when If-None-Match holds the current ETag (nothing changed in the sections).',
    admin: { actions: [read] },
    params: articleParams,
    headers: { 'If-None-Match': 'The ETag of the outline the canvas shows.' },
    responseHeaders: { ETag: 'Changes whenever a section is added, changed, moved or deleted.' },
    responses: { 200: adminData(outlineOnly, 'The outline.'), 304: empty('Nothing changed since that ETag.'), ...adminErrorAnswers(404) },
  },
  sections: {
    method: 'GET',
    path: '/quire/articles/:id/sections',
    summary: 'Every section of an article with its content, for the canvas',
    admin: { actions: [read] },
    params: articleParams,
    responseHeaders: { ETag: 'The outline\'s ETag at this read.' },
    responses: { 200: adminData(adminSections, 'The sections, in order.'), ...adminErrorAnswers(404) },
  },
  section: {
    method: 'GET',
    path: '/quire/articles/:id/sections/:sid',
    summary: 'One section with its content',
    admin: { actions: [read] },
    params: sectionAt,
    responseHeaders: { ETag: 'The section\'s revision: send it back as If-Match when saving.' },
    responses: { 200: adminData(sectionOnly, 'The section.'), ...adminErrorAnswers(400, 404) },
  },
  replace: {
    method: 'PUT',
    path: '/quire/articles/:id/sections/:sid',
    summary: 'Save a section from the canvas',
    description: 'As `html` (the canvas: one section, HTML canonical, sanitised) or `markdown`.',
    admin: { actions: [edit] },
    params: sectionAt,
    body: replaceSectionInput,
    headers: { 'If-Match': 'The section\'s ETag when the editor opened it: a section changed since is 412, nothing written.' },
    responseHeaders: { ETag: 'The section\'s new revision.' },
    responses: { 200: adminData(sectionReplaced, 'The section saved.'), ...adminErrorAnswers(400, 404, 412, 413, 429) },
  },
  add: {
    method: 'POST',
    path: '/quire/articles/:id/sections',
    summary: 'Add sections from the canvas',
    admin: { actions: [edit] },
    params: articleParams,
    body: addSectionsInput,
    headers: { 'If-Match': 'The outline\'s ETag (optional): an outline changed since is 412, nothing written.' },
    responseHeaders: { ETag: 'The outline\'s new ETag.' },
    responses: { 201: adminData(sectionsAdded, 'The new sections.'), ...adminErrorAnswers(400, 404, 412, 413, 429) },
  },
  move: {
    method: 'POST',
    path: '/quire/articles/:id/sections/:sid/move',
    summary: 'Move a section after or before another',
    admin: { actions: [edit] },
    params: sectionAt,
    body: moveSectionInput,
    headers: { 'If-Match': 'The moved section\'s ETag (optional): a section changed since is 412, nothing moved.' },
    responseHeaders: { ETag: 'The outline\'s new ETag.' },
    responses: { 200: adminData(outlineOnly, 'The outline after the move.'), ...adminErrorAnswers(400, 404, 412) },
  },
  removeSection: {
    method: 'DELETE',
    path: '/quire/articles/:id/sections/:sid',
    summary: 'Delete a section',
    admin: { actions: [edit] },
    params: sectionAt,
    headers: { 'If-Match': 'The section\'s ETag as the editor saw it (optional): a section changed since is 412, nothing deleted.' },
    responseHeaders: { ETag: 'The outline\'s new ETag.' },
    responses: { 200: adminData(outlineOnly, 'The outline after the deletion.'), ...adminErrorAnswers(400, 404, 412) },
  },
  presence: {
    method: 'GET',
    path: '/quire/articles/:id/presence',
    summary: 'Who is in the article (the canvas\'s [data-presence])',
    admin: { actions: [read] },
    params: articleParams,
    responses: { 200: adminData(presence, 'Editors with it open, agents that wrote in the last 60 s.'), ...adminErrorAnswers(404) },
  },
  brief: {
    method: 'GET',
    path: '/quire/articles/:id/brief',
    summary: 'The Brief: premise and every note',
    admin: { actions: [read] },
    params: articleParams,
    responses: { 200: adminData(brief, 'The Brief.'), ...adminErrorAnswers(404) },
  },
  premise: {
    method: 'PUT',
    path: '/quire/articles/:id/brief',
    summary: 'Set or clear the premise',
    admin: { actions: [edit] },
    params: articleParams,
    body: patchBriefInput,
    responses: { 200: adminData(premiseOnly, 'The premise.'), ...adminErrorAnswers(400, 404, 413) },
  },
  addNote: {
    method: 'POST',
    path: '/quire/articles/:id/notes',
    summary: 'Add a note (createdBy human)',
    admin: { actions: [edit] },
    params: articleParams,
    body: createNoteInput,
    responses: { 201: adminData(noteWithMap, 'The note, and the notes map.'), ...adminErrorAnswers(400, 404, 413, 429) },
  },
  note: {
    method: 'GET',
    path: '/quire/articles/:id/notes/:nid',
    summary: 'One note, with the ETag its edits send back',
    admin: { actions: [read] },
    params: noteAt,
    responseHeaders: { ETag: 'The note\'s revision: send it back as If-Match when changing or deleting the note.' },
    responses: { 200: adminData(noteOnly, 'The note.'), ...adminErrorAnswers(400, 404) },
  },
  updateNote: {
    method: 'PUT',
    path: '/quire/articles/:id/notes/:nid',
    summary: 'Change a note\'s fields',
    admin: { actions: [edit] },
    params: noteAt,
    body: patchNoteInput,
    headers: { 'If-Match': 'The note\'s ETag when the editor opened it (optional): a note changed since is 412, nothing written.' },
    responseHeaders: { ETag: 'The note\'s new revision.' },
    responses: { 200: adminData(noteWithMap, 'The note, and the notes map.'), ...adminErrorAnswers(400, 404, 412, 413, 429) },
  },
  removeNote: {
    method: 'DELETE',
    path: '/quire/articles/:id/notes/:nid',
    summary: 'Delete a note',
    admin: { actions: [edit] },
    params: noteAt,
    headers: { 'If-Match': 'The note\'s ETag when the editor asked to delete it (optional): a note changed since is 412, nothing deleted.' },
    responses: { 200: adminData(notesOnly, 'The notes map.'), ...adminErrorAnswers(400, 404, 412) },
  },
  publish: {
    method: 'POST',
    path: '/quire/articles/:id/publish',
    summary: 'Publish (or republish) an article',
    admin: { actions: [publish] },
    params: articleParams,
    responses: { 200: adminData(published, 'The article and its public URLs.'), ...adminErrorAnswers(400, 404, 429) },
  },
  unpublish: {
    method: 'DELETE',
    path: '/quire/articles/:id/publish',
    summary: 'Take an article\'s public page down',
    admin: { actions: [publish] },
    params: articleParams,
    responses: { 200: adminData(articleOnly, 'The article, a draft again.'), ...adminErrorAnswers(404) },
  },
  removeArticle: {
    method: 'DELETE',
    path: '/quire/articles/:id',
    summary: 'Delete an article with its sections, notes and public copies',
    admin: { actions: [remove] },
    params: articleParams,
    responses: { 200: adminData(articleDeleted, 'The deleted article\'s id.'), ...adminErrorAnswers(404) },
  },
  // Review (CONTRACT 12 and 14): the history and suggestions services, the editor deciding.
  revisions: {
    method: 'GET',
    path: '/quire/articles/:id/sections/:sid/revisions',
    summary: 'A section\'s versions, newest first, the current one included',
    admin: { actions: [read] },
    params: sectionAt,
    responses: { 200: adminData(revisionList, 'The versions, each with who made it.'), ...adminErrorAnswers(400, 404) },
  },
  revision: {
    method: 'GET',
    path: '/quire/articles/:id/sections/:sid/revisions/:rev',
    summary: 'One version of a section, with its Markdown and HTML',
    admin: { actions: [read] },
    params: revisionAt,
    responses: { 200: adminData(revisionOnly, 'The version.'), ...adminErrorAnswers(400, 404) },
  },
  restoreRevision: {
    method: 'POST',
    path: '/quire/articles/:id/sections/:sid/revisions/:rev/restore',
    summary: 'Make a version of a section current again, as a new revision by the editor',
    admin: { actions: [edit] },
    params: revisionAt,
    headers: { 'If-Match': 'The section\'s ETag as the editor saw it (optional): a section changed since is 412, nothing written.' },
    responseHeaders: { ETag: 'The section\'s new revision.' },
    responses: { 200: adminData(revisionRestored, 'The section restored, and the outline.'), ...adminErrorAnswers(400, 404, 412, 429) },
  },
  trash: {
    method: 'GET',
    path: '/quire/articles/:id/trash',
    summary: 'The article\'s deleted sections (kept 30 days), most recently deleted first',
    admin: { actions: [read] },
    params: articleParams,
    responses: { 200: adminData(trashList, 'The deleted sections.'), ...adminErrorAnswers(404) },
  },
  restoreFromTrash: {
    method: 'POST',
    path: '/quire/articles/:id/trash/:anchor/restore',
    summary: 'Put a deleted section back, with its id, content and history',
    description: 'After or before a section, or at the end when neither is given.',
    admin: { actions: [edit] },
    params: trashedAt,
    body: restoreFromTrashInput,
    headers: { 'If-Match': 'The outline\'s ETag (optional): an outline changed since is 412, nothing written.' },
    responseHeaders: { ETag: 'The outline\'s new ETag.' },
    responses: { 200: adminData(outlineOnly, 'The outline with the section back.'), ...adminErrorAnswers(400, 404, 412) },
  },
  suggestions: {
    method: 'GET',
    path: '/quire/articles/:id/suggestions',
    summary: 'The article\'s suggestions, newest first',
    admin: { actions: [read] },
    params: articleParams,
    query: listSuggestionsQuery,
    responses: { 200: adminData(suggestionList, 'The suggestions.'), ...adminErrorAnswers(400, 404) },
  },
  suggestion: {
    method: 'GET',
    path: '/quire/articles/:id/suggestions/:anchor',
    summary: 'One suggestion',
    admin: { actions: [read] },
    params: suggestionAt,
    responses: { 200: adminData(suggestionOnly, 'The suggestion.'), ...adminErrorAnswers(400, 404) },
  },
  acceptSuggestion: {
    method: 'POST',
    path: '/quire/articles/:id/suggestions/:anchor/accept',
    summary: 'Accept a suggestion: apply its ops atomically, decided by the editor',
    description:
      'On the revisions it was made against: if a section it touches has changed since, 412 and the suggestion becomes stale. A suggestion no longer pending is 409.',
    admin: { actions: [edit] },
    params: suggestionAt,
    responseHeaders: { ETag: 'The outline\'s ETag after the edits.' },
    responses: { 200: adminData(suggestionAccepted, 'The suggestion (accepted) and the outline.'), ...adminErrorAnswers(400, 404, 409, 412, 429) },
  },
  rejectSuggestion: {
    method: 'POST',
    path: '/quire/articles/:id/suggestions/:anchor/reject',
    summary: 'Reject a suggestion, decided by the editor',
    admin: { actions: [edit] },
    params: suggestionAt,
    body: rejectSuggestionInput,
    responses: { 200: adminData(suggestionOnly, 'The suggestion (rejected).'), ...adminErrorAnswers(400, 404, 409) },
  },
  unfurl: {
    method: 'GET',
    path: '/quire/unfurl',
    summary: 'A link\'s preview card, for a pasted link',
    admin: { actions: [edit] },
    query: unfurlQuery,
    responses: { 200: adminData(preview, 'The preview.'), ...adminErrorAnswers(400, 429) },
    // A page that answers with an error is 404; one that cannot be fetched, 500.
  },
});
