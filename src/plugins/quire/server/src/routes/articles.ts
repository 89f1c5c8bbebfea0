import { route } from './define';

export default [
  route('GET', '/articles', 'articles.list'),
  route('POST', '/articles', 'articles.create'),
  route('GET', '/articles/:id', 'articles.get'),
  route('PATCH', '/articles/:id', 'articles.update'),
  route('DELETE', '/articles/:id', 'articles.remove'),
  route('GET', '/articles/:id/outline', 'articles.outline'),
];
