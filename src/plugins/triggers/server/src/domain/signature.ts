import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '#kernel/secrets';

/**
 * Standard Webhooks (v1.0.0) symmetric signatures, verified the way the reference library
 * (npm `standardwebhooks`) does, on the raw body bytes:
 *   signature = base64(HMAC-SHA256(base64decode(secret without "whsec_"), `${id}.${timestamp}.${body}`))
 * sent as `webhook-signature: v1,<signature> [v1,<other> ...]`. Deliberate differences from the
 * library, both stricter: the timestamp must be digits only (the library's parseInt accepts
 * "1614265330abc"), and malformed input is a refusal, never an exception.
 */

export const SIGNING_SECRET_PREFIX = 'whsec_';
/** Both directions, as in the reference library (WEBHOOK_TOLERANCE_IN_SECONDS). */
export const TOLERANCE_SECONDS = 5 * 60;
/** Standard Webhooks: "at least 24 bytes", 64 at most. */
export const MIN_SECRET_BYTES = 24;
export const MAX_SECRET_BYTES = 64;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DIGITS = /^[0-9]{1,15}$/;

export type SignatureFailureReason =
  | 'missing-headers'
  | 'invalid-timestamp'
  | 'timestamp-too-old'
  | 'timestamp-too-new'
  | 'no-matching-signature';

export type SignatureResult = { ok: true; id: string; timestamp: number } | { ok: false; reason: SignatureFailureReason };

export interface SignatureHeaders {
  id?: string | string[];
  timestamp?: string | string[];
  signature?: string | string[];
}

/** The decoded key of a `whsec_<base64>` secret, or null when it is not one (wrong prefix, bad base64, size). */
export function decodeSigningSecret(secret: unknown): Buffer | null {
  if (typeof secret !== 'string' || !secret.startsWith(SIGNING_SECRET_PREFIX)) return null;
  const encoded = secret.slice(SIGNING_SECRET_PREFIX.length);
  if (!encoded || !BASE64.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= MIN_SECRET_BYTES && key.length <= MAX_SECRET_BYTES ? key : null;
}

/** A fresh secret in the Standard Webhooks form, 32 random bytes. */
export function generateSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** `v1,<base64>` for a message: what a sender puts in `webhook-signature`. */
export function sign(key: Buffer, id: string, timestamp: number, body: Buffer | string): string {
  const mac = createHmac('sha256', key);
  mac.update(`${id}.${timestamp}.`, 'utf8');
  mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The signature headers of a request: Standard Webhooks' names, or else Svix's (`svix-id`,
 * `svix-timestamp`, `svix-signature`: the same scheme under other names, sent by Clerk,
 * Resend and other Svix customers). Null when neither set is present at all.
 */
export function signatureHeadersOf(headers: Record<string, string | string[] | undefined>): SignatureHeaders | null {
  for (const prefix of ['webhook', 'svix']) {
    const id = headers[`${prefix}-id`];
    const timestamp = headers[`${prefix}-timestamp`];
    const signature = headers[`${prefix}-signature`];
    if (id !== undefined || timestamp !== undefined || signature !== undefined) return { id, timestamp, signature };
  }
  return null;
}

/** One header value: Node joins repeated headers into arrays for some names; any repetition is refused. */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Verifies a delivery against every key in `keys` (a workflow may hold several secrets, for
 * rotation or several senders); any `v1` entry of the header matching any key accepts it.
 */
export function verify(body: Buffer, headers: SignatureHeaders, keys: Buffer[], nowSeconds: number): SignatureResult {
  const id = single(headers.id);
  const timestampHeader = single(headers.timestamp);
  const signatureHeader = single(headers.signature);
  if (!id || !timestampHeader || !signatureHeader) return { ok: false, reason: 'missing-headers' };
  if (!DIGITS.test(timestampHeader)) return { ok: false, reason: 'invalid-timestamp' };
  // The library signs the parsed number, so "0161..." signs as "161...": the same here.
  const timestamp = Number(timestampHeader);
  if (nowSeconds - timestamp > TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp-too-old' };
  if (timestamp > nowSeconds + TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp-too-new' };

  // Split exactly as the library does ("v1,<sig>" entries separated by single spaces).
  const offered = signatureHeader
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === 'v1' && typeof value === 'string')
    .map(([, value]) => value);
  if (!offered.length) return { ok: false, reason: 'no-matching-signature' };

  let matched = false;
  for (const key of keys) {
    const expected = sign(key, id, timestamp, body).slice(3);
    // Every comparison runs (no early exit), each in constant time.
    for (const candidate of offered) matched = safeEqual(candidate, expected) || matched;
  }
  return matched ? { ok: true, id, timestamp } : { ok: false, reason: 'no-matching-signature' };
}

export const SIGNATURE_FAILURE_MESSAGES: Record<SignatureFailureReason, string> = {
  'missing-headers': 'A signed request needs all three headers webhook-id, webhook-timestamp and webhook-signature, once each.',
  'invalid-timestamp': 'webhook-timestamp must be a Unix time in seconds, digits only.',
  'timestamp-too-old': 'webhook-timestamp is more than 5 minutes in the past.',
  'timestamp-too-new': 'webhook-timestamp is more than 5 minutes in the future.',
  'no-matching-signature': 'No signature in webhook-signature matches a signing secret of this workflow.',
};
