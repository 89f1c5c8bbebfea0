/**
 * The process instances table: the query engine for management (document ids, timestamps, the
 * open transaction), and the instance-key lookup of every keyed trigger as one indexed Knex read
 * (kernel/db: the transaction's handle, the schema-qualified table name).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { repositoryOf, tableName } from '#kernel/db';
import { TRIGGER_COLUMNS, triggerWorkflowOf, WORKFLOWS, type TriggerWorkflow } from './workflows';

/** An instance as its key finds it. */
export interface KeyedInstance {
  document_id: string;
  organization_id: string;
  user_id: number | string;
  key_hash: string;
}

const UID = 'plugin::triggers.process-instance';
export const INSTANCES = 'triggers_process_instances';

export const instancesRepository = (strapi: Core.Strapi) => {
  const query = () => strapi.db.query(UID);

  // Management through the query engine (document ids, timestamps, the open transaction).
  const managed = {
    /** One instance matching `where` (query-engine attributes), or null. */
    findOne(where: Record<string, unknown>, select: string[]): Promise<Record<string, any> | null> {
      return query().findOne({ where, select });
    },

    findMany(where: Record<string, unknown>, select: string[]): Promise<Array<Record<string, any>>> {
      return query().findMany({ where, select, orderBy: { id: 'asc' } });
    },

    create(data: Record<string, unknown>, select: string[]): Promise<Record<string, any>> {
      return query().create({ data, select });
    },

    update(id: number, data: Record<string, unknown>, select: string[]): Promise<Record<string, any>> {
      return query().update({ where: { id }, data, select });
    },

  };
  // The key lookups run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  const lookups = repositoryOf(strapi, {
    /** The instance holding a key hash, or undefined: one indexed read (the hot path). */
    async byKeyHash(k: Knex, hash: string): Promise<KeyedInstance | undefined> {
      return k(tableName(strapi, INSTANCES)).where({ key_hash: hash }).first(['document_id', 'organization_id', 'user_id', 'key_hash']);
    },

    /**
     * The same, with the workflow a trigger URL names (`workflow`: null when it has none) in the
     * same round trip: the keyed trigger's two lookups in one indexed read.
     */
    async byKeyHashWithWorkflow(k: Knex, hash: string, instanceId: string, workflowId: string): Promise<(KeyedInstance & { workflow: TriggerWorkflow | null }) | undefined> {
      const row = await k(tableName(strapi, INSTANCES, 'i'))
        .leftJoin(tableName(strapi, WORKFLOWS, 'w'), (on) => on.on('w.document_id', k.raw('?', [workflowId])).andOn('w.instance_id', k.raw('?', [instanceId])))
        .where('i.key_hash', hash)
        .first(['i.document_id', 'i.organization_id', 'i.user_id', 'i.key_hash', ...TRIGGER_COLUMNS.map((c) => `w.${c} as w_${c}`)]);
      if (!row) return undefined;
      const { document_id, organization_id, user_id, key_hash } = row;
      return { document_id, organization_id, user_id, key_hash, workflow: row.w_document_id == null ? null : triggerWorkflowOf(row, 'w_') };
    },
  });
  return { ...managed, ...lookups };
};
