import { z } from 'zod';
import { restoreFromTrashInput } from '../schemas/inputs/trash';
import { outlineOnly, revisionList, revisionOnly, revisionRestored, trashList } from '../schemas/responses';
import { articleId, articleParams, conditionalWrite, pathSegment, route, sectionAnchor } from './route';

export const revisionParams = z.object({
  id: articleId,
  sid: sectionAnchor,
  rev: z.string().regex(/^[1-9]\d{0,9}$/, 'must be a positive integer').transform(Number).describe('A revision number (GET .../revisions).'),
});
export const trashParams = z.object({ id: articleId, anchor: pathSegment('a section anchor').describe('A deleted section\'s anchor among the trash (GET .../trash).') });
const sectionWrite = conditionalWrite('the section');
const outlineWrite = conditionalWrite('the outline (GET /api/articles/{id}/outline)');

export const historyRoutes = route('history', 'History and trash', {
  revisions: {
    method: 'GET',
    path: '/api/articles/:id/sections/:sid/revisions',
    summary: 'List a section\'s versions, newest first',
    description: 'The current version included, each with who made it.',
    params: z.object({ id: articleId, sid: sectionAnchor }),
    responses: { 200: revisionList },
    errors: ['invalid-argument'],
  },
  revision: {
    method: 'GET',
    path: '/api/articles/:id/sections/:sid/revisions/:rev',
    summary: 'Get one version of a section, with its Markdown and HTML',
    params: revisionParams,
    responses: { 200: revisionOnly },
    errors: ['invalid-argument'],
  },
  restore: {
    method: 'POST',
    path: '/api/articles/:id/sections/:sid/revisions/:rev/restore',
    summary: 'Make a version current again, as a new revision',
    params: revisionParams,
    headers: sectionWrite.headers,
    responses: { 200: revisionRestored },
    responseHeaders: sectionWrite.responseHeaders,
    errors: ['invalid-argument', ...sectionWrite.errors],
  },
  trash: {
    method: 'GET',
    path: '/api/articles/:id/trash',
    summary: 'List the article\'s deleted sections (kept 30 days)',
    params: articleParams,
    responses: { 200: trashList },
  },
  restoreFromTrash: {
    method: 'POST',
    path: '/api/articles/:id/trash/:anchor/restore',
    summary: 'Put a deleted section back, with its id, content and history',
    description: 'After or before a section, or at the end when neither is given.',
    params: trashParams,
    body: restoreFromTrashInput,
    headers: outlineWrite.headers,
    responses: { 200: outlineOnly },
    responseHeaders: outlineWrite.responseHeaders,
    errors: ['invalid-argument', ...outlineWrite.errors],
  },
});
