/** Pure parts of CONTRACT 17: callback backoff, Svix header names, the rate-limit header format. */
import { callbackDelayMs } from '../../src/plugins/triggers/server/src/domain/backoff';
import { signatureHeadersOf } from '../../src/plugins/triggers/server/src/domain/signature';
import { readTriggersConfig } from '../../src/plugins/triggers/server/src/config';
import { rateLimitHeaders } from '../../src/kernel/rate-limit';

describe('callback backoff', () => {
  it('doubles from the base, spread by at most 20% either way', () => {
    expect(callbackDelayMs(1000, 1, 0)).toBe(800);
    expect(callbackDelayMs(1000, 1, 0.5)).toBe(1000);
    expect(callbackDelayMs(1000, 3, 0.5)).toBe(4000);
    expect(callbackDelayMs(1000, 3, 0.999999)).toBe(4800);
    expect(callbackDelayMs(3_600_000, 10, 0.5)).toBe(6 * 3_600_000);
  });

  it('with the defaults, makes at least 5 attempts over at least 10 minutes, whatever the jitter', () => {
    const config = readTriggersConfig({});
    expect(config.callbackMaxAttempts).toBeGreaterThanOrEqual(5);
    let unluckiest = 0;
    for (let attempt = 1; attempt < config.callbackMaxAttempts; attempt += 1) unluckiest += callbackDelayMs(config.callbackRetryBaseMs, attempt, 0);
    expect(unluckiest).toBeGreaterThanOrEqual(10 * 60_000);
  });
});

describe('signature header names', () => {
  it('reads Standard Webhooks names, else Svix names, else none', () => {
    expect(signatureHeadersOf({ 'webhook-id': 'a', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' })).toEqual({ id: 'a', timestamp: '1', signature: 'v1,x' });
    expect(signatureHeadersOf({ 'svix-id': 'b', 'svix-timestamp': '2', 'svix-signature': 'v1,y' })).toEqual({ id: 'b', timestamp: '2', signature: 'v1,y' });
    // One webhook-* header is enough to choose that set (and fail on the missing ones).
    expect(signatureHeadersOf({ 'webhook-id': 'a', 'svix-id': 'b', 'svix-timestamp': '2', 'svix-signature': 'v1,y' })).toEqual({ id: 'a', timestamp: undefined, signature: undefined });
    expect(signatureHeadersOf({ 'x-api-key': 'ck_x' })).toBeNull();
  });
});

describe('rate-limit headers', () => {
  it('lists each policy met, as structured-field items', () => {
    expect(rateLimitHeaders([{ policy: 'trigger', quota: 600, windowSec: 60, remaining: 597, resetSec: 41 }])).toEqual({
      'RateLimit-Policy': '"trigger";q=600;w=60',
      RateLimit: '"trigger";r=597;t=41',
    });
    expect(
      rateLimitHeaders([
        { policy: 'a', quota: 5, windowSec: 300, remaining: 0, resetSec: 300 },
        { policy: 'b', quota: 20, windowSec: 300, remaining: 19, resetSec: 12 },
      ]),
    ).toEqual({ 'RateLimit-Policy': '"a";q=5;w=300, "b";q=20;w=300', RateLimit: '"a";r=0;t=300, "b";r=19;t=12' });
  });
});
