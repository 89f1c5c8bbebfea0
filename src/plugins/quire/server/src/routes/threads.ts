import { z } from 'zod';
import { commentInput, commentOnly, createThreadInput, listThreadsQuery, threadList, threadOnly } from '../schemas/threads';
import { articleId, articleParams, pathSegment, route, WORKER_ERRORS } from './route';

export const threadParams = z.object({ id: articleId, anchor: pathSegment('a thread anchor').describe('A thread\'s anchor: a unique prefix of its id.') });

/**
 * Threads (CONTRACT 24). Commenting is talking, not editing: `write` and `suggest` credentials
 * may, `read` ones list and read. The writes are declared suggestible so that a `suggest`
 * credential passes the scope check; their controller serves both scopes with one handler.
 */
export const threadRoutes = route('threads', 'Threads', {
  create: {
    method: 'POST',
    path: '/api/articles/:id/threads',
    summary: 'Open a thread on quoted text of a section',
    description:
      'The quote must occur in the section\'s text as a reader sees it (the occurrence-th, default 1), else 400 naming the section. The thread follows its text through every edit, live typing included, and is kept with detached: true when all of its text is deleted. @skill in the body starts that skill of your organization (people only).',
    params: articleParams,
    body: createThreadInput,
    suggestible: true,
    responses: { 201: threadOnly },
    errors: [...WORKER_ERRORS, 'conflict'],
  },
  list: {
    method: 'GET',
    path: '/api/articles/:id/threads',
    summary: 'List the article\'s threads, in outline order',
    params: articleParams,
    query: listThreadsQuery,
    responses: { 200: threadList },
  },
  get: {
    method: 'GET',
    path: '/api/articles/:id/threads/:anchor',
    summary: 'Get a thread with its comments',
    params: threadParams,
    responses: { 200: threadOnly },
    errors: ['invalid-argument'],
  },
  reply: {
    method: 'POST',
    path: '/api/articles/:id/threads/:anchor/comments',
    summary: 'Reply in a thread',
    description: '@skill in the body starts that skill of your organization with the thread as input (people only); its reply is posted in the thread when it finishes.',
    params: threadParams,
    body: commentInput,
    suggestible: true,
    responses: { 201: commentOnly },
    errors: [...WORKER_ERRORS],
  },
  resolve: {
    method: 'POST',
    path: '/api/articles/:id/threads/:anchor/resolve',
    summary: 'Resolve a thread',
    params: threadParams,
    suggestible: true,
    responses: { 200: threadOnly },
    errors: ['invalid-argument', 'rate-limited'],
  },
  reopen: {
    method: 'POST',
    path: '/api/articles/:id/threads/:anchor/reopen',
    summary: 'Reopen a resolved thread',
    params: threadParams,
    suggestible: true,
    responses: { 200: threadOnly },
    errors: ['invalid-argument', 'rate-limited'],
  },
});
