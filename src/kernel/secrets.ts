/**
 * Credentials and stored secrets.
 *
 * Keys we issue (API keys, organization keys, instance keys) are a recognisable prefix plus
 * 256 random bits, stored as a SHA-256 hash and compared in constant time.
 *
 * Secrets the server must read back (keys shown again in a panel, webhook signing secrets) are
 * sealed with AES-256-GCM under a key derived from the app's ENCRYPTION_KEY and sealing salt,
 * one derived key per purpose. Format: "v1." + base64url(iv[12] | tag[16] | ciphertext).
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

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

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/**
 * The AES key for one purpose ("instance-key", "signing-secrets"...), derived from ENCRYPTION_KEY
 * with the app's sealing salt (HKDF; changing the salt makes every stored sealed secret unreadable).
 */
export function deriveKey(encryptionKey: string, purpose: string, salt = ''): Buffer {
  if (!encryptionKey) throw new Error('ENCRYPTION_KEY is not set: it is needed to store sealed secrets.');
  return Buffer.from(hkdfSync('sha256', Buffer.from(encryptionKey, 'utf8'), Buffer.from(salt), Buffer.from(purpose), 32));
}

interface SealingConfig {
  encryptionKey?: string;
  sealSalt?: string;
}

/** The app's key for one purpose: ENCRYPTION_KEY and the sealing salt of the app's config (config/admin.ts `secrets`). */
export function appSealingKey(strapi: { config: { get(path: string): unknown } }, purpose: string): Buffer {
  const secrets = (strapi.config.get('admin.secrets') ?? {}) as SealingConfig;
  return deriveKey(String(secrets.encryptionKey ?? ''), purpose, String(secrets.sealSalt ?? ''));
}

export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** The plaintext, or throws when the token was not sealed with this key or was altered. */
export function open(key: Buffer, token: string): string {
  if (!token.startsWith(VERSION)) throw new Error('Unknown sealed-secret format.');
  const raw = Buffer.from(token.slice(VERSION.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Sealed secret is truncated.');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
