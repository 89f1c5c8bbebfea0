import adminArticles from './admin-articles';
import adminCanvas from './admin-canvas';
import adminThreads from './admin-threads';
import changes from './changes';
import articles from './articles';
import cliLogin from './cli-login';
import cliLoginPage from './cli-login-page';
import edits from './edits';
import history from './history';
import suggestions from './suggestions';
import threads from './threads';
import keys from './keys';
import mcp from './mcp';
import notes from './notes';
import oauth, { oauthGrants } from './oauth';
import publicPages from './public-pages';
import presence from './presence';
import publications from './publications';
import search from './search';
import sections from './sections';
import unfurl from './unfurl';
import upload from './upload';

export default {
  // `/api/articles/:id...` routes get the full article id from their declared stage (routes/stages.ts).
  adminArticles,
  adminCanvas,
  adminThreads,
  articles,
  changes,
  cliLogin,
  cliLoginPage,
  edits,
  history,
  keys,
  mcp,
  notes,
  oauth,
  oauthGrants,
  presence,
  publicPages,
  publications,
  search,
  sections,
  suggestions,
  threads,
  unfurl,
  upload,
};
