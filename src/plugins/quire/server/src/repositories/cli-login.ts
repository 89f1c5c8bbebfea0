/**
 * quire_cli_logins: the `quire login` device flow's requests (hashed device and user codes).
 */
import type { Core } from '@strapi/strapi';

const UID = 'plugin::quire.cli-login';

export interface NewLogin {
  deviceCodeHash: string;
  userCodeHash: string;
  name: string;
  interval: number;
  expiresAt: Date;
  requestIp: string;
}

export function cliLoginRepository(strapi: Core.Strapi) {
  const query = () => strapi.db.query(UID);
  const changed = async (where: Record<string, unknown>, data: Record<string, unknown>) => (await query().updateMany({ where, data })).count;
  return {
    /** Drops logins that expired before `before`. */
    async removeExpiredBefore(before: Date): Promise<void> {
      await query().deleteMany({ where: { expiresAt: { $lt: before } } });
    },

    /** Whether a login live at `now` has this user code. */
    async liveUserCode(userCodeHash: string, now: Date): Promise<boolean> {
      return Boolean(await query().findOne({ where: { userCodeHash, expiresAt: { $gt: now } }, select: ['id'] }));
    },

    async create(login: NewLogin): Promise<void> {
      await query().create({ data: { ...login, status: 'pending' }, select: ['id'] });
    },

    byDeviceCode(deviceCodeHash: string) {
      return query().findOne({ where: { deviceCodeHash }, select: ['id', 'name', 'status', 'userId', 'interval', 'expiresAt', 'lastPolledAt'] });
    },

    /** The live pending login of a user code, or null. */
    pendingByUserCode(userCodeHash: string, now: Date) {
      return query().findOne({ where: { userCodeHash, status: 'pending', expiresAt: { $gt: now } }, select: ['id', 'name', 'createdAt', 'expiresAt', 'requestIp'] });
    },

    /** The newest login (kept) of a user code, or null. */
    latestByUserCode(userCodeHash: string) {
      return query().findOne({ where: { userCodeHash }, select: ['status', 'expiresAt'], orderBy: { id: 'desc' } });
    },

    /** Marks an approved login consumed; false when it was not (any more) approved. */
    async consume(id: number): Promise<boolean> {
      return (await changed({ id, status: 'approved' }, { status: 'consumed' })) > 0;
    },

    async setPolling(id: number, data: { interval?: number; lastPolledAt?: Date }): Promise<void> {
      await changed({ id }, data);
    },

    /** Records a pending login's poll when the last one was at or before `onTimeBefore`; false when it came too soon. */
    async countPoll(id: number, now: Date, onTimeBefore: Date): Promise<boolean> {
      return (await changed({ id, status: 'pending', $or: [{ lastPolledAt: null }, { lastPolledAt: { $lte: onTimeBefore } }] }, { lastPolledAt: now })) > 0;
    },

    /** Approves (for userId) or denies a login live and pending at `now`; false when it is not. */
    async decide(id: number, now: Date, decision: { approve: true; userId: number } | { approve: false }): Promise<boolean> {
      const data = decision.approve ? { status: 'approved', userId: decision.userId, decidedAt: now } : { status: 'denied', decidedAt: now };
      return (await changed({ id, status: 'pending', expiresAt: { $gt: now } }, data)) === 1;
    },
  };
}
