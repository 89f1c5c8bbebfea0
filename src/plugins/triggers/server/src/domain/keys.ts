/** Instance keys (`ck_`) grant one process instance; organization keys (`cko_`) every instance of one organization. */
export const INSTANCE_KEY_PREFIX = 'ck_';
export const ORGANIZATION_KEY_PREFIX = 'cko_';

/** A presented key must look like one of ours before any lookup: prefix plus base64url body. */
const KEY_SHAPE = /^(ck_|cko_)[A-Za-z0-9_-]{43}$/;

export function keyKind(value: unknown): 'instance' | 'organization' | null {
  if (typeof value !== 'string' || !KEY_SHAPE.test(value)) return null;
  return value.startsWith(ORGANIZATION_KEY_PREFIX) ? 'organization' : 'instance';
}
