import type { Core } from '@strapi/strapi';
import { notFound } from '../../../../quire/server/src/domain/errors';
import type { Principal } from '../domain/principal';
import { workflowRecord, type WorkflowRecord } from '../domain/records';

const UID = 'plugin::triggers.workflow';
const FIELDS = ['id', 'documentId', 'instanceId', 'name', 'action', 'config', 'secretCount', 'enabled', 'createdAt', 'updatedAt'];

export interface WorkflowInput {
  name: string;
  action: string;
  config?: unknown;
  signingSecrets?: string[];
  enabled?: boolean;
}

export type WorkflowPatch = Partial<Omit<WorkflowInput, 'action'>>;

/** The columns the trigger route needs, in one indexed read. */
export interface TriggerWorkflow {
  documentId: string;
  instanceId: string;
  organizationId: string;
  userId: number;
  action: string;
  config: string;
  enabled: boolean;
  secretsCiphertext: string | null;
}

export const workflowNotFound = (instanceId: string, id: string) =>
  notFound(`No workflow with id ${id} in this process instance.`, `Call GET /api/process-instances/${instanceId}/workflows.`);

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const query = () => strapi.db.query(UID);
  const plugin = () => strapi.plugin('triggers');
  const publicUrl = () => String(strapi.config.get('server.url') ?? '').replace(/\/+$/, '');
  const record = (row): WorkflowRecord => workflowRecord(row, publicUrl());

  function secretsData(secrets: string[]) {
    return {
      secretsCiphertext: secrets.length ? plugin().service('vault').sealSigningSecrets(secrets) : null,
      secretCount: secrets.length,
    };
  }

  async function owned(principal: Principal, instanceId: string, workflowId: string, select = FIELDS) {
    await plugin().service('instances').accessible(principal, instanceId);
    const row = await query().findOne({ where: { documentId: workflowId, instanceId }, select });
    if (!row) throw workflowNotFound(instanceId, workflowId);
    return row;
  }

  return {
    async create(principal: Principal, instanceId: string, input: WorkflowInput): Promise<WorkflowRecord> {
      const instance = await plugin().service('instances').accessible(principal, instanceId);
      const config = plugin().service('actions').parseConfig(input.action, input.config);
      const row = await query().create({
        data: {
          instanceId,
          organizationId: instance.organizationId,
          userId: instance.userId,
          name: input.name,
          action: input.action,
          config: JSON.stringify(config),
          enabled: input.enabled ?? true,
          ...secretsData(input.signingSecrets ?? []),
        },
        select: FIELDS,
      });
      return record(row);
    },

    async list(principal: Principal, instanceId: string): Promise<WorkflowRecord[]> {
      await plugin().service('instances').accessible(principal, instanceId);
      const rows = await query().findMany({ where: { instanceId }, select: FIELDS, orderBy: { id: 'asc' } });
      return rows.map(record);
    },

    async get(principal: Principal, instanceId: string, workflowId: string): Promise<WorkflowRecord> {
      return record(await owned(principal, instanceId, workflowId));
    },

    async update(principal: Principal, instanceId: string, workflowId: string, patch: WorkflowPatch): Promise<WorkflowRecord> {
      const row = await owned(principal, instanceId, workflowId);
      const data: Record<string, unknown> = {};
      if (patch.name !== undefined) data.name = patch.name;
      if (patch.enabled !== undefined) data.enabled = patch.enabled;
      if (patch.config !== undefined) data.config = JSON.stringify(plugin().service('actions').parseConfig(row.action, patch.config));
      if (patch.signingSecrets !== undefined) Object.assign(data, secretsData(patch.signingSecrets));
      if (!Object.keys(data).length) return record(row);
      return record(await query().update({ where: { id: row.id }, data, select: FIELDS }));
    },

    /** Deletes the workflow; its executions stay readable. */
    async remove(principal: Principal, instanceId: string, workflowId: string): Promise<void> {
      const row = await owned(principal, instanceId, workflowId, ['id']);
      await query().delete({ where: { id: row.id } });
    },

    /** The workflow a trigger names, or null: one indexed read straight through Knex (the hot path). */
    async findForTrigger(instanceId: string, workflowId: string): Promise<TriggerWorkflow | null> {
      const row = await strapi.db
        .connection('triggers_workflows')
        .where({ document_id: workflowId, instance_id: instanceId })
        .first(['document_id', 'instance_id', 'organization_id', 'user_id', 'action', 'config', 'enabled', 'secrets_ciphertext']);
      if (!row) return null;
      return {
        documentId: row.document_id,
        instanceId: row.instance_id,
        organizationId: row.organization_id,
        userId: Number(row.user_id),
        action: row.action,
        config: row.config,
        enabled: Boolean(row.enabled),
        secretsCiphertext: row.secrets_ciphertext ?? null,
      };
    },
  };
};
