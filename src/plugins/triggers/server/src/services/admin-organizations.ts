/**
 * What the admin panel reads of the organizations: every user's, with their owner and how
 * many process instances and organization keys each has. The management API (owner-scoped,
 * services/organizations) is not involved.
 */
import type { Core } from '@strapi/strapi';
import { paginationOf, type Pagination } from '#kernel/admin-routes';
import { iso } from '#kernel/db';
import { adminRepository } from '../repositories/admin';
import type { AdminOrganization } from '../schemas/admin';

export type { AdminOrganization };

const count = (value: unknown) => (value == null ? 0 : Number(value));

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repo = adminRepository(strapi);

  return {
    /** A page of every user's organizations, oldest first, filtered by part of their name. */
    async list(query: { page: number; pageSize: number; q?: string }): Promise<{ results: AdminOrganization[]; pagination: Pagination }> {
      const { rows, total } = await repo.organizations(query);
      const results = rows.map((r: any) => ({
        id: r.document_id,
        name: r.name,
        owner: r.owner_id == null ? null : { id: Number(r.owner_id), username: r.owner_username, email: r.owner_email },
        instances: count(r.instance_count),
        keys: count(r.key_count),
        createdAt: iso(r.created_at)!,
      }));
      return { results, pagination: paginationOf(query.page, query.pageSize, total) };
    },
  };
};
