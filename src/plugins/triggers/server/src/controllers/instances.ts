import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { ok } from '../../../../quire/server/src/controllers/respond';
import { invalidArgument } from '../../../../quire/server/src/domain/errors';
import { parseInput } from '../../../../quire/server/src/domain/validation';
import { decodeSigningSecret } from '../domain/signature';
import { EXECUTION_STATUSES } from '../domain/records';

const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const id = z.string().trim().min(1, 'must not be empty').max(64, 'is too long');

export const createInstanceInput = z.strictObject({ organizationId: id, name });
export const listInstancesQuery = z.strictObject({ organizationId: id.optional() });

const signingSecrets = z
  .array(
    z.string().refine((value) => decodeSigningSecret(value) !== null, {
      message: 'must be a Standard Webhooks secret: whsec_ followed by the base64 of 24 to 64 bytes',
    }),
  )
  .max(10, 'must hold at most 10 secrets');

export const createWorkflowInput = z.strictObject({
  name,
  action: z.string().min(1, 'must not be empty').max(100, 'is too long'),
  config: z.unknown().optional(),
  signingSecrets: signingSecrets.optional(),
  enabled: z.boolean().optional(),
});

export const updateWorkflowInput = z.strictObject({
  name: name.optional(),
  config: z.unknown().optional(),
  signingSecrets: signingSecrets.optional(),
  enabled: z.boolean().optional(),
});

export const listExecutionsQuery = z.strictObject({
  workflowId: id.optional(),
  status: z.enum(EXECUTION_STATUSES as [string, ...string[]], { message: `must be one of ${EXECUTION_STATUSES.join(', ')}` }).optional(),
  limit: z.coerce.number().int('must be an integer').min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
  cursor: z.string().optional(),
});

const encodeCursor = (last: number | null) => (last === null ? null : Buffer.from(`e:${last}`).toString('base64url'));
function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^e:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidArgument('cursor is not one this API returned.', 'Pass data.nextCursor of the previous page unchanged.');
  return Number(match[1]);
}

/** The /api/process-instances routes; callers are users or organization keys (ctx.state.principal). */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = (name: string) => strapi.plugin('triggers').service(name);
  return {
    async create(ctx) {
      const input = parseInput(createInstanceInput, ctx.request.body ?? {});
      ok(ctx, { instance: await service('instances').create(ctx.state.principal, input) }, 201);
    },
    async list(ctx) {
      const query = parseInput(listInstancesQuery, ctx.query ?? {});
      ok(ctx, { instances: await service('instances').list(ctx.state.principal, query.organizationId) });
    },
    async get(ctx) {
      ok(ctx, { instance: await service('instances').get(ctx.state.principal, ctx.params.pid) });
    },
    async regenerateKey(ctx) {
      ok(ctx, { instance: await service('instances').regenerateKey(ctx.state.principal, ctx.params.pid) });
    },
    async createWorkflow(ctx) {
      const input = parseInput(createWorkflowInput, ctx.request.body ?? {});
      ok(ctx, { workflow: await service('workflows').create(ctx.state.principal, ctx.params.pid, input) }, 201);
    },
    async listWorkflows(ctx) {
      ok(ctx, { workflows: await service('workflows').list(ctx.state.principal, ctx.params.pid) });
    },
    async getWorkflow(ctx) {
      ok(ctx, { workflow: await service('workflows').get(ctx.state.principal, ctx.params.pid, ctx.params.wid) });
    },
    async updateWorkflow(ctx) {
      const patch = parseInput(updateWorkflowInput, ctx.request.body ?? {});
      ok(ctx, { workflow: await service('workflows').update(ctx.state.principal, ctx.params.pid, ctx.params.wid, patch) });
    },
    async removeWorkflow(ctx) {
      await service('workflows').remove(ctx.state.principal, ctx.params.pid, ctx.params.wid);
      ok(ctx, { id: ctx.params.wid });
    },
    async listExecutions(ctx) {
      const query = parseInput(listExecutionsQuery, ctx.query ?? {});
      await service('instances').accessible(ctx.state.principal, ctx.params.pid);
      const page = await service('executions').list(ctx.params.pid, {
        workflowId: query.workflowId,
        status: query.status,
        limit: query.limit ?? 20,
        before: decodeCursor(query.cursor),
      });
      ok(ctx, { executions: page.executions, nextCursor: encodeCursor(page.last) });
    },
  };
};
