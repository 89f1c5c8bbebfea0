import type { Core } from '@strapi/strapi';
import { notFound } from '#kernel/errors';
import { displayPrefix, generateSecret, hashSecret, safeEqual } from '#kernel/secrets';
import { ORGANIZATION_KEY_PREFIX } from '../domain/keys';
import { organizationKeyRecord, organizationRecord } from '../repositories/records';
import type { OrganizationKeyRecord, OrganizationRecord } from '../schemas/records';
import { organizationsRepository } from '../repositories/organizations';

const ORG_FIELDS = ['documentId', 'name', 'createdAt'];
const KEY_FIELDS = ['documentId', 'name', 'prefix', 'createdAt', 'lastUsedAt'];

export const orgNotFound = (id: string) =>
  notFound(`No organization with id ${id}.`, 'Call GET /api/organizations for your organizations.');

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repo = organizationsRepository(strapi);

  async function owned(userId: number, organizationId: string) {
    const row = await repo.findOne(organizationId, userId);
    if (!row) throw orgNotFound(organizationId);
    return row;
  }

  return {
    /** The organization row when `userId` owns it; 404 otherwise. */
    owned,

    async create(userId: number, name: string): Promise<OrganizationRecord> {
      return organizationRecord(await repo.create({ name, userId }, ORG_FIELDS));
    },

    async list(userId: number): Promise<OrganizationRecord[]> {
      const rows = await repo.listByUser(userId, ORG_FIELDS);
      return rows.map(organizationRecord);
    },

    async createKey(userId: number, organizationId: string, name: string): Promise<{ key: OrganizationKeyRecord; secret: string }> {
      await owned(userId, organizationId);
      const secret = generateSecret(ORGANIZATION_KEY_PREFIX);
      const row = await repo.createKey({ organizationId, userId, name, prefix: displayPrefix(secret), hash: hashSecret(secret) }, KEY_FIELDS);
      return { key: organizationKeyRecord(row), secret };
    },

    async listKeys(userId: number, organizationId: string): Promise<OrganizationKeyRecord[]> {
      await owned(userId, organizationId);
      const rows = await repo.listKeys(organizationId, KEY_FIELDS);
      return rows.map(organizationKeyRecord);
    },

    async revokeKey(userId: number, organizationId: string, keyId: string): Promise<void> {
      await owned(userId, organizationId);
      if (!(await repo.deleteKey(organizationId, keyId))) {
        throw notFound(`No key with id ${keyId} in this organization.`, `Call GET /api/organizations/${organizationId}/keys.`);
      }
    },

    /** The organization (and its owner) a presented `cko_` key grants, or null. Looked up by its indexed hash. */
    async verifyKey(secret: string): Promise<{ keyId: number; organizationId: string; userId: number } | null> {
      const hash = hashSecret(secret);
      const row = await repo.keyByHash(hash);
      if (!row || !safeEqual(row.hash, hash)) return null;
      await repo.markKeyUsed(row.id);
      return { keyId: row.id, organizationId: row.organizationId, userId: row.userId };
    },
  };
};
