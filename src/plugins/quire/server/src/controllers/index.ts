import type { Core } from '@strapi/strapi';
import type { Caller } from '#kernel/auth';
import adminArticles from './admin-articles';
import adminCanvas from './admin-canvas';
import changes from './changes';
import articles from './articles';
import cliLogin from './cli-login';
import cliLoginPage from './cli-login-page';
import edits from './edits';
import history from './history';
import suggestions from './suggestions';
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
import { resolveArticleId } from '../repositories/store';
import { withWriteContext } from './change-context';

type Controller = (deps: { strapi: Core.Strapi }) => Record<string, (ctx) => Promise<void>>;

/**
 * The controllers of `/api/articles/{id}...` routes see the article's full id: a shortened one
 * (a unique prefix among the caller's articles) is expanded first, once, for every such route
 * (after the route's guard, which knows the caller).
 */
const withFullArticleId =
  (controller: Controller): Controller =>
  ({ strapi }) =>
    Object.fromEntries(
      Object.entries(controller({ strapi })).map(([name, handler]) => [
        name,
        async (ctx) => {
          const caller = ctx.state?.caller as Caller | null | undefined;
          if (typeof ctx.params?.id === 'string' && caller?.kind === 'user') ctx.params.id = await resolveArticleId(strapi, caller.userId, ctx.params.id);
          // The write's reason, run and change set (CONTRACT 23): services/write-context.
          return withWriteContext(ctx, () => handler(ctx));
        },
      ]),
    );

export default {
  // Admin routes take full article ids (an admin sees every user's articles, where a prefix is ambiguous).
  adminArticles,
  adminCanvas,
  articles: withFullArticleId(articles),
  changes: withFullArticleId(changes),
  cliLogin,
  cliLoginPage,
  edits: withFullArticleId(edits),
  history: withFullArticleId(history),
  keys,
  mcp,
  notes: withFullArticleId(notes),
  oauth,
  oauthGrants,
  presence: withFullArticleId(presence),
  publicPages,
  publications: withFullArticleId(publications),
  search: withFullArticleId(search),
  sections: withFullArticleId(sections),
  suggestions: withFullArticleId(suggestions),
  unfurl,
  upload,
};
