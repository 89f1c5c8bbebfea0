/**
 * The process instances table: the query engine for management (document ids, timestamps, the
 * open transaction), and the instance-key lookup of every keyed trigger as one indexed Knex read
 * (kernel/db: the transaction's handle, the schema-qualified table name).
 */
import type { Core } from '@strapi/strapi';
import { knexOf, tableName } from '../../../../../kernel/db';

const UID = 'plugin::triggers.process-instance';
export const INSTANCES = 'triggers_process_instances';

export const instancesRepository = (strapi: Core.Strapi) => {
  const query = () => strapi.db.query(UID);

  return {
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

    /** The instance holding a key hash, or undefined: one indexed read (the hot path). */
    async byKeyHash(hash: string): Promise<{ document_id: string; organization_id: string; user_id: number | string; key_hash: string } | undefined> {
      const k = await knexOf(strapi);
      return k(tableName(strapi, INSTANCES)).where({ key_hash: hash }).first(['document_id', 'organization_id', 'user_id', 'key_hash']);
    },
  };
};
