/**
 * quire_web_sessions: the sessions of our server-rendered pages (hashed tokens).
 */
import type { Core } from '@strapi/strapi';

const UID = 'plugin::quire.web-session';

export function webSessionRepository(strapi: Core.Strapi) {
  const query = () => strapi.db.query(UID);
  return {
    async create(tokenHash: string, userId: number, expiresAt: Date): Promise<void> {
      await query().create({ data: { tokenHash, userId, expiresAt }, select: ['id'] });
    },

    /** The user id of a session live at `now`, or undefined. */
    async userIdOf(tokenHash: string, now: Date): Promise<number | undefined> {
      const row = await query().findOne({ where: { tokenHash, expiresAt: { $gt: now } }, select: ['userId'] });
      return row ? Number(row.userId) : undefined;
    },

    async removeExpired(userId: number, now: Date): Promise<void> {
      await query().deleteMany({ where: { userId, expiresAt: { $lt: now } } });
    },

    async removeByHash(tokenHash: string): Promise<void> {
      await query().deleteMany({ where: { tokenHash } });
    },

    /** Deletes every session of a user; how many. */
    async removeAllFor(userId: number): Promise<number> {
      return (await query().deleteMany({ where: { userId } })).count;
    },
  };
}
