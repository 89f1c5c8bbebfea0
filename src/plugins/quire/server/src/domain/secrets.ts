import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of a user's API key (the article API's Bearer key). */
export const API_KEY_PREFIX = 'qk_';

/** A recognisable prefix plus 256 random bits, URL- and shell-safe. */
export function generateSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Keys are high-entropy, so one fast hash is enough to store and look them up by. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The first characters of a key: enough to recognise it in a list, far too few to use it. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, secret.indexOf('_') + 7);
}

/** Constant-time equality of two strings (false for different lengths, without throwing). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
