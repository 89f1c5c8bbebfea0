import { RATE_LIMIT_HEADERS } from '#kernel/rate-limit';
import { importArticleInput } from '../schemas/inputs/imports';
import { articleOnly, articleWithOutline, published } from '../schemas/responses';
import { articleParams, route, WORKER_ERRORS } from './route';

// The public copies themselves (/p/{slug}, /p/{slug}.md) are root routes: see pages.ts.
export const publicationRoutes = route('publications', 'Publishing', {
  import: {
    method: 'POST',
    path: '/api/articles/import',
    summary: 'Import an article from Markdown, HTML or a web page',
    description: 'Markdown may carry YAML front matter (title, premise, notes). A URL is fetched through the guarded fetcher.',
    body: importArticleInput,
    responses: { 201: articleWithOutline },
    responseHeaders: RATE_LIMIT_HEADERS,
    // A page that answers with an error is 404; one that cannot be fetched, 500.
    errors: ['not-found', 'rate-limited'],
  },
  publish: {
    method: 'POST',
    path: '/api/articles/:id/publish',
    summary: 'Publish (or republish) an article',
    description: 'A snapshot of the article as it is now, at {PUBLIC_URL}/p/{slug} and {PUBLIC_URL}/p/{slug}.md.',
    params: articleParams,
    responses: { 200: published },
    errors: WORKER_ERRORS,
  },
  unpublish: {
    method: 'DELETE',
    path: '/api/articles/:id/publish',
    summary: 'Take an article\'s public copies down',
    params: articleParams,
    responses: { 200: articleOnly },
  },
});
