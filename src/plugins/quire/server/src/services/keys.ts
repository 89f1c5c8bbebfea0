import type { Core } from '@strapi/strapi';
import type { Scope } from '#kernel/auth';
import type { UserCaller } from '../../../../../contracts/credentials';
import { invalidArgument, notFound } from '#kernel/errors';
import { displayPrefix, generateSecret, hashSecret, safeEqual } from '#kernel/secrets';
import { iso, lastUsedRecorder } from '#kernel/db';
import { KEY_UID, keyRepository } from '../repositories/keys';
import type { ApiKeyRecord } from '../schemas/records';

/** Prefix of a user's API key (the article API's Bearer key). */
export const API_KEY_PREFIX = 'qk_';


export type { ApiKeyRecord };

/**
 * Keys are managed by the person, not by their agents: a JWT, the session cookie, or the key
 * `quire login` issued after the person approved it with their session. A key made with
 * POST /api/keys may only revoke itself (log out): a leaked agent key can neither mint new keys
 * nor revoke the others. (Read and suggest keys are refused earlier: these routes are writes.)
 */
export function mayManageKeys(caller: UserCaller, revoking?: string): boolean {
  // An OAuth token is an agent's too: it manages nothing of the person's credentials.
  if (caller.credential === 'oauth') return false;
  if (caller.credential !== 'api-key') return true;
  if (caller.keyFromLogin) return true;
  return revoking !== undefined && revoking === caller.keyDocumentId;
}

const toRecord = (row): ApiKeyRecord => ({
  id: row.documentId,
  name: row.name,
  prefix: row.prefix,
  createdAt: iso(row.createdAt)!,
  lastUsedAt: iso(row.lastUsedAt),
  scope: (row.scope ?? 'write') as Scope,
  expiresAt: iso(row.expiresAt),
});

/**
 * Where a key came from: `api` (POST /api/keys, for agents and scripts) or `login` (issued by
 * `quire login` once the person approved it in the browser with their session). A login key is
 * that person's login on one device, so it may create and revoke keys like a session; an `api`
 * key may not (a leaked agent key must not mint or revoke others).
 */
export type KeyOrigin = 'api' | 'login';

export interface KeyOptions {
  name: string;
  scope?: Scope;
  /** An ISO time in the future, or null/undefined for never. */
  expiresAt?: string | null;
  origin?: KeyOrigin;
}

/** What a presented key is: valid (with its owner, scope and origin), expired, or unknown/revoked. */
export type KeyCheck =
  | {
      status: 'valid';
      id: number;
      documentId: string;
      scope: Scope;
      origin: KeyOrigin;
      user: { id: number; username: string; email: string };
      /** Whether the user's role has each action asked for, by action. */
      permissions?: Record<string, boolean>;
    }
  | { status: 'expired' }
  | null;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const keys = keyRepository(strapi);
  const recordUse = lastUsedRecorder(strapi, KEY_UID);

  return {
    async create(userId: number, { name, scope = 'write', expiresAt = null, origin = 'api' }: KeyOptions): Promise<{ key: ApiKeyRecord; secret: string }> {
      const expires = expiresAt === null ? null : new Date(expiresAt);
      if (expires && expires.getTime() <= Date.now()) {
        throw invalidArgument(
          `expiresAt (${expiresAt}) is in the past.`,
          'Pass "expiresAt" as a time in the future, or leave it out for a key that never expires.',
        );
      }
      const secret = generateSecret(API_KEY_PREFIX);
      const row = await keys.create({ name, prefix: displayPrefix(secret), hash: hashSecret(secret), userId, scope, expiresAt: expires, origin });
      return { key: toRecord(row), secret };
    },

    async list(userId: number): Promise<ApiKeyRecord[]> {
      return (await keys.list(userId)).map(toRecord);
    },

    async revoke(userId: number, id: string): Promise<void> {
      if (!(await keys.remove(userId, id))) throw notFound(`No API key with id ${id}.`, 'Call GET /api/keys for your keys.');
    },

    /**
     * The key, its scope and its (unblocked) owner; `expired` past its expiresAt; or null. One
     * indexed lookup by hash joined to the user: this runs on every key-authenticated request.
     */
    async verify(secret: string, actions: readonly string[] = []): Promise<KeyCheck> {
      const hash = hashSecret(secret);
      const row = await keys.byHash(hash, actions);
      if (!row || !safeEqual(row.hash, hash) || row.blocked) return null;
      const expiresAt = iso(row.expires_at);
      if (expiresAt && Date.parse(expiresAt) <= Date.now()) return { status: 'expired' };
      await recordUse(Number(row.id));
      return {
        status: 'valid',
        id: Number(row.id),
        documentId: row.document_id,
        scope: (row.scope ?? 'write') as Scope,
        origin: row.origin === 'login' ? 'login' : 'api',
        user: { id: Number(row.user_id), username: row.username, email: row.email },
        ...(actions.length && { permissions: Object.fromEntries(actions.map((action, i) => [action, Boolean(Number(row[`allowed_${i}`]))])) }),
      };
    },
  };
};
