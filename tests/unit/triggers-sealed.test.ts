import { deriveKey, open, seal } from '../../src/kernel/secrets';
import { keyKind } from '../../src/plugins/triggers/server/src/domain/keys';
import { retryDelayMs } from '../../src/plugins/triggers/server/src/domain/backoff';
import { generateSecret } from '../../src/kernel/secrets';

describe('sealed secrets', () => {
  const key = deriveKey('app-encryption-key', 'instance-key');

  it('opens what it sealed, and the stored form does not contain the secret', () => {
    const secret = generateSecret('ck_');
    const sealed = seal(key, secret);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice(3, 20));
    expect(open(key, sealed)).toBe(secret);
    expect(seal(key, secret)).not.toBe(sealed);
  });

  it('refuses another encryption key, another purpose, and any alteration', () => {
    const sealed = seal(key, 'ck_secret');
    expect(() => open(deriveKey('another-key', 'instance-key'), sealed)).toThrow();
    expect(() => open(deriveKey('app-encryption-key', 'signing-secrets'), sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const index of [0, 13, raw.length - 1]) {
      const altered = Buffer.from(raw);
      altered[index] ^= 1;
      expect(() => open(key, `v1.${altered.toString('base64url')}`)).toThrow();
    }
    expect(() => open(key, 'v1.AAAA')).toThrow();
    expect(() => open(key, 'plain')).toThrow();
  });

  it('needs an encryption key', () => {
    expect(() => deriveKey('', 'instance-key')).toThrow(/ENCRYPTION_KEY/);
  });
});

describe('key shapes', () => {
  it('tells instance keys from organization keys and refuses anything else', () => {
    expect(keyKind(generateSecret('ck_'))).toBe('instance');
    expect(keyKind(generateSecret('cko_'))).toBe('organization');
    for (const value of [generateSecret('qk_'), 'ck_short', `${generateSecret('ck_')}x`, `ck_${'!'.repeat(43)}`, '', undefined, ['ck_'], 42]) {
      expect(keyKind(value)).toBeNull();
    }
  });
});

describe('retry backoff', () => {
  it('doubles from the base and stops growing at 5 minutes', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(1000, n))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(1000, 30)).toBe(300_000);
  });
});

describe('cutting a UTF-8 body', () => {
  const { cutUtf8 } = require('../../src/plugins/triggers/server/src/actions/http');
  it('keeps whole characters', () => {
    expect(cutUtf8(Buffer.from('abc'), 10)).toBe('abc');
    expect(cutUtf8(Buffer.from('aé'), 2)).toBe('a');
    expect(cutUtf8(Buffer.from('aé'), 3)).toBe('aé');
    expect(cutUtf8(Buffer.from('€€'), 5)).toBe('€');
    expect(cutUtf8(Buffer.from('😀x'), 3)).toBe('');
    expect(cutUtf8(Buffer.from('😀x'), 4)).toBe('😀');
  });
});
