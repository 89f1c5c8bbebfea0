import type { Core } from '@strapi/strapi';
import { ensureIndexes } from '../../../quire/server/src/services/indexes';

export default async ({ strapi }: { strapi: Core.Strapi }) => {
  await ensureIndexes(strapi, [
    { table: 'triggers_organizations', columns: ['user_id'] },
    { table: 'triggers_organization_keys', columns: ['hash'], unique: true },
    { table: 'triggers_organization_keys', columns: ['organization_id'] },
    { table: 'triggers_process_instances', columns: ['key_hash'], unique: true },
    { table: 'triggers_process_instances', columns: ['user_id'] },
    { table: 'triggers_process_instances', columns: ['organization_id'] },
    { table: 'triggers_workflows', columns: ['instance_id'] },
    { table: 'triggers_executions', columns: ['document_id'], unique: true },
    { table: 'triggers_executions', columns: ['instance_id', 'id'] },
    { table: 'triggers_executions', columns: ['status', 'lease_until'] },
    // The guard against running one webhook delivery twice, across requests and processes
    // (NULL, for executions without a webhook-id, never conflicts).
    { table: 'triggers_executions', columns: ['dedupe_key'], unique: true },
  ]);

  // Root routes, mounted the way the GraphQL plugin mounts /graphql. Credentials are checked
  // by the controllers (auth: false keeps Strapi's 401 body out); errors become our envelope.
  const trigger = strapi.plugin('triggers').controller('trigger') as unknown as Record<'trigger' | 'status', (ctx) => Promise<void>>;
  strapi.server.routes([
    {
      method: 'POST',
      path: '/webhook/:processInstanceId/:workflowId',
      handler: [(ctx) => trigger.trigger(ctx)],
      config: { auth: false },
    },
    {
      method: 'GET',
      path: '/status/:processInstanceId/:executionId',
      handler: [(ctx) => trigger.status(ctx)],
      config: { auth: false },
    },
  ] as any);

  await strapi.plugin('triggers').service('runner').start();
};
