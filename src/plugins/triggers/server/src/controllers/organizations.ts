import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { ok } from '../../../../quire/server/src/controllers/respond';
import { parseInput } from '../../../../quire/server/src/domain/validation';

export const createOrganizationInput = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
});

export const createOrganizationKeyInput = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
});

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const organizations = () => strapi.plugin('triggers').service('organizations');
  return {
    async create(ctx) {
      const input = parseInput(createOrganizationInput, ctx.request.body ?? {});
      ok(ctx, { organization: await organizations().create(ctx.state.user.id, input.name) }, 201);
    },
    async list(ctx) {
      ok(ctx, { organizations: await organizations().list(ctx.state.user.id) });
    },
    async createKey(ctx) {
      const input = parseInput(createOrganizationKeyInput, ctx.request.body ?? {});
      ok(ctx, await organizations().createKey(ctx.state.user.id, ctx.params.orgId, input.name ?? 'Organization key'), 201);
    },
    async listKeys(ctx) {
      ok(ctx, { keys: await organizations().listKeys(ctx.state.user.id, ctx.params.orgId) });
    },
    async revokeKey(ctx) {
      await organizations().revokeKey(ctx.state.user.id, ctx.params.orgId, ctx.params.keyId);
      ok(ctx, { id: ctx.params.keyId });
    },
  };
};
