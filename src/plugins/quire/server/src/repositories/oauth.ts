/**
 * The OAuth tables: registered clients (quire_oauth_clients), grants (a person's authorization
 * of a client) and their tokens (one-time codes, access and refresh tokens, hashed).
 */
import type { Core } from '@strapi/strapi';

export const OAUTH_GRANT_UID = 'plugin::quire.oauth-grant';
const CLIENTS = 'plugin::quire.oauth-client';
const TOKENS = 'plugin::quire.oauth-token';

export type TokenKind = 'code' | 'access' | 'refresh';

export function oauthRepository(strapi: Core.Strapi) {
  const db = (uid: string) => strapi.db.query(uid as never);
  const clients = () => db(CLIENTS);
  const grants = () => db(OAUTH_GRANT_UID);
  const tokens = () => db(TOKENS);
  return {
    // Clients
    async createClient(client: { clientId: string; name: string; uri: string | null; redirectUris: string[] }): Promise<void> {
      await clients().create({ data: client });
    },
    findClient(clientId: string) {
      return clients().findOne({ where: { clientId } });
    },
    async markClientsAuthorized(clientIds: string[]): Promise<void> {
      if (clientIds.length) await clients().updateMany({ where: { clientId: { $in: clientIds }, authorizedAt: null }, data: { authorizedAt: new Date() } });
    },
    /** Registered clients never authorized and created before `before`, 500 at most. */
    unusedClients(before: Date): Promise<Array<{ id: number; clientId: string }>> {
      return clients().findMany({ where: { authorizedAt: null, createdAt: { $lt: before } }, select: ['id', 'clientId'], limit: 500 });
    },
    async removeClients(ids: number[]): Promise<number> {
      return (await clients().deleteMany({ where: { id: { $in: ids } } })).count;
    },

    // Grants
    /** The distinct clients, among these, that have a grant. */
    async clientsWithGrants(clientIds: string[]): Promise<string[]> {
      const rows = await grants().findMany({ where: { clientId: { $in: clientIds } }, select: ['clientId'] });
      return [...new Set(rows.map((g: { clientId: string }) => g.clientId))] as string[];
    },
    createGrant(data: { userId: number; clientId: string; clientName: string; clientUri: string | null; scope: string; resource: string }) {
      return grants().create({ data });
    },
    findGrant(id: number) {
      return grants().findOne({ where: { id } });
    },
    /** A user's live grant by its public id, or null. */
    findLiveGrantOf(userId: number, documentId: string) {
      return grants().findOne({ where: { documentId, userId, revokedAt: null } });
    },
    /** A user's live grants, newest first. */
    liveGrantsOf(userId: number) {
      return grants().findMany({ where: { userId, revokedAt: null }, orderBy: { id: 'desc' } });
    },
    /** Revokes grants and deletes their codes and tokens (revokedAt first: it is what every check reads). */
    async revokeGrants(ids: number[]): Promise<void> {
      if (!ids.length) return;
      if (ids.length === 1) await grants().update({ where: { id: ids[0] }, data: { revokedAt: new Date() } });
      else await grants().updateMany({ where: { id: { $in: ids } }, data: { revokedAt: new Date() } });
      await tokens().deleteMany({ where: { grantId: ids.length === 1 ? ids[0] : { $in: ids } } });
    },

    // Tokens
    async createToken(data: { hash: string; kind: TokenKind; grantId: number; expiresAt: Date; redirectUri?: string; codeChallenge?: string }): Promise<void> {
      await tokens().create({ data });
    },
    /** A token by hash (of one kind, when given), or null. */
    findToken(hash: string, kind?: TokenKind) {
      return tokens().findOne({ where: kind ? { hash, kind } : { hash } });
    },
    /** Marks a token used; false when it already was. */
    async markTokenUsed(id: number): Promise<boolean> {
      return (await tokens().updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date() } })).count > 0;
    },
    async removeToken(id: number): Promise<void> {
      await tokens().delete({ where: { id } });
    },
    /** Deletes tokens expired at `now` and refresh tokens rotated before `rotatedBefore`; how many. */
    async removeSpentTokens(now: Date, rotatedBefore: Date): Promise<number> {
      const expired = await tokens().deleteMany({ where: { expiresAt: { $lt: now } } });
      const rotated = await tokens().deleteMany({ where: { kind: 'refresh', usedAt: { $lt: rotatedBefore } } });
      return expired.count + rotated.count;
    },
  };
}
