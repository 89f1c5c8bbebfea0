import { route } from './define';

export default [
  route('GET', '/articles/:id/brief', 'notes.brief'),
  route('PATCH', '/articles/:id/brief', 'notes.patchBrief'),
  route('GET', '/articles/:id/notes', 'notes.list'),
  route('POST', '/articles/:id/notes', 'notes.create'),
  route('GET', '/articles/:id/notes/:nid', 'notes.get'),
  route('PATCH', '/articles/:id/notes/:nid', 'notes.update'),
  route('DELETE', '/articles/:id/notes/:nid', 'notes.remove'),
];
