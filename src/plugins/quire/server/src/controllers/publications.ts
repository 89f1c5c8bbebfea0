import type { Core } from '@strapi/strapi';
import { invalidArgument } from '../domain/errors';
import { parseInput } from '../domain/validation';
import { importArticleInput } from './inputs';
import { ok } from './respond';

const SOURCES = ['markdown', 'html', 'url'] as const;
const ONE_SOURCE_NEXT = 'Pass exactly one of "markdown" (Markdown text), "html" (HTML text) or "url" (a web page), and optionally "title".';

const importNext = (field: string) =>
  ({
    markdown: 'Pass the document as a Markdown string in "markdown".',
    html: 'Pass the document as an HTML string in "html".',
    url: 'Pass the page as an absolute http(s) URL in "url".',
    title: 'Pass a non-empty "title" string, or leave it out to take it from the document.',
  })[field] ?? ONE_SOURCE_NEXT;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const publications = () => strapi.plugin('quire').service('publications');
  return {
    async publish(ctx) {
      ok(ctx, await publications().publish(ctx.state.user.id, ctx.params.id));
    },
    async unpublish(ctx) {
      ok(ctx, await publications().unpublish(ctx.state.user.id, ctx.params.id));
    },
    async import(ctx) {
      const input = parseInput(importArticleInput, ctx.request.body ?? {}, importNext);
      const given = SOURCES.filter((name) => input[name] !== undefined);
      if (given.length !== 1) {
        throw invalidArgument(
          given.length ? `Pass only one of markdown, html or url (got ${given.join(' and ')}).` : 'One of markdown, html or url is required.',
          ONE_SOURCE_NEXT,
        );
      }
      const source = { [given[0]]: input[given[0]] } as { markdown: string } | { html: string } | { url: string };
      const author = ctx.state.via === 'key' ? 'agent' : 'human';
      ok(ctx, await strapi.plugin('quire').service('imports').importArticle(ctx.state.user.id, source, { title: input.title, author }), 201);
    },
  };
};
