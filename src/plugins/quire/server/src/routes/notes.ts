import { createNoteInput, patchBriefInput, patchNoteInput } from '../schemas/inputs/notes';
import { brief, noteOnly, notesOnly, noteWithMap, premiseOnly, premiseRevisions } from '../schemas/responses';
import { articleParams, conditionalRead, conditionalWrite, noteParams, route, WORKER_ERRORS } from './route';

const noteRead = conditionalRead('the note');
const noteWrite = conditionalWrite('the note');

export const noteRoutes = route('notes', 'Brief and notes', {
  brief: {
    method: 'GET',
    path: '/api/articles/:id/brief',
    summary: 'Get the Brief: the premise and every note in full',
    params: articleParams,
    responses: { 200: brief },
  },
  briefRevisions: {
    method: 'GET',
    path: '/api/articles/:id/brief/revisions',
    summary: 'List the premise\'s versions, newest first',
    description: 'Every premise set (over the API, the CLI, MCP or the live canvas, where one editor\'s burst is one version), with who set it.',
    params: articleParams,
    responses: { 200: premiseRevisions },
  },
  patchBrief: {
    method: 'PATCH',
    path: '/api/articles/:id/brief',
    summary: 'Set or clear the premise',
    params: articleParams,
    body: patchBriefInput,
    responses: { 200: premiseOnly },
  },
  list: {
    method: 'GET',
    path: '/api/articles/:id/notes',
    summary: 'List the notes map',
    params: articleParams,
    responses: { 200: notesOnly },
  },
  create: {
    method: 'POST',
    path: '/api/articles/:id/notes',
    summary: 'Add a note',
    params: articleParams,
    body: createNoteInput,
    responses: { 201: noteWithMap },
    responseHeaders: { ETag: 'The new note\'s ETag.' },
    errors: WORKER_ERRORS,
  },
  get: {
    method: 'GET',
    path: '/api/articles/:id/notes/:nid',
    summary: 'Get a note',
    params: noteParams,
    headers: noteRead.headers,
    responses: { 200: noteOnly, 304: noteRead.notModified },
    responseHeaders: noteRead.responseHeaders,
    errors: ['invalid-argument'],
  },
  update: {
    method: 'PATCH',
    path: '/api/articles/:id/notes/:nid',
    summary: 'Change a note\'s fields',
    params: noteParams,
    body: patchNoteInput,
    headers: noteWrite.headers,
    responses: { 200: noteWithMap },
    responseHeaders: noteWrite.responseHeaders,
    errors: [...WORKER_ERRORS, ...noteWrite.errors],
  },
  remove: {
    method: 'DELETE',
    path: '/api/articles/:id/notes/:nid',
    summary: 'Delete a note',
    params: noteParams,
    headers: noteWrite.headers,
    responses: { 200: notesOnly },
    errors: ['invalid-argument', ...noteWrite.errors],
  },
});
