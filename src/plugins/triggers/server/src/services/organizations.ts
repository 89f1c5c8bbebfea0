import type { Core } from '@strapi/strapi';
import { lastUsedRecorder } from '../../../../../kernel/db';
import { notFound } from '../../../../../kernel/errors';
import { displayPrefix, generateSecret, hashSecret, safeEqual } from '../../../../../kernel/secrets';
import { ORGANIZATION_KEY_PREFIX } from '../domain/keys';
import { organizationKeyRecord, organizationRecord, type OrganizationKeyRecord, type OrganizationRecord } from '../domain/records';

const ORG = 'plugin::triggers.organization';
const KEY = 'plugin::triggers.organization-key';
const ORG_FIELDS = ['documentId', 'name', 'createdAt'];
const KEY_FIELDS = ['documentId', 'name', 'prefix', 'createdAt', 'lastUsedAt'];

export const orgNotFound = (id: string) =>
  notFound(`No organization with id ${id}.`, 'Call GET /api/organizations for your organizations.');

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const orgs = () => strapi.db.query(ORG);
  const keys = () => strapi.db.query(KEY);
  const recordUse = lastUsedRecorder(strapi, KEY);

  async function owned(userId: number, organizationId: string) {
    const row = await orgs().findOne({ where: { documentId: organizationId, userId }, select: ['id', 'documentId', 'userId'] });
    if (!row) throw orgNotFound(organizationId);
    return row;
  }

  return {
    /** The organization row when `userId` owns it; 404 otherwise. */
    owned,

    async create(userId: number, name: string): Promise<OrganizationRecord> {
      return organizationRecord(await orgs().create({ data: { name, userId }, select: ORG_FIELDS }));
    },

    async list(userId: number): Promise<OrganizationRecord[]> {
      const rows = await orgs().findMany({ where: { userId }, select: ORG_FIELDS, orderBy: { id: 'asc' } });
      return rows.map(organizationRecord);
    },

    async createKey(userId: number, organizationId: string, name: string): Promise<{ key: OrganizationKeyRecord; secret: string }> {
      await owned(userId, organizationId);
      const secret = generateSecret(ORGANIZATION_KEY_PREFIX);
      const row = await keys().create({
        data: { organizationId, userId, name, prefix: displayPrefix(secret), hash: hashSecret(secret) },
        select: KEY_FIELDS,
      });
      return { key: organizationKeyRecord(row), secret };
    },

    async listKeys(userId: number, organizationId: string): Promise<OrganizationKeyRecord[]> {
      await owned(userId, organizationId);
      const rows = await keys().findMany({ where: { organizationId }, select: KEY_FIELDS, orderBy: { id: 'desc' } });
      return rows.map(organizationKeyRecord);
    },

    async revokeKey(userId: number, organizationId: string, keyId: string): Promise<void> {
      await owned(userId, organizationId);
      const deleted = await keys().deleteMany({ where: { documentId: keyId, organizationId } });
      if (!deleted.count) {
        throw notFound(`No key with id ${keyId} in this organization.`, `Call GET /api/organizations/${organizationId}/keys.`);
      }
    },

    /** The organization (and its owner) a presented `cko_` key grants, or null. Looked up by its indexed hash. */
    async verifyKey(secret: string): Promise<{ keyId: number; organizationId: string; userId: number } | null> {
      const hash = hashSecret(secret);
      const row = await keys().findOne({ where: { hash }, select: ['id', 'hash', 'organizationId', 'userId'] });
      if (!row || !safeEqual(row.hash, hash)) return null;
      await recordUse(row.id);
      return { keyId: row.id, organizationId: row.organizationId, userId: row.userId };
    },
  };
};
