import { route } from './define';

export default [
  route('GET', '/keys', 'keys.list'),
  route('POST', '/keys', 'keys.create'),
  route('DELETE', '/keys/:id', 'keys.revoke'),
  route('GET', '/auth/me', 'keys.me'),
];
