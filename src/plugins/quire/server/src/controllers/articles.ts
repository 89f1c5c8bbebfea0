import type { Core } from '@strapi/strapi';
import { parseInput } from '../domain/validation';
import { createArticleInput, listArticlesQuery, updateArticleInput } from './inputs';
import { ok } from './respond';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = () => strapi.plugin('quire').service('articles');
  const sections = () => strapi.plugin('quire').service('sections');
  return {
    async list(ctx) {
      const query = parseInput(listArticlesQuery, ctx.query ?? {}, 'Pass limit as an integer from 1 to 100 and cursor as a nextCursor you were given.');
      ok(ctx, await articles().listArticles(ctx.state.user.id, query));
    },
    async create(ctx) {
      const input = parseInput(createArticleInput, ctx.request.body ?? {}, (field) =>
        field === 'title' ? 'Pass a non-empty "title" string.' : field === 'markdown' ? 'Pass the article body as a Markdown string in "markdown".' : undefined,
      );
      ok(ctx, await articles().createArticle(ctx.state.user.id, input), 201);
    },
    async get(ctx) {
      ok(ctx, await articles().getArticle(ctx.state.user.id, ctx.params.id));
    },
    async update(ctx) {
      const input = parseInput(updateArticleInput, ctx.request.body ?? {}, 'Pass a non-empty "title" string.');
      ok(ctx, { article: await articles().updateArticle(ctx.state.user.id, ctx.params.id, input) });
    },
    async remove(ctx) {
      ok(ctx, await articles().deleteArticle(ctx.state.user.id, ctx.params.id));
    },
    async outline(ctx) {
      ok(ctx, { outline: await sections().outline(ctx.state.user.id, ctx.params.id) });
    },
  };
};
