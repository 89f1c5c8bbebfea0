import { z } from 'zod';
import { listSuggestionsQuery, rejectSuggestionInput, suggestInput } from '../schemas/inputs/suggestions';
import { suggestionAccepted, suggestionList, suggestionOnly } from '../schemas/responses';
import { acceptSuggestionInput } from '../schemas/change-sets';
import { articleId, articleParams, pathSegment, route, WORKER_ERRORS } from './route';

export const suggestionParams = z.object({ id: articleId, anchor: pathSegment('a suggestion anchor').describe('A suggestion\'s anchor: a unique prefix of its id.') });

export const suggestionRoutes = route('suggestions', 'Suggestions', {
  create: {
    method: 'POST',
    path: '/api/articles/:id/suggestions',
    summary: 'Suggest edits for review instead of applying them',
    description: 'ops as for POST /api/articles/{id}/edits; they are checked (a dry run) now, and applied when someone with write access accepts.',
    params: articleParams,
    body: suggestInput,
    suggestible: true,
    responses: { 201: suggestionOnly },
    errors: [...WORKER_ERRORS, 'precondition-failed'],
  },
  list: {
    method: 'GET',
    path: '/api/articles/:id/suggestions',
    summary: 'List the article\'s suggestions, newest first',
    params: articleParams,
    query: listSuggestionsQuery,
    responses: { 200: suggestionList },
  },
  get: {
    method: 'GET',
    path: '/api/articles/:id/suggestions/:anchor',
    summary: 'Get a suggestion',
    params: suggestionParams,
    responses: { 200: suggestionOnly },
    errors: ['invalid-argument'],
  },
  accept: {
    method: 'POST',
    path: '/api/articles/:id/suggestions/:anchor/accept',
    summary: 'Accept a suggestion: apply its ops atomically',
    description:
      'On the revisions it was made against: if a section it touches has changed since, 412 precondition-failed and the suggestion becomes stale. With sections, only the operations that change those sections are applied and the rest stays pending. Needs a write credential (a suggest key gets 403).',
    params: suggestionParams,
    body: acceptSuggestionInput,
    responses: { 200: suggestionAccepted },
    responseHeaders: { ETag: 'The outline\'s ETag after the edits.' },
    errors: [...WORKER_ERRORS, 'precondition-failed', 'conflict'],
  },
  reject: {
    method: 'POST',
    path: '/api/articles/:id/suggestions/:anchor/reject',
    summary: 'Reject a suggestion',
    description: 'All of it, or with `sections` (anchors of sections it changes) only the operations that change those sections: they are recorded as a rejected change set with the reason, and the rest stays pending.',
    params: suggestionParams,
    body: rejectSuggestionInput,
    responses: { 200: suggestionOnly },
    errors: ['invalid-argument', 'conflict'],
  },
});
