/**
 * What the admin panel reads of the organizations: every user's, with their owner and how
 * many process instances and organization keys each has. The management API (owner-scoped,
 * services/organizations) is not involved.
 */
import type { Core } from '@strapi/strapi';
import { containsPattern, paginationOf, type Pagination } from '../../../../../kernel/admin-routes';
import { iso, knexOf, tableName } from '../../../../../kernel/db';
import type { AdminOrganization } from '../schemas/admin';

export type { AdminOrganization };

const UID = {
  organization: 'plugin::triggers.organization',
  instance: 'plugin::triggers.process-instance',
  key: 'plugin::triggers.organization-key',
  user: 'plugin::users-permissions.user',
};

const count = (value: unknown) => (value == null ? 0 : Number(value));

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const table = (uid: string, alias: string) => tableName(strapi, strapi.db.metadata.get(uid).tableName, alias);

  return {
    /** A page of every user's organizations, oldest first, filtered by part of their name. */
    async list(query: { page: number; pageSize: number; q?: string }): Promise<{ results: AdminOrganization[]; pagination: Pagination }> {
      const k = await knexOf(strapi);
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
      const results = rows.map((r: any) => ({
        id: r.document_id,
        name: r.name,
        owner: r.owner_id == null ? null : { id: Number(r.owner_id), username: r.owner_username, email: r.owner_email },
        instances: count(r.instance_count),
        keys: count(r.key_count),
        createdAt: iso(r.created_at)!,
      }));
      return { results, pagination: paginationOf(query.page, query.pageSize, count(total)) };
    },
  };
};
