import { z } from 'zod';
import { authorship, authorSpans, changeList, changeOnly, listChangesQuery, reverted, revertInput, revertRunInput } from '../schemas/change-sets';
import { suggestionOnly } from '../schemas/responses';
import { articleId, articleParams, pathSegment, route, sectionParams, WORKER_ERRORS } from './route';

export const changeParams = z.object({ id: articleId, anchor: pathSegment('a change set anchor').describe('A change set\'s anchor: a unique prefix of its id.') });

const REVERT =
  'In the text as it is now: what it inserted and is still there is removed, what it deleted is put back where it was, and what others wrote since stays. ' +
  'A passage changed since is not reverted but listed in conflicts; 409 conflict when nothing could be reverted (or it was reverted already). ' +
  'The revert is a change set of its own (change). A suggest key\'s revert becomes a suggestion (202).';

/** Change sets (CONTRACT 23): every write, listed, shown with its diff, reverted; and who wrote what. */
export const changeRoutes = route('changes', 'Change sets', {
  list: {
    method: 'GET',
    path: '/api/articles/:id/changes',
    summary: 'List the article\'s change sets, newest first',
    description: 'Every write that changed the article\'s text or structure (or its Brief) is one change set. Filters: since (an anchor or ISO time), by (a kind), run, section. Paged with limit and cursor.',
    params: articleParams,
    query: listChangesQuery,
    responses: { 200: changeList },
    errors: ['invalid-argument'],
  },
  revertRun: {
    method: 'POST',
    path: '/api/articles/:id/changes/revert',
    summary: 'Revert every change set of a run, as one revert',
    description: `The run's change sets, newest first, as one change set. ${REVERT}`,
    params: articleParams,
    body: revertRunInput,
    suggestible: true,
    responses: { 200: reverted, 202: suggestionOnly },
    errors: [...WORKER_ERRORS, 'conflict', 'precondition-failed'],
  },
  get: {
    method: 'GET',
    path: '/api/articles/:id/changes/:anchor',
    summary: 'Get a change set with its word-level diff per section',
    params: changeParams,
    responses: { 200: changeOnly },
    errors: ['invalid-argument'],
  },
  revert: {
    method: 'POST',
    path: '/api/articles/:id/changes/:anchor/revert',
    summary: 'Revert a change set in the text as it is now',
    description: REVERT,
    params: changeParams,
    body: revertInput,
    suggestible: true,
    responses: { 200: reverted, 202: suggestionOnly },
    errors: [...WORKER_ERRORS, 'conflict', 'precondition-failed'],
  },
  authors: {
    method: 'GET',
    path: '/api/articles/:id/sections/:sid/authors',
    summary: 'Who wrote which passage of a section',
    description: 'Spans of the section\'s text in order, each with who wrote it and in which change set; joined, they are the section\'s text (its Markdown, heading included; its HTML for an html section).',
    params: sectionParams,
    responses: { 200: authorSpans },
    errors: ['invalid-argument'],
  },
  authorship: {
    method: 'GET',
    path: '/api/articles/:id/authorship',
    summary: 'The article\'s words by who wrote them',
    description: 'By kind (agent, human, editor) and by writer. Text older than change sets is counted for nobody.',
    params: articleParams,
    responses: { 200: authorship },
  },
});
