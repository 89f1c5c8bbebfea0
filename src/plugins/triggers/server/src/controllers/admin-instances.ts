/** Admin routes of a process instance's trigger panel: key, workflows, executions (see routes/admin.ts). */
import type { Core } from '@strapi/strapi';
import { adminController } from '#kernel/routes';
import { adminInstanceRoutes } from '../routes/admin';
import { getService } from '../services/get-service';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const panel = () => getService(strapi, 'adminTriggers');
  return adminController(adminInstanceRoutes, {
    failedExecutions: async ({ query }) => ({ data: await panel().failedExecutions(query.limit ?? 5) }),
    get: async ({ params }) => ({ data: await panel().instance(params.pid) }),
    key: async ({ params }) => ({ data: { apiKey: await panel().instanceKey(params.pid) } }),
    regenerateKey: async ({ params }) => ({ data: await panel().regenerateKey(params.pid) }),
    actions: () => ({ data: panel().actions() }),
    workflows: async ({ params }) => ({ data: await panel().workflows(params.pid) }),
    createWorkflow: async ({ params, body }) => ({ data: await panel().createWorkflow(params.pid, body) }),
    updateWorkflow: async ({ params, body }) => ({ data: await panel().updateWorkflow(params.pid, params.wid, body) }),
    removeWorkflow: async ({ params }) => {
      await panel().removeWorkflow(params.pid, params.wid);
      return { data: { id: params.wid } };
    },
    addSecret: async ({ params, body }) => ({ data: await panel().addSecret(params.pid, params.wid, body.secret) }),
    removeSecret: async ({ params }) => ({ data: await panel().removeSecret(params.pid, params.wid, params.secretId) }),
    executions: async ({ params, query }) => {
      const { results, pagination } = await panel().executions(params.pid, query);
      return { data: results, meta: { pagination } };
    },
    execution: async ({ params }) => ({ data: await panel().execution(params.pid, params.eid) }),
    rotateCallbackSecret: async ({ params }) => ({ data: await panel().rotateCallbackSecret(params.pid, params.wid) }),
    replay: async ({ params }) => ({ data: await panel().replay(params.pid, params.eid) }),
  });
};
