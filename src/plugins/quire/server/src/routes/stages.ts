/**
 * The declared stages of quire's routes that run before parsing (kernel/routes `PrepareStage`),
 * over HTTP and MCP alike.
 */
import type { PrepareStage } from '#kernel/routes';
import { getService } from '../services/get-service';

/**
 * `/api/articles/:id...`: a shortened article id (a unique prefix among the caller's articles)
 * is expanded once, for the caller, before the route's schemas and handler see it. Admin routes
 * take full ids (an admin sees every user's articles, where a prefix is ambiguous).
 */
export const fullArticleId: PrepareStage = {
  name: 'a short article id becomes the full one',
  async run(params, caller, strapi) {
    if (typeof params.id === 'string' && caller?.kind === 'user') params.id = await getService(strapi, 'articleIds').fullId(caller.userId, params.id);
  },
};
