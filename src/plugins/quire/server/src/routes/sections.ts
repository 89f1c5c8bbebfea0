import { route } from './define';

export default [
  route('POST', '/articles/:id/sections', 'sections.add'),
  route('GET', '/articles/:id/sections/:sid', 'sections.get'),
  route('PATCH', '/articles/:id/sections/:sid', 'sections.replace'),
  route('DELETE', '/articles/:id/sections/:sid', 'sections.remove'),
  route('POST', '/articles/:id/sections/:sid/move', 'sections.move'),
];
