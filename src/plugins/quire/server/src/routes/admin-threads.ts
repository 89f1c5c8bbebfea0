/**
 * Threads in the canvas (CONTRACT 24, issue 35): the content API's thread routes for an editor
 * acting on any user's article, under the plugin's admin prefix. Reading needs
 * plugin::quire.read; commenting, replying, resolving and reopening need edit.
 */
import { z } from 'zod';
import { adminData, adminErrorAnswers } from '#kernel/admin-routes';
import { QUIRE_ACTIONS } from '../permissions';
import { commentInput, commentOnly, createThreadInput, listThreadsQuery, threadList, threadOnly } from '../schemas/threads';
import { route } from './route';
import { threadParams } from './threads';

const { read, edit } = QUIRE_ACTIONS;
const articleParams = z.object({ id: z.string().describe('The article\'s full id.') });
const threadAt = threadParams.extend({ id: articleParams.shape.id });

export const adminThreadRoutes = route('adminThreads', 'Admin panel', {
  list: {
    method: 'GET',
    path: '/quire/articles/:id/threads',
    summary: 'The article\'s threads with their comments, in outline order (the canvas marks the open ones)',
    admin: { actions: [read] },
    params: articleParams,
    query: listThreadsQuery,
    responses: { 200: adminData(threadList, 'The threads.'), ...adminErrorAnswers(400, 404) },
  },
  create: {
    method: 'POST',
    path: '/quire/articles/:id/threads',
    summary: 'Open a thread on text the editor selected in a section',
    description: 'The quote must occur in the section\'s text as a reader sees it (the occurrence-th, default 1), else 400. @skill in the body starts that skill of the owner\'s organization.',
    admin: { actions: [edit] },
    params: articleParams,
    body: createThreadInput,
    responses: { 201: adminData(threadOnly, 'The new thread.'), ...adminErrorAnswers(400, 404, 409, 429) },
  },
  reply: {
    method: 'POST',
    path: '/quire/articles/:id/threads/:anchor/comments',
    summary: 'Reply in a thread',
    admin: { actions: [edit] },
    params: threadAt,
    body: commentInput,
    responses: { 201: adminData(commentOnly, 'The reply.'), ...adminErrorAnswers(400, 404, 429) },
  },
  resolve: {
    method: 'POST',
    path: '/quire/articles/:id/threads/:anchor/resolve',
    summary: 'Resolve a thread',
    admin: { actions: [edit] },
    params: threadAt,
    responses: { 200: adminData(threadOnly, 'The thread, resolved.'), ...adminErrorAnswers(400, 404, 429) },
  },
  reopen: {
    method: 'POST',
    path: '/quire/articles/:id/threads/:anchor/reopen',
    summary: 'Reopen a resolved thread',
    admin: { actions: [edit] },
    params: threadAt,
    responses: { 200: adminData(threadOnly, 'The thread, open again.'), ...adminErrorAnswers(400, 404, 429) },
  },
});
