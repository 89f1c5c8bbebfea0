import type { Core } from '@strapi/strapi';
import { notFound } from '../domain/errors';
import { API_KEY_PREFIX, displayPrefix, generateSecret, hashSecret, safeEqual } from '../domain/secrets';
import { knexOf, tableName } from './store';

const UID = 'plugin::quire.api-key';
const USERS = 'plugin::users-permissions.user';
/** lastUsedAt is advisory: write it at most once a minute per key, not on every request. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

const toRecord = (row): ApiKeyRecord => ({
  id: row.documentId,
  name: row.name,
  prefix: row.prefix,
  createdAt: iso(row.createdAt)!,
  lastUsedAt: iso(row.lastUsedAt),
});

const RECORD_FIELDS = ['documentId', 'name', 'prefix', 'createdAt', 'lastUsedAt'];

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const query = () => strapi.db.query(UID);
  const lastWritten = new Map<number, number>();

  return {
    async create(userId: number, name: string): Promise<{ key: ApiKeyRecord; secret: string }> {
      const secret = generateSecret(API_KEY_PREFIX);
      const row = await query().create({
        data: { name, prefix: displayPrefix(secret), hash: hashSecret(secret), userId },
        select: RECORD_FIELDS,
      });
      return { key: toRecord(row), secret };
    },

    async list(userId: number): Promise<ApiKeyRecord[]> {
      const rows = await query().findMany({ where: { userId }, select: RECORD_FIELDS, orderBy: { id: 'desc' } });
      return rows.map(toRecord);
    },

    async revoke(userId: number, id: string): Promise<void> {
      const deleted = await query().deleteMany({ where: { documentId: id, userId } });
      if (!deleted.count) throw notFound(`No API key with id ${id}.`, 'Call GET /api/keys for your keys.');
    },

    /**
     * The key and its (unblocked) owner, or null. One indexed lookup by hash joined to the
     * user: this runs on every key-authenticated request.
     */
    async verify(secret: string): Promise<{ id: number; user: { id: number; username: string; email: string } } | null> {
      const hash = hashSecret(secret);
      const k = await knexOf(strapi);
      const row = await k(tableName(strapi, 'quire_api_keys', 'k'))
        .join(tableName(strapi, strapi.db.metadata.get(USERS).tableName, 'u'), 'u.id', 'k.user_id')
        .where('k.hash', hash)
        .first('k.id', 'k.hash', 'u.id as user_id', 'u.username', 'u.email', 'u.blocked');
      if (!row || !safeEqual(row.hash, hash) || row.blocked) return null;
      const now = Date.now();
      if (now - (lastWritten.get(row.id) ?? 0) >= LAST_USED_WRITE_INTERVAL_MS) {
        lastWritten.set(row.id, now);
        // Other processes may have written it recently; the condition keeps their writes rare too.
        await query().updateMany({
          where: { id: row.id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: new Date(now - LAST_USED_WRITE_INTERVAL_MS) } }] },
          data: { lastUsedAt: new Date(now) },
        });
      }
      return { id: Number(row.id), user: { id: Number(row.user_id), username: row.username, email: row.email } };
    },
  };
};
