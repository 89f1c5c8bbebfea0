/** Organizations (server routes/admin.ts): the list of every user's, one, create, their keys and new instances, and the users who can own one. */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import type { AdminItem, AdminList } from '#kernel/admin-ui/types';
import { useAdminGet } from '#kernel/admin-ui/use-admin-get';
import type { AdminInstanceSummary, AdminKeyIssued, AdminOrganization, AdminOrganizationDetail, AdminUser, CreateOrganizationInput } from '../api';

const organizationUrl = (id: string, rest = '') => `/triggers/organizations/${encodeURIComponent(id)}${rest}`;

export const useOrganizationList = (query: { page: string; pageSize: string; q?: string }) => useAdminGet<AdminList<AdminOrganization>>('/triggers/organizations', query);
export const useOrganization = (id: string | undefined) => useAdminGet<AdminItem<AdminOrganizationDetail>>(id ? organizationUrl(id) : null);

export function useOrganizationsApi() {
  const client = useClient();
  return {
    /** The server refuses a missing owner in words the form shows: the form sends what it has. */
    create: (input: Omit<CreateOrganizationInput, 'ownerId'> & { ownerId?: number }) => dataOf<AdminOrganizationDetail>(client.post('/triggers/organizations', input)),
    /** Users who can own an organization, matching what was typed. */
    users: (search: string) => dataOf<AdminUser[]>(client.get('/triggers/users', { params: { q: search, limit: 10 } })),
    createKey: (organizationId: string, name?: string) => dataOf<AdminKeyIssued>(client.post(organizationUrl(organizationId, '/keys'), { name })),
    revokeKey: (organizationId: string, keyId: string) => dataOf<{ id: string }>(client.del(organizationUrl(organizationId, `/keys/${encodeURIComponent(keyId)}`))),
    createInstance: (organizationId: string, name: string) => dataOf<AdminInstanceSummary>(client.post(organizationUrl(organizationId, '/instances'), { name })),
  };
}
