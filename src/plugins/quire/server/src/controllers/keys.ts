import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { parseInput } from '../domain/validation';
import { ok } from './respond';

export const createKeyInput = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
});

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const keys = () => strapi.plugin('quire').service('keys');
  return {
    async list(ctx) {
      ok(ctx, { keys: await keys().list(ctx.state.user.id) });
    },
    async create(ctx) {
      const input = parseInput(createKeyInput, ctx.request.body ?? {});
      ok(ctx, await keys().create(ctx.state.user.id, input.name ?? 'API key'), 201);
    },
    async revoke(ctx) {
      await keys().revoke(ctx.state.user.id, ctx.params.id);
      ok(ctx, { id: ctx.params.id });
    },
    async me(ctx) {
      ok(ctx, { user: ctx.state.user, via: ctx.state.via });
    },
  };
};
