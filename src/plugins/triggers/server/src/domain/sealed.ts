import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the server must read back (instance keys for the trigger panel, signing secrets for
 * HMAC) are stored sealed with AES-256-GCM under a key derived from the app's ENCRYPTION_KEY,
 * one derived key per purpose. Format: "v1." + base64url(iv[12] | tag[16] | ciphertext).
 */

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function deriveKey(encryptionKey: string, purpose: string): Buffer {
  if (!encryptionKey) throw new Error('ENCRYPTION_KEY is not set: it is needed to store instance keys and signing secrets.');
  return Buffer.from(hkdfSync('sha256', Buffer.from(encryptionKey, 'utf8'), Buffer.from('quire-triggers'), Buffer.from(purpose), 32));
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
