/**
 * The workflows table. Management reads and writes go through Strapi's query engine (it makes
 * document ids and timestamps, and joins the open transaction); the trigger route's reads are
 * one indexed Knex read each, with only the columns they need (kernel/db: the transaction's
 * handle, the schema-qualified table name).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { repositoryOf, tableName } from '#kernel/db';

const UID = 'plugin::triggers.workflow';
export const WORKFLOWS = 'triggers_workflows';
const INSTANCES = 'triggers_process_instances';

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
  /** Where the finished execution is announced (null: nowhere). */
  callbackUrl: string | null;
  /** The revision of its input schema (a hash of it), null when it has none. */
  inputSchemaHash: string | null;
}

/** A workflow as the skills see it, with its instance's name. */
export interface SkillWorkflowRow {
  workflowId: string;
  name: string;
  description: string | null;
  inputSchema: string | null;
  enabled: boolean;
  instanceId: string;
  instanceName: string;
}

/** The columns of a TriggerWorkflow. */
export const TRIGGER_COLUMNS = ['document_id', 'instance_id', 'organization_id', 'user_id', 'action', 'config', 'enabled', 'secrets_ciphertext', 'callback_url', 'input_schema_hash'];

/** A TriggerWorkflow from a row of TRIGGER_COLUMNS (named with `prefix`, when a join aliased them). */
export function triggerWorkflowOf(row: Record<string, any>, prefix = ''): TriggerWorkflow {
  const col = (name: string) => row[prefix + name];
  return {
    documentId: col('document_id'),
    instanceId: col('instance_id'),
    organizationId: col('organization_id'),
    userId: Number(col('user_id')),
    action: col('action'),
    config: col('config'),
    enabled: Boolean(col('enabled')),
    secretsCiphertext: col('secrets_ciphertext') ?? null,
    callbackUrl: col('callback_url') ?? null,
    inputSchemaHash: col('input_schema_hash') ?? null,
  };
}

export const workflowsRepository = (strapi: Core.Strapi) => {
  const query = () => strapi.db.query(UID);
  const table = () => tableName(strapi, WORKFLOWS);

  // Management through the query engine (document ids, timestamps, the open transaction).
  const writes = {
    /** One workflow of an instance (query-engine attributes `select`), or null. */
    findInInstance(instanceId: string, workflowId: string, select: string[]): Promise<Record<string, any> | null> {
      return query().findOne({ where: { documentId: workflowId, instanceId }, select });
    },

    create(data: Record<string, unknown>, select: string[]): Promise<Record<string, any>> {
      return query().create({ data, select });
    },

    listByInstance(instanceId: string, select: string[]): Promise<Array<Record<string, any>>> {
      return query().findMany({ where: { instanceId }, select, orderBy: { id: 'asc' } });
    },

    update(id: number, data: Record<string, unknown>, select: string[]): Promise<Record<string, any>> {
      return query().update({ where: { id }, data, select });
    },

    async delete(id: number): Promise<void> {
      await query().delete({ where: { id } });
    },

  };
  // The Knex reads run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  const reads = repositoryOf(strapi, {
    /** The callback columns of a workflow, or undefined. */
    async callbackColumns(k: Knex, workflowId: string): Promise<{ callback_url: string | null; callback_secret_ciphertext: string | null } | undefined> {
      return k(table()).where({ document_id: workflowId }).first(['callback_url', 'callback_secret_ciphertext']);
    },

    /** The workflow a trigger names, or null: one indexed read (the hot path). */
    async forTrigger(k: Knex, instanceId: string, workflowId: string): Promise<TriggerWorkflow | null> {
      const row = await k(table()).where({ document_id: workflowId, instance_id: instanceId }).first(TRIGGER_COLUMNS);
      return row ? triggerWorkflowOf(row) : null;
    },

    /** A workflow's input schema text and its revision, or undefined. */
    async inputSchema(k: Knex, workflowId: string): Promise<{ input_schema: string | null; input_schema_hash: string | null } | undefined> {
      return k(table()).where({ document_id: workflowId }).first(['input_schema', 'input_schema_hash']);
    },

    /** Every workflow of an organization with its instance's name, oldest first. */
    async ofOrganization(k: Knex, organizationId: string): Promise<SkillWorkflowRow[]> {
      const rows = await k(tableName(strapi, WORKFLOWS, 'w'))
        .join(tableName(strapi, INSTANCES, 'i'), 'i.document_id', 'w.instance_id')
        .where('w.organization_id', organizationId)
        .orderBy('w.id', 'asc')
        .select('w.document_id as workflowId', 'w.name as name', 'w.description as description', 'w.input_schema as inputSchema', 'w.enabled as enabled', 'w.instance_id as instanceId', 'i.name as instanceName');
      return rows.map((r) => ({ ...r, enabled: Boolean(r.enabled) }));
    },
  });
  return { ...writes, ...reads };
};
