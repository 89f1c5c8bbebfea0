import type { Core } from '@strapi/strapi';
import { invalidArgument } from '#kernel/errors';
import { controller, reply } from '#kernel/routes';
import { principalOf } from '../domain/principal';
import { instanceRoutes } from '../routes';
import { getService, type TriggersServiceMap } from '../services/get-service';

const encodeCursor = (last: number | null) => (last === null ? null : Buffer.from(`e:${last}`).toString('base64url'));
function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^e:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidArgument('cursor is not one this API returned.', 'Pass data.nextCursor of the previous page unchanged.');
  return Number(match[1]);
}

/** The /api/process-instances routes; callers are users or organization keys. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = <K extends keyof TriggersServiceMap>(name: K) => getService(strapi, name);
  return controller(instanceRoutes, {
    create: async ({ body, caller }) => ({ instance: await service('instances').create(principalOf(caller), body) }),
    list: async ({ query, caller }) => ({ instances: await service('instances').list(principalOf(caller), query.organizationId) }),
    get: async ({ params, caller }) => ({ instance: await service('instances').get(principalOf(caller), params.pid) }),
    regenerateKey: async ({ params, caller }) => ({ instance: await service('instances').regenerateKey(principalOf(caller), params.pid) }),
    createWorkflow: async ({ params, body, caller }) => service('workflows').create(principalOf(caller), params.pid, body),
    listWorkflows: async ({ params, caller }) => ({ workflows: await service('workflows').list(principalOf(caller), params.pid) }),
    getWorkflow: async ({ params, caller }) => ({ workflow: await service('workflows').get(principalOf(caller), params.pid, params.wid) }),
    updateWorkflow: async ({ params, body, caller }) => service('workflows').update(principalOf(caller), params.pid, params.wid, body),
    rotateCallbackSecret: async ({ params, caller }) => service('workflows').rotateCallbackSecret(principalOf(caller), params.pid, params.wid),
    replay: async ({ params, caller }) => {
      await service('instances').accessible(principalOf(caller), params.pid);
      return reply(202, await service('runner').replay(params.pid, params.eid));
    },
    removeWorkflow: async ({ params, caller }) => {
      await service('workflows').remove(principalOf(caller), params.pid, params.wid);
      return { id: params.wid };
    },
    listExecutions: async ({ params, query, caller }) => {
      const principal = principalOf(caller);
      await service('instances').accessible(principal, params.pid);
      const page = await service('executions').list(params.pid, {
        workflowId: query.workflowId,
        status: query.status,
        limit: query.limit ?? 20,
        before: decodeCursor(query.cursor),
      });
      return { executions: page.executions, nextCursor: encodeCursor(page.last) };
    },
  });
};
