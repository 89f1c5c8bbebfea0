import { RATE_LIMIT_HEADERS } from '#kernel/rate-limit';
import { unfurlQuery } from '../schemas/inputs/media';
import { imageHosted, preview } from '../schemas/responses';
import { rawBody } from '#kernel/routes';
import { route, WORKER_ERRORS } from './route';

// Replaces the upload plugin's multipart POST /api/upload (removed in upload-extension.ts).
export const uploadRoutes = route('upload', 'Media', {
  create: {
    method: 'POST',
    path: '/api/upload',
    summary: 'Host an image',
    description: 'The body is the image itself (png, jpeg, gif, webp, avif or svg; at most 4.5 MB); the answer has its absolute public URL.',
    body: rawBody(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml'], 'The image\'s bytes.'),
    headers: { 'X-Filename': 'The file\'s name (percent-encoded), kept as the image\'s display name.' },
    responses: { 201: imageHosted },
    // An SVG is sanitised in the worker pool.
    errors: WORKER_ERRORS,
  },
});

export const unfurlRoutes = route('unfurl', 'Media', {
  preview: {
    method: 'GET',
    path: '/api/unfurl',
    summary: 'Preview a link (title, description, image)',
    query: unfurlQuery,
    responses: { 200: preview },
    responseHeaders: RATE_LIMIT_HEADERS,
    // A page that answers with an error is 404; one that cannot be fetched, 500.
    errors: ['not-found', 'rate-limited'],
  },
});
