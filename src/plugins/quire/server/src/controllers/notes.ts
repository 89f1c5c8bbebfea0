import type { Core } from '@strapi/strapi';
import { invalidArgument } from '../domain/errors';
import { parseInput } from '../domain/validation';
import { NOTE_KINDS } from '../services/notes';
import { createNoteInput, patchBriefInput, patchNoteInput } from './inputs';
import { ok } from './respond';

const noteNext = (field: string) =>
  ({
    kind: `Pass kind as one of ${NOTE_KINDS.join(', ')}.`,
    title: 'Pass a non-empty "title" string.',
    body: 'Pass body as a Markdown string, or null to clear it.',
    url: 'Pass url as an absolute http(s) URL, or null to clear it.',
  })[field];

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const notes = () => strapi.plugin('quire').service('notes');
  const author = (ctx) => (ctx.state.via === 'key' ? 'agent' : 'human');
  return {
    async brief(ctx) {
      ok(ctx, await notes().brief(ctx.state.user.id, ctx.params.id));
    },
    async patchBrief(ctx) {
      const input = parseInput(patchBriefInput, ctx.request.body ?? {}, 'Pass premise as a string, or null (or "") to clear it.');
      ok(ctx, await notes().setPremise(ctx.state.user.id, ctx.params.id, input.premise));
    },
    async list(ctx) {
      ok(ctx, { notes: await notes().list(ctx.state.user.id, ctx.params.id) });
    },
    async create(ctx) {
      const input = parseInput(createNoteInput, ctx.request.body ?? {}, noteNext);
      ok(ctx, await notes().add(ctx.state.user.id, ctx.params.id, input, author(ctx)), 201);
    },
    async get(ctx) {
      ok(ctx, { note: await notes().get(ctx.state.user.id, ctx.params.id, ctx.params.nid) });
    },
    async update(ctx) {
      const input = parseInput(patchNoteInput, ctx.request.body ?? {}, noteNext);
      if (!Object.values(input).some((v) => v !== undefined)) {
        throw invalidArgument('Nothing to change: pass at least one of kind, title, body, url.', 'Pass the fields to change.');
      }
      ok(ctx, await notes().update(ctx.state.user.id, ctx.params.id, ctx.params.nid, input));
    },
    async remove(ctx) {
      ok(ctx, await notes().remove(ctx.state.user.id, ctx.params.id, ctx.params.nid));
    },
  };
};
