import { createHmac, randomInt } from 'node:crypto';
import { generateSecret } from '#kernel/secrets';

/**
 * The device-authorisation flow of the CLI (in the manner of RFC 8628): the device holds a long
 * secret device code and polls; a person types the short user code on the approval page.
 */

/** RFC 8628 §6.1: consonants only (no look-alikes such as 0/O or 1/I, and no words are spelt). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;
export const DEVICE_CODE_PREFIX = 'qdc_';
/** A login can be approved and completed for this long after it was requested. */
export const LOGIN_TTL_SECONDS = 600;
export const DEFAULT_POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: each slow_down adds 5 seconds to the interval. */
export const SLOW_DOWN_STEP_SECONDS = 5;
export const MAX_POLL_INTERVAL_SECONDS = 60;
/** Requests arriving this much before the interval is over still count as on time (clock and timer jitter). */
export const POLL_TOLERANCE_MS = 250;

/** 8 letters of the alphabet (20^8, about 34 bits), drawn without modulo bias. */
export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i += 1) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

export const generateDeviceCode = () => generateSecret(DEVICE_CODE_PREFIX);

/** XXXX-XXXX, as it is shown to people. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * What a person typed, in canonical form: case, spaces and dashes do not matter. Null when it
 * cannot be a user code at all (so it is not looked up, though it still counts as a wrong code).
 */
export function normalizeUserCode(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 40) return null;
  const code = input.toUpperCase().replace(/[\s\-–—_.]/g, '');
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const ch of code) if (!USER_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/**
 * User codes are low-entropy, so a plain hash of one could be reversed by trying all 20^8; an
 * HMAC keyed with a server secret cannot be, without the secret.
 */
export function hashUserCode(code: string, pepper: string): string {
  return createHmac('sha256', pepper).update(`user-code:${code}`, 'utf8').digest('hex');
}

export type LoginStatus = 'pending' | 'approved' | 'denied' | 'consumed';

export interface LoginState {
  status: LoginStatus;
  expiresAt: Date;
  lastPolledAt: Date | null;
  interval: number;
}

export type PollOutcome =
  | { kind: 'expired'; reason: 'expired' | 'used' }
  | { kind: 'denied' }
  | { kind: 'approved' }
  | { kind: 'slow-down'; interval: number }
  | { kind: 'pending' };

/**
 * The answer to one poll of a login, before it is written: used and expired logins are over,
 * a decision is final, and a pending login polled sooner than its interval is told to slow down.
 */
export function pollOutcome(login: LoginState, now: Date): PollOutcome {
  if (login.status === 'consumed') return { kind: 'expired', reason: 'used' };
  if (now.getTime() >= login.expiresAt.getTime()) return { kind: 'expired', reason: 'expired' };
  if (login.status === 'denied') return { kind: 'denied' };
  if (login.status === 'approved') return { kind: 'approved' };
  if (login.lastPolledAt && now.getTime() - login.lastPolledAt.getTime() < login.interval * 1000 - POLL_TOLERANCE_MS) {
    return { kind: 'slow-down', interval: Math.min(login.interval + SLOW_DOWN_STEP_SECONDS, MAX_POLL_INTERVAL_SECONDS) };
  }
  return { kind: 'pending' };
}

/** The device's stated name: printable, one line, at most 100 characters (it becomes the key's name). */
export const DEVICE_NAME_MAX = 100;
export const DEFAULT_DEVICE_NAME = 'quire CLI';
