import { addSectionsInput, moveSectionInput, replaceSectionInput, sectionQuery } from '../schemas/inputs/sections';
import { outlineOnly, sectionOnly, sectionReplaced, sectionsAdded, suggestionOnly } from '../schemas/responses';
import { articleParams, conditionalRead, conditionalWrite, route, sectionParams, WORKER_ERRORS } from './route';

/** Anchors are prefixes: a too-short one that matches several sections is a 400 ("Use a longer anchor."). */
const ANCHOR_ERRORS = ['invalid-argument'];

const sectionRead = conditionalRead('the section');
const sectionWrite = conditionalWrite('the section');
/** A `suggest` key's call is not applied: it becomes a suggestion (202). */
const outlineWrite = conditionalWrite('the outline (GET /api/articles/{id}/outline)');

export const sectionRoutes = route('sections', 'Sections', {
  add: {
    method: 'POST',
    path: '/api/articles/:id/sections',
    summary: 'Add sections',
    description: 'Inserts Markdown (one section per top-level heading) after or before a section, or at the end.',
    params: articleParams,
    body: addSectionsInput,
    headers: outlineWrite.headers,
    suggestible: true,
    responses: { 201: sectionsAdded, 202: suggestionOnly },
    responseHeaders: outlineWrite.responseHeaders,
    errors: [...WORKER_ERRORS, ...outlineWrite.errors],
  },
  get: {
    method: 'GET',
    path: '/api/articles/:id/sections/:sid',
    summary: 'Get a section with its Markdown and HTML',
    description:
      'An html section (edited on the canvas) has markdown null; with ?as=markdown its markdown is a Markdown rendering of its HTML (source stays html; PATCHing Markdown back makes it a Markdown section again).',
    params: sectionParams,
    query: sectionQuery,
    headers: sectionRead.headers,
    responses: { 200: sectionOnly, 304: sectionRead.notModified },
    responseHeaders: sectionRead.responseHeaders,
    errors: WORKER_ERRORS,
  },
  replace: {
    method: 'PATCH',
    path: '/api/articles/:id/sections/:sid',
    summary: 'Replace a section',
    description:
      'By Markdown (it may split into several sections, which take its place) or by HTML from the canvas (one section, HTML canonical). The answer\'s ETag is the section\'s when one section results, else the outline\'s.',
    params: sectionParams,
    body: replaceSectionInput,
    headers: sectionWrite.headers,
    suggestible: true,
    responses: { 200: sectionReplaced, 202: suggestionOnly },
    responseHeaders: sectionWrite.responseHeaders,
    errors: [...WORKER_ERRORS, ...sectionWrite.errors],
  },
  remove: {
    method: 'DELETE',
    path: '/api/articles/:id/sections/:sid',
    summary: 'Delete a section (to the article\'s trash)',
    description: 'The last section of an article is replaced by an empty one. The section can be restored from the trash for 30 days.',
    params: sectionParams,
    headers: sectionWrite.headers,
    suggestible: true,
    responses: { 200: outlineOnly, 202: suggestionOnly },
    responseHeaders: sectionWrite.responseHeaders,
    errors: [...ANCHOR_ERRORS, ...sectionWrite.errors],
  },
  move: {
    method: 'POST',
    path: '/api/articles/:id/sections/:sid/move',
    summary: 'Move a section after or before another',
    params: sectionParams,
    body: moveSectionInput,
    headers: sectionWrite.headers,
    suggestible: true,
    responses: { 200: outlineOnly, 202: suggestionOnly },
    responseHeaders: sectionWrite.responseHeaders,
    errors: sectionWrite.errors,
  },
});
