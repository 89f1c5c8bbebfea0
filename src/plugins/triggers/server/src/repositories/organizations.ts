/**
 * The organizations and organization keys tables, through the query engine (document ids,
 * timestamps, the open transaction). Keys are found by their indexed hash.
 */
import type { Core } from '@strapi/strapi';
import { lastUsedRecorder } from '#kernel/db';

const ORG = 'plugin::triggers.organization';
const KEY = 'plugin::triggers.organization-key';

export const organizationsRepository = (strapi: Core.Strapi) => {
  const orgs = () => strapi.db.query(ORG);
  const keys = () => strapi.db.query(KEY);
  const recordUse = lastUsedRecorder(strapi, KEY);

  return {
    /** The organization with this id (owned by `userId` when given), or null. */
    findOne(organizationId: string, userId?: number): Promise<{ id: number; documentId: string; userId: number } | null> {
      const where = userId === undefined ? { documentId: organizationId } : { documentId: organizationId, userId };
      return orgs().findOne({ where, select: ['id', 'documentId', 'userId'] });
    },

    create(data: { name: string; userId: number }, select: string[]): Promise<Record<string, any>> {
      return orgs().create({ data, select });
    },

    listByUser(userId: number, select: string[]): Promise<Array<Record<string, any>>> {
      return orgs().findMany({ where: { userId }, select, orderBy: { id: 'asc' } });
    },

    createKey(data: Record<string, unknown>, select: string[]): Promise<Record<string, any>> {
      return keys().create({ data, select });
    },

    /** The organization's keys, newest first. */
    listKeys(organizationId: string, select: string[]): Promise<Array<Record<string, any>>> {
      return keys().findMany({ where: { organizationId }, select, orderBy: { id: 'desc' } });
    },

    /** Deletes a key of the organization; how many rows went. */
    async deleteKey(organizationId: string, keyId: string): Promise<number> {
      return (await keys().deleteMany({ where: { documentId: keyId, organizationId } })).count;
    },

    /** The key row holding this hash, or null. */
    keyByHash(hash: string): Promise<{ id: number; hash: string; organizationId: string; userId: number } | null> {
      return keys().findOne({ where: { hash }, select: ['id', 'hash', 'organizationId', 'userId'] });
    },

    /** Records a key's use (throttled: at most one write a minute per key). */
    markKeyUsed: (id: number): Promise<void> => recordUse(id),
  };
};
