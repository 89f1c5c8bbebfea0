/**
 * quire_api_keys: users' API keys (hashed secrets), joined to their owner for verification.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { roleAllowsColumn } from '#kernel/permissions';
import { compiledQuery, knexOf, repositoryOf, tableName } from '#kernel/db';

export const KEYS_TABLE = 'quire_api_keys';
export const KEY_UID = 'plugin::quire.api-key';
const USERS = 'plugin::users-permissions.user';

/** What a key listing shows of each key. */
const RECORD_FIELDS = ['documentId', 'name', 'prefix', 'createdAt', 'lastUsedAt', 'scope', 'expiresAt'];

export interface KeyFields {
  documentId: string;
  name: string;
  prefix: string;
  createdAt: unknown;
  lastUsedAt: unknown;
  scope: string | null;
  expiresAt: unknown;
}

/** A key joined to its owner, as verification reads it (`allowed_<i>`: whether the role has the i-th action asked). */
export interface KeyRow {
  id: number;
  document_id: string;
  hash: string;
  scope: string | null;
  expires_at: unknown;
  origin: string | null;
  user_id: number;
  username: string;
  email: string;
  blocked: unknown;
  [allowed: `allowed_${number}`]: unknown;
}

export function keyRepository(strapi: Core.Strapi) {
  const keys = (alias?: string) => tableName(strapi, KEYS_TABLE, alias);
  const query = () => strapi.db.query(KEY_UID);
  // Every key-authenticated request runs it: compiled once per number of actions (kernel/db compiledQuery).
  const byHashQuery = compiledQuery((k: Knex, _actions: number, hash: string, ...actions: string[]) => {
    const q = k(keys('k'))
      .join(tableName(strapi, strapi.db.metadata.get(USERS).tableName, 'u'), 'u.id', 'k.user_id')
      .where('k.hash', hash);
    for (const [i, action] of actions.entries()) q.select(roleAllowsColumn(strapi, k, 'u.id', action, `allowed_${i}`));
    return q.select('k.id', 'k.document_id', 'k.hash', 'k.scope', 'k.expires_at', 'k.origin', 'u.id as user_id', 'u.username', 'u.email', 'u.blocked').limit(1);
  });
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return Object.assign(
    repositoryOf(strapi, {
      /** A key's name, or undefined. */
      /** A key's name and origin ('login' for a key `quire login` issued, else 'api'), or undefined. */
      async nameOf(k: Knex, keyId: number): Promise<{ name: string; origin: string } | undefined> {
        const row = await k(keys()).where({ id: keyId }).first('name', 'origin');
        return row ? { name: row.name, origin: row.origin ?? 'api' } : undefined;
      },
    }),
    {
      async create(data: { name: string; prefix: string; hash: string; userId: number; scope: string; expiresAt: Date | null; origin: string }): Promise<KeyFields> {
        return query().create({ data, select: RECORD_FIELDS });
      },

      /** The user's keys, newest first. */
      async list(userId: number): Promise<KeyFields[]> {
        return query().findMany({ where: { userId }, select: RECORD_FIELDS, orderBy: { id: 'desc' } });
      },

      /** Deletes the user's key; false when there was none. */
      async remove(userId: number, documentId: string): Promise<boolean> {
        return (await query().deleteMany({ where: { documentId, userId } })).count > 0;
      },

      /**
       * The key with this hash and its owner, or undefined: one indexed lookup joined to the user;
       * with `actions`, also whether the user's role allows each (`allowed_0`, `allowed_1`...), in
       * the same round trip (kernel/permissions).
       */
      async byHash(hash: string, actions: readonly string[] = []): Promise<KeyRow | undefined> {
        const rows = await byHashQuery<KeyRow>(await knexOf(strapi), String(actions.length), actions.length, hash, ...actions);
        return rows[0];
      },
    },
  );
}
