import type { Core } from '@strapi/strapi';
import { publicUrl } from '#kernel/config';
import { quireConfig } from '../config';
import { ApiError, notFound } from '#kernel/errors';
import {
  LOGIN_TTL_SECONDS,
  MAX_POLL_INTERVAL_SECONDS,
  POLL_TOLERANCE_MS,
  formatUserCode,
  generateDeviceCode,
  generateUserCode,
  hashUserCode,
  normalizeUserCode,
  pollOutcome,
  type LoginStatus,
} from '../domain/device-login';
import { hashSecret } from '#kernel/secrets';
import { cliLoginRepository } from '../repositories/cli-login';
import { getService } from './get-service';

export const LOGIN_PAGE_PATH = '/cli/login';
/** Expired logins are kept this long, so a late poll hears "expired" rather than "unknown". */
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

const RESTART = 'Start again with POST /api/cli/login-request ("quire login").';

/** Limits on the two unauthenticated routes, per client address. */
export const REQUEST_LIMIT = { points: 30, durationSec: 600 };
// Generous: many devices behind one NAT poll at once; device codes cannot be guessed anyway.
export const COMPLETE_LIMIT = { points: 3000, durationSec: 600 };

export interface PendingLogin {
  id: number;
  name: string;
  userCode: string;
  createdAt: Date;
  expiresAt: Date;
  requestIp: string | null;
}

export interface LoginRequestData {
  deviceCode: string;
  userCode: string;
  verificationUrl: string;
  verificationUrlComplete: string;
  expiresIn: number;
  interval: number;
}

const asDate = (value: unknown) => (value == null ? null : new Date(value as string));

