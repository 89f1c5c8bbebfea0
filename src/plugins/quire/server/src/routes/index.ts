import { adminRouter, contentApiRouter, routeList } from '#kernel/routes';
import { adminArticleRoutes, adminCanvasRoutes } from './admin';
import { adminThreadRoutes } from './admin-threads';
import { articleRoutes } from './articles';
import { changeRoutes } from './changes';
import { cliLoginRoutes } from './cli-login';
import { editRoutes } from './edits';
import { historyRoutes } from './history';
import { suggestionRoutes } from './suggestions';
import { threadRoutes } from './threads';
import { keyRoutes } from './keys';
import { mcpRoutes } from './mcp';
import { oauthGrantRoutes, oauthRoutes } from './oauth';
import { unfurlRoutes, uploadRoutes } from './media';
import { noteRoutes } from './notes';
import { cliLoginPageRoutes, publicPageRoutes } from './pages';
import { presenceRoutes } from './presence';
import { publicationRoutes } from './publications';
import { searchRoutes } from './search';
import { sectionRoutes } from './sections';

/** Every route of the article service, declared (kernel/routes.ts): content-api, root and admin routes. */
export const routes = routeList(
  keyRoutes,
  articleRoutes,
  publicationRoutes,
  sectionRoutes,
  searchRoutes,
  editRoutes,
  historyRoutes,
  suggestionRoutes,
  threadRoutes,
  changeRoutes,
  noteRoutes,
  presenceRoutes,
  cliLoginRoutes,
  uploadRoutes,
  unfurlRoutes,
  publicPageRoutes,
  cliLoginPageRoutes,
  adminArticleRoutes,
  adminCanvasRoutes,
  adminThreadRoutes,
  mcpRoutes,
  oauthRoutes,
  oauthGrantRoutes,
);

export default {
  admin: adminRouter('quire', routes),
  'content-api': contentApiRouter('quire', routes),
};
