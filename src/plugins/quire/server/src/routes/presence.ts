import { presence } from '../schemas/responses';
import { articleParams, route } from './route';

/** Who is in an article now (CONTRACT 19): people in the live canvas, agents who just wrote. */
export const presenceRoutes = route('presence', 'Presence', {
  get: {
    method: 'GET',
    path: '/api/articles/:id/presence',
    summary: 'Who is in the article: editors with it open, agents that wrote in the last 60 s',
    description:
      'Editors are the people with the article open in the canvas (with the section their caret is in); agents and people writing over the API count for 60 s after each write. ' +
      'Leave alone a section a person is in.',
    params: articleParams,
    responses: { 200: presence },
  },
});
