import type { Core } from '@strapi/strapi';
import { invalidArgument } from '../domain/errors';
import { parseInput } from '../domain/validation';
import { addSectionsInput, moveSectionInput, replaceSectionInput } from './inputs';
import { ok } from './respond';

const MARKDOWN_NEXT = 'Pass the section body as a non-empty Markdown string in "markdown".';
const anchorNext = (id: string) => `Pass section anchors as strings, from GET /api/articles/${id}/outline.`;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sections = () => strapi.plugin('quire').service('sections');
  return {
    async add(ctx) {
      const input = parseInput(addSectionsInput, ctx.request.body ?? {}, (field) =>
        field === 'after' || field === 'before' ? anchorNext(ctx.params.id) : MARKDOWN_NEXT,
      );
      if (input.after !== undefined && input.before !== undefined) {
        throw invalidArgument('after and before were both given; pass at most one.', 'Pass "after" or "before", or neither to append at the end.');
      }
      ok(ctx, await sections().add(ctx.state.user.id, ctx.params.id, input.markdown, input), 201);
    },
    async get(ctx) {
      ok(ctx, { section: await sections().get(ctx.state.user.id, ctx.params.id, ctx.params.sid) });
    },
    async replace(ctx) {
      const input = parseInput(replaceSectionInput, ctx.request.body ?? {}, (field) =>
        field === 'html' ? 'Pass the section as an HTML string in "html".' : MARKDOWN_NEXT,
      );
      const next = 'Pass either "markdown" (Markdown canonical) or "html" (from the canvas, HTML canonical).';
      if (input.markdown !== undefined && input.html !== undefined) throw invalidArgument('markdown and html were both given; pass one of them.', next);
      if (input.markdown === undefined && input.html === undefined) throw invalidArgument('markdown or html is required.', next);
      const content = input.markdown !== undefined ? { markdown: input.markdown } : { html: input.html! };
      ok(ctx, await sections().replace(ctx.state.user.id, ctx.params.id, ctx.params.sid, content));
    },
    async move(ctx) {
      const input = parseInput(moveSectionInput, ctx.request.body ?? {}, anchorNext(ctx.params.id));
      const next = 'Pass exactly one of "after" or "before": the anchor of another section.';
      if (input.after !== undefined && input.before !== undefined) throw invalidArgument('after and before were both given; pass exactly one.', next);
      if (input.after === undefined && input.before === undefined) throw invalidArgument('after or before is required.', next);
      ok(ctx, await sections().move(ctx.state.user.id, ctx.params.id, ctx.params.sid, input));
    },
    async remove(ctx) {
      ok(ctx, await sections().remove(ctx.state.user.id, ctx.params.id, ctx.params.sid));
    },
  };
};