/** The device flow's errors; their codes and statuses are documented in docs/api.md ("CLI login"). */
export const loginErrors = {
  pending: (interval: number, expiresAt: Date) =>
    new ApiError(
      'authorization-pending',
      'The login has not been approved yet.',
      `Keep polling POST /api/cli/login-complete every ${interval} seconds until it is approved (the code expires at ${expiresAt.toISOString()}).`,
      { status: 400 },
    ),
  slowDown: (interval: number) =>
    new ApiError('slow-down', `Polling too fast: poll at most every ${interval} seconds.`, `Wait ${interval} seconds, then keep polling at that interval.`, {
      status: 429,
      headers: { 'Retry-After': String(interval) },
    }),
  denied: () => new ApiError('access-denied', 'The login was denied on the approval page.', `Stop polling. ${RESTART}`, { status: 403 }),
  expired: (reason: 'expired' | 'used') =>
    new ApiError(
      'expired-token',
      reason === 'used' ? 'This device code has already been used.' : 'This login has expired: it was not approved within 10 minutes.',
      `Stop polling. ${RESTART}`,
      { status: 410 },
    ),
  unknown: () => notFound('No login has this device code.', `Stop polling. ${RESTART}`),
};

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const logins = cliLoginRepository(strapi);
  const rateLimit = () => getService(strapi, 'rateLimit');

  /** The server secret that user codes are keyed with (the first of Strapi's APP_KEYS). */
  function pepper(): string {
    const keys = strapi.config.get('server.app.keys') as string[] | undefined;
    if (!keys?.[0]) throw new Error('APP_KEYS is not set');
    return keys[0];
  }

  const pollInterval = quireConfig(strapi).cliLoginInterval;

  return {
    pageUrl: () => publicUrl(strapi) + LOGIN_PAGE_PATH,

    async request(name: string, ip: string): Promise<LoginRequestData> {
      await rateLimit().consume('cli-login-request', ip, REQUEST_LIMIT, 1, 'Too many login requests from this address.');
      const now = Date.now();
      await logins.removeExpiredBefore(new Date(now - KEEP_EXPIRED_MS));

      // A user code must point at one live login; with 20^8 codes a clash is rare, but possible.
      let userCode = generateUserCode();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        if (!(await logins.liveUserCode(hashUserCode(userCode, pepper()), new Date(now)))) break;
        userCode = generateUserCode();
      }
      const deviceCode = generateDeviceCode();
      const interval = pollInterval;
      await logins.create({
        deviceCodeHash: hashSecret(deviceCode),
        userCodeHash: hashUserCode(userCode, pepper()),
        name,
        interval,
        expiresAt: new Date(now + LOGIN_TTL_SECONDS * 1000),
        requestIp: ip.slice(0, 64),
      });
      const verificationUrl = publicUrl(strapi) + LOGIN_PAGE_PATH;
      const shown = formatUserCode(userCode);
      return {
        deviceCode,
        userCode: shown,
        verificationUrl,
        verificationUrlComplete: `${verificationUrl}?code=${encodeURIComponent(shown)}`,
        expiresIn: LOGIN_TTL_SECONDS,
        interval,
      };
    },

    /**
     * One poll by the device. Throws the flow's error for every state but approval; an approved
     * login is consumed in the same transaction that creates the key, so it yields one key once.
     */
    async complete(deviceCode: string, ip: string) {
      await rateLimit().consume('cli-login-complete', ip, COMPLETE_LIMIT, 1, 'Too many polls from this address.');
      const row = await logins.byDeviceCode(hashSecret(deviceCode));
      if (!row) throw loginErrors.unknown();
      const now = new Date();
      const login = {
        status: row.status as LoginStatus,
        expiresAt: asDate(row.expiresAt)!,
        lastPolledAt: asDate(row.lastPolledAt),
        interval: row.interval,
      };
      const outcome = pollOutcome(login, now);
      switch (outcome.kind) {
        case 'expired':
          throw loginErrors.expired(outcome.reason);
        case 'denied':
          throw loginErrors.denied();
        case 'approved': {
          const issued = await strapi.db.transaction(async () => {
            if (!(await logins.consume(row.id))) return null;
            return getService(strapi, 'keys').create(row.userId, { name: row.name, origin: 'login' });
          });
          if (!issued) throw loginErrors.expired('used');
          return issued;
        }
        case 'slow-down':
          await logins.setPolling(row.id, { interval: outcome.interval, lastPolledAt: now });
          throw loginErrors.slowDown(outcome.interval);
        case 'pending': {
          // Two polls racing past the read above: only one of them is on time.
          const onTimeBefore = new Date(now.getTime() - login.interval * 1000 + POLL_TOLERANCE_MS);
          if (!(await logins.countPoll(row.id, now, onTimeBefore))) {
            const interval = Math.min(login.interval + 5, MAX_POLL_INTERVAL_SECONDS);
            await logins.setPolling(row.id, { interval });
            throw loginErrors.slowDown(interval);
          }
          throw loginErrors.pending(login.interval, login.expiresAt);
        }
      }
    },

    /** The live, undecided login a person's typed code points at, or null. */
    async findPending(typed: unknown): Promise<PendingLogin | null> {
      const code = normalizeUserCode(typed);
      if (!code) return null;
      const row = await logins.pendingByUserCode(hashUserCode(code, pepper()), new Date());
      if (!row) return null;
      return {
        id: row.id,
        name: row.name,
        userCode: formatUserCode(code),
        createdAt: asDate(row.createdAt)!,
        expiresAt: asDate(row.expiresAt)!,
        requestIp: row.requestIp ?? null,
      };
    },

    /**
     * What became of the login a typed code last pointed at, once it no longer waits: `used`
     * (approved, consumed or denied) or `expired`; null when no login (kept) had this code.
     */
    async settledByUserCode(typed: unknown): Promise<'used' | 'expired' | null> {
      const code = normalizeUserCode(typed);
      if (!code) return null;
      const row = await logins.latestByUserCode(hashUserCode(code, pepper()));
      if (!row) return null;
      if (row.status !== 'pending') return 'used';
      return asDate(row.expiresAt)!.getTime() <= Date.now() ? 'expired' : null;
    },

    /** Approves (for userId) or denies a live login; false when it is no longer pending. */
    async decide(id: number, userId: number, approve: boolean): Promise<boolean> {
      return logins.decide(id, new Date(), approve ? { approve: true, userId } : { approve: false });
    },
  };
};
