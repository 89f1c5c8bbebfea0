import {
  USER_CODE_ALPHABET,
  formatUserCode,
  generateDeviceCode,
  generateUserCode,
  hashUserCode,
  normalizeUserCode,
  pollOutcome,
  type LoginState,
} from '../../src/plugins/quire/server/src/domain/device-login';
import { pageCsp as contentSecurityPolicy } from '../../src/kernel/page-kit';
import { escapeHtml } from '../../src/plugins/quire/server/src/domain/html-escape';

describe('user codes', () => {
  it('are 8 letters of an alphabet without vowels or look-alikes', () => {
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOUY01]/);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const code = generateUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      seen.add(code);
    }
    expect(seen.size).toBe(200);
  });

  it('are shown as XXXX-XXXX and read back however they are typed', () => {
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
    for (const typed of ['BCDF-GHJK', 'bcdf-ghjk', ' bcdf ghjk ', 'BCDFGHJK', 'bcdf–ghjk']) expect(normalizeUserCode(typed)).toBe('BCDFGHJK');
    for (const bad of ['', 'BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', '0000-0000', 42, null, 'x'.repeat(100)]) expect(normalizeUserCode(bad)).toBeNull();
  });

  it('are hashed with a server secret, so the hash depends on it', () => {
    expect(hashUserCode('BCDFGHJK', 'one')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashUserCode('BCDFGHJK', 'one')).toBe(hashUserCode('BCDFGHJK', 'one'));
    expect(hashUserCode('BCDFGHJK', 'one')).not.toBe(hashUserCode('BCDFGHJK', 'two'));
    expect(hashUserCode('BCDFGHJK', 'one')).not.toBe(hashUserCode('BCDFGHJL', 'one'));
  });
});

it('device codes are a prefix and 256 random bits', () => {
  const code = generateDeviceCode();
  expect(code).toMatch(/^qdc_[A-Za-z0-9_-]{43}$/);
  expect(generateDeviceCode()).not.toBe(code);
});

describe('pollOutcome', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const at = (offsetSec: number) => new Date(now.getTime() + offsetSec * 1000);
  const login = (over: Partial<LoginState> = {}): LoginState => ({ status: 'pending', expiresAt: at(300), lastPolledAt: null, interval: 5, ...over });

  it('is pending on the first poll and on a poll after the interval', () => {
    expect(pollOutcome(login(), now)).toEqual({ kind: 'pending' });
    expect(pollOutcome(login({ lastPolledAt: at(-5) }), now)).toEqual({ kind: 'pending' });
    expect(pollOutcome(login({ lastPolledAt: at(-4.9) }), now)).toEqual({ kind: 'pending' }); // within the tolerance
  });

  it('says slow down, with 5 more seconds, when polled too soon, up to a ceiling', () => {
    expect(pollOutcome(login({ lastPolledAt: at(-2) }), now)).toEqual({ kind: 'slow-down', interval: 10 });
    expect(pollOutcome(login({ lastPolledAt: at(-2), interval: 58 }), now)).toEqual({ kind: 'slow-down', interval: 60 });
  });

  it('ends used and expired logins before anything else', () => {
    expect(pollOutcome(login({ status: 'consumed' }), now)).toEqual({ kind: 'expired', reason: 'used' });
    expect(pollOutcome(login({ expiresAt: now }), now)).toEqual({ kind: 'expired', reason: 'expired' });
    expect(pollOutcome(login({ status: 'approved', expiresAt: at(-1) }), now)).toEqual({ kind: 'expired', reason: 'expired' });
    expect(pollOutcome(login({ status: 'denied', expiresAt: at(-1) }), now)).toEqual({ kind: 'expired', reason: 'expired' });
  });

  it('reports a decision whatever the polling pace', () => {
    expect(pollOutcome(login({ status: 'denied', lastPolledAt: at(-1) }), now)).toEqual({ kind: 'denied' });
    expect(pollOutcome(login({ status: 'approved', lastPolledAt: at(-1) }), now)).toEqual({ kind: 'approved' });
  });
});

describe('login page helpers', () => {
  it('escapes everything that could open markup or an attribute', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;');
    expect(escapeHtml(null)).toBe('');
  });

  it('builds a CSP that allows no script and only the nonce-bearing style', () => {
    const csp = contentSecurityPolicy('abc');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'nonce-abc'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe');
  });
});
