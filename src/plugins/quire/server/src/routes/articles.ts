import { createArticleInput, includeRevQuery, listArticlesQuery, updateArticleInput } from '../schemas/inputs/articles';
import { articleDeleted, articleFull, articleOnly, articlePage, articleWithOutline, outlineOnly } from '../schemas/responses';
import { articleParams, conditionalRead, route, WORKER_ERRORS } from './route';

const outlineRead = conditionalRead('the outline');

export const articleRoutes = route('articles', 'Articles', {
  list: {
    method: 'GET',
    path: '/api/articles',
    summary: 'List your articles',
    description: 'Most recently updated first, a page at a time.',
    query: listArticlesQuery,
    responses: { 200: articlePage },
  },
  create: {
    method: 'POST',
    path: '/api/articles',
    summary: 'Create an article',
    description: 'From a title and optional Markdown (split into sections at its top-level headings; without it, one empty section) and premise.',
    body: createArticleInput,
    responses: { 201: articleWithOutline },
    errors: WORKER_ERRORS,
  },
  get: {
    method: 'GET',
    path: '/api/articles/:id',
    summary: 'Get an article: its record, outline and brief',
    description: 'Its ETag is the outline\'s (the one POST sections and edits take in If-Match).',
    params: articleParams,
    query: includeRevQuery,
    headers: outlineRead.headers,
    responses: { 200: articleFull, 304: outlineRead.notModified },
    responseHeaders: outlineRead.responseHeaders,
  },
  update: {
    method: 'PATCH',
    path: '/api/articles/:id',
    summary: 'Rename an article',
    params: articleParams,
    body: updateArticleInput,
    responses: { 200: articleOnly },
  },
  remove: {
    method: 'DELETE',
    path: '/api/articles/:id',
    summary: 'Delete an article with its sections, notes and public copies',
    params: articleParams,
    responses: { 200: articleDeleted },
  },
  outline: {
    method: 'GET',
    path: '/api/articles/:id/outline',
    summary: 'Get an article\'s outline',
    params: articleParams,
    query: includeRevQuery,
    headers: outlineRead.headers,
    responses: { 200: outlineOnly, 304: outlineRead.notModified },
    responseHeaders: outlineRead.responseHeaders,
  },
});
