import { articleSearchQuery, searchQuery } from '../schemas/inputs/search';
import { articleSearch, searchResults } from '../schemas/responses';
import { articleParams, route } from './route';

export const searchRoutes = route('search', 'Search', {
  inArticle: {
    method: 'GET',
    path: '/api/articles/:id/search',
    summary: 'Find text in an article',
    description:
      'The sections whose text (Markdown source, heading line included, or the text of an html section) contains `q`, matched literally and ' +
      'case-insensitively, in outline order, with how often and up to 3 snippets. Served by an index.',
    params: articleParams,
    query: articleSearchQuery,
    responses: { 200: articleSearch },
  },
  everywhere: {
    method: 'GET',
    path: '/api/search',
    summary: 'Find text across your articles',
    description:
      'Your articles with a section containing `q` (as in an article\'s search), most recently updated first, a page of `limit` articles at a time; ' +
      'each lists up to 10 matching sections. Served by an index, never by reading every section.',
    query: searchQuery,
    responses: { 200: searchResults },
  },
});
