import { route } from './define';

// The public copies themselves (/p/{slug}, /p/{slug}.md) are root routes: see controllers/public-pages.ts.
export default [
  route('POST', '/articles/import', 'publications.import'),
  route('POST', '/articles/:id/publish', 'publications.publish'),
  route('DELETE', '/articles/:id/publish', 'publications.unpublish'),
];
