import type { AnchorScope } from './anchors';

/** How anchor errors name a section and where to list them. */
export const sectionScope = (articleId: string): AnchorScope => ({
  item: 'section',
  listRoute: `GET /api/articles/${articleId}/outline`,
});
