/**
 * What the trigger panel reads across every user's data: organizations with their owners and
 * counts, instances with theirs, users to choose an owner from. Joins through Knex (kernel/db:
 * the transaction's handle, schema-qualified table names); rows come back as they are stored
 * (snake_case), and the admin services map them.
 */
import type { Core } from '@strapi/strapi';
import { containsPattern } from '#kernel/admin-routes';
import type { Knex } from 'knex';
import { repositoryOf, tableName } from '#kernel/db';

const UID = {
  organization: 'plugin::triggers.organization',
  instance: 'plugin::triggers.process-instance',
  key: 'plugin::triggers.organization-key',
  workflow: 'plugin::triggers.workflow',
  user: 'plugin::users-permissions.user',
};

type Row = Record<string, any>;

export const adminRepository = (strapi: Core.Strapi) => {
  const table = (uid: string, alias: string) => tableName(strapi, strapi.db.metadata.get(uid).tableName, alias);

  // The Knex reads run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  const reads = repositoryOf(strapi, {
    /** A page of every user's organizations, oldest first, filtered by part of their name; and how many match. */
    async organizations(k: Knex, query: { page: number; pageSize: number; q?: string }): Promise<{ rows: Row[]; total: number }> {
      const filter = (q) => (query.q ? q.whereRaw(`lower(??) like ? escape '\\'`, ['o.name', containsPattern(query.q)]) : q);
      const [{ total }] = await filter(k(table(UID.organization, 'o'))).count({ total: '*' });
      const rows = await filter(k(table(UID.organization, 'o')))
        .leftJoin(table(UID.user, 'u'), 'u.id', 'o.user_id')
        .select('o.id', 'o.document_id', 'o.name', 'o.created_at')
        .select({ owner_id: 'u.id', owner_username: 'u.username', owner_email: 'u.email' })
        .select(
          k(table(UID.instance, 'i')).count('*').whereRaw('?? = ??', ['i.organization_id', 'o.document_id']).as('instance_count'),
          k(table(UID.key, 'ok')).count('*').whereRaw('?? = ??', ['ok.organization_id', 'o.document_id']).as('key_count'),
        )
        .orderBy('o.id', 'asc')
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize);
      return { rows, total: total == null ? 0 : Number(total) };
    },

    /** One organization with its owner's columns, or undefined. */
    async organization(k: Knex, organizationId: string): Promise<Row | undefined> {
      return k(table(UID.organization, 'o'))
        .leftJoin(table(UID.user, 'u'), 'u.id', 'o.user_id')
        .where('o.document_id', organizationId)
        .first('o.document_id', 'o.name', 'o.created_at', 'o.user_id', { owner_id: 'u.id', owner_username: 'u.username', owner_email: 'u.email' });
    },

    /** Instances (of an organization, or one) with their organization, owner and workflow count, oldest first. */
    async instances(k: Knex, where: { organizationId?: string; instanceId?: string }): Promise<Row[]> {
      const q = k(table(UID.instance, 'i'))
        .join(table(UID.organization, 'o'), 'o.document_id', 'i.organization_id')
        .leftJoin(table(UID.user, 'u'), 'u.id', 'i.user_id')
        .select('i.document_id', 'i.name', 'i.key_ciphertext', 'i.created_at', 'o.document_id as organization_id', 'o.name as organization_name')
        .select({ owner_id: 'u.id', owner_username: 'u.username', owner_email: 'u.email' })
        .select(k(table(UID.workflow, 'w')).count('*').whereRaw('?? = ??', ['w.instance_id', 'i.document_id']).as('workflow_count'))
        .orderBy('i.id', 'asc');
      if (where.organizationId) q.where('i.organization_id', where.organizationId);
      if (where.instanceId) q.where('i.document_id', where.instanceId);
      return q;
    },

    /** Users whose username or email contains `q` (any case), by username. */
    async users(k: Knex, query: { q?: string; limit?: number }): Promise<Array<{ id: number; username: string; email: string }>> {
      const q = k(table(UID.user, 'u')).select('u.id', 'u.username', 'u.email').orderBy('u.username', 'asc').limit(query.limit ?? 10);
      if (query.q) {
        const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q.where((w) => w.whereRaw(`lower(??) like ? escape '\\'`, ['u.username', pattern]).orWhereRaw(`lower(??) like ? escape '\\'`, ['u.email', pattern]));
      }
      return (await q).map((r: any) => ({ id: Number(r.id), username: r.username, email: r.email }));
    },

  });

  return {
    ...reads,

    async userExists(id: number): Promise<boolean> {
      return Boolean(await strapi.db.query(UID.user).findOne({ where: { id }, select: ['id'] }));
    },

    /** The owner of an organization or of an instance, or null when there is none. */
    async ownerOf(kind: 'organization' | 'instance', documentId: string): Promise<number | null> {
      const row = await strapi.db.query(UID[kind]).findOne({ where: { documentId }, select: ['id', 'userId'] });
      return row ? Number(row.userId) : null;
    },

    /** A workflow of an instance with its organization and sealed signing secrets, or null. */
    workflow(instanceId: string, workflowId: string): Promise<{ id: number; documentId: string; organizationId: string; secretsCiphertext: string | null } | null> {
      return strapi.db.query(UID.workflow).findOne({ where: { documentId: workflowId, instanceId }, select: ['id', 'documentId', 'organizationId', 'secretsCiphertext'] });
    },
  };
};
