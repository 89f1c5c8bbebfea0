import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  decodeSigningSecret,
  generateSigningSecret,
  sign,
  TOLERANCE_SECONDS,
  verify,
  type SignatureHeaders,
} from '../../src/plugins/triggers/server/src/domain/signature';

// The published test vector of the reference library (libraries/javascript/src/webhook.test.ts).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const key = (secret: string) => {
  const decoded = decodeSigningSecret(secret);
  if (!decoded) throw new Error(`not a secret: ${secret}`);
  return decoded;
};
const headers = (id: string, timestamp: string | number, signature: string): SignatureHeaders => ({
  id,
  timestamp: String(timestamp),
  signature,
});
const now = () => Math.floor(Date.now() / 1000);

/** The reference library's verdict: true when it accepts. */
function libraryAccepts(secret: string, body: string | Buffer, h: SignatureHeaders): boolean {
  try {
    new Webhook(secret).verify(body, { 'webhook-id': h.id as string, 'webhook-timestamp': h.timestamp as string, 'webhook-signature': h.signature as string }, { jsonParse: false } as any);
    return true;
  } catch {
    return false;
  }
}

describe('Standard Webhooks signatures', () => {
  it('reproduces the published test vector', () => {
    expect(sign(key(VECTOR.secret), VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
    const result = verify(Buffer.from(VECTOR.body), headers(VECTOR.id, VECTOR.timestamp, VECTOR.signature), [key(VECTOR.secret)], VECTOR.timestamp);
    expect(result).toEqual({ ok: true, id: VECTOR.id, timestamp: VECTOR.timestamp });
  });

  it('accepts what the reference library signs, and the library accepts what we sign', () => {
    for (let i = 0; i < 25; i += 1) {
      const secret = generateSigningSecret();
      const id = `msg_${randomBytes(8).toString('hex')}`;
      const body = JSON.stringify({ n: i, text: 'héllo ✓ 漢字', nested: { list: [1, 2, 3] } }, null, i % 3);
      const ts = now();
      const theirs = new Webhook(secret).sign(id, new Date(ts * 1000), body);
      expect(verify(Buffer.from(body), headers(id, ts, theirs), [key(secret)], ts).ok).toBe(true);
      const ours = sign(key(secret), id, ts, Buffer.from(body));
      expect(ours).toBe(theirs);
      expect(libraryAccepts(secret, body, headers(id, ts, ours))).toBe(true);
    }
  });

  it('agrees with the reference library on malformed and hostile headers', () => {
    const secret = VECTOR.secret;
    const ts = now();
    const good = sign(key(secret), VECTOR.id, ts, VECTOR.body);
    const cases: Array<[string, SignatureHeaders, boolean]> = [
      ['valid', headers(VECTOR.id, ts, good), true],
      ['several signatures, one good', headers(VECTOR.id, ts, `v1,AAAA ${good} v1,BBBB`), true],
      ['other versions are skipped', headers(VECTOR.id, ts, `v1a,${good.slice(3)} ${good}`), true],
      ['only another version', headers(VECTOR.id, ts, `v2,${good.slice(3)}`), false],
      ['no version', headers(VECTOR.id, ts, good.slice(3)), false],
      ['empty signature list', headers(VECTOR.id, ts, ' '), false],
      ['garbage', headers(VECTOR.id, ts, '!!!,,, v1'), false],
      ['bare v1,', headers(VECTOR.id, ts, 'v1,'), false],
      ['signature of another id', headers('msg_other', ts, good), false],
      ['signature of another time', headers(VECTOR.id, ts + 1, good), false],
      ['base64 without padding', headers(VECTOR.id, ts, good.replace(/=+$/, '')), false],
      ['base64url alphabet', headers(VECTOR.id, ts, good.replace(/\+/g, '-').replace(/\//g, '_')), !/[+/]/.test(good)],
      ['stale by 330 s (the clock may tick meanwhile)', headers(VECTOR.id, ts - TOLERANCE_SECONDS - 30, sign(key(secret), VECTOR.id, ts - TOLERANCE_SECONDS - 30, VECTOR.body)), false],
      ['future by 330 s', headers(VECTOR.id, ts + TOLERANCE_SECONDS + 30, sign(key(secret), VECTOR.id, ts + TOLERANCE_SECONDS + 30, VECTOR.body)), false],
      ['not a number', headers(VECTOR.id, 'yesterday', good), false],
      ['missing id', { timestamp: String(ts), signature: good }, false],
      ['missing timestamp', { id: VECTOR.id, signature: good }, false],
      ['missing signature', { id: VECTOR.id, timestamp: String(ts) }, false],
      ['empty id', headers('', ts, good), false],
    ];
    for (const [name, h, expected] of cases) {
      const ours = verify(Buffer.from(VECTOR.body), h, [key(secret)], ts).ok;
      expect({ name, ours }).toEqual({ name, ours: expected });
      expect({ name, library: libraryAccepts(secret, VECTOR.body, h) }).toEqual({ name, library: expected });
    }
  });

  it('is stricter than the library on one point: the timestamp must be digits only', () => {
    const ts = now();
    const good = sign(key(VECTOR.secret), VECTOR.id, ts, VECTOR.body);
    for (const timestamp of [`${ts}abc`, `${ts}.5`, ` ${ts}`, `+${ts}`, `${ts}e0`]) {
      // The library parses these with parseInt and accepts them; we refuse them.
      expect(libraryAccepts(VECTOR.secret, VECTOR.body, headers(VECTOR.id, timestamp, good))).toBe(true);
      expect(verify(Buffer.from(VECTOR.body), headers(VECTOR.id, timestamp, good), [key(VECTOR.secret)], ts)).toEqual({ ok: false, reason: 'invalid-timestamp' });
    }
    for (const timestamp of ['-1', '', '0x10', '1'.repeat(16)]) {
      expect(verify(Buffer.from(VECTOR.body), headers(VECTOR.id, timestamp, good), [key(VECTOR.secret)], ts).ok).toBe(false);
    }
  });

  it('signs a zero-padded timestamp as its number, as the library does', () => {
    const ts = now();
    const good = sign(key(VECTOR.secret), VECTOR.id, ts, VECTOR.body);
    expect(verify(Buffer.from(VECTOR.body), headers(VECTOR.id, `00${ts}`, good), [key(VECTOR.secret)], ts).ok).toBe(true);
    expect(libraryAccepts(VECTOR.secret, VECTOR.body, headers(VECTOR.id, `00${ts}`, good))).toBe(true);
  });

  it('allows exactly 5 minutes of skew both ways', () => {
    const ts = 1_800_000_000;
    const body = Buffer.from('{}');
    const at = (offset: number) => verify(body, headers('m', ts + offset, sign(key(VECTOR.secret), 'm', ts + offset, body)), [key(VECTOR.secret)], ts);
    expect(at(-TOLERANCE_SECONDS).ok).toBe(true);
    expect(at(TOLERANCE_SECONDS).ok).toBe(true);
    expect(at(-TOLERANCE_SECONDS - 1)).toEqual({ ok: false, reason: 'timestamp-too-old' });
    expect(at(TOLERANCE_SECONDS + 1)).toEqual({ ok: false, reason: 'timestamp-too-new' });
  });

  it('tries every secret of the workflow', () => {
    const ts = now();
    const [a, b, c] = [generateSigningSecret(), generateSigningSecret(), generateSigningSecret()];
    const body = Buffer.from('{"payload":1}');
    const byB = sign(key(b), 'id1', ts, body);
    expect(verify(body, headers('id1', ts, byB), [key(a), key(b)], ts).ok).toBe(true);
    expect(verify(body, headers('id1', ts, byB), [key(a), key(c)], ts)).toEqual({ ok: false, reason: 'no-matching-signature' });
    expect(verify(body, headers('id1', ts, byB), [], ts)).toEqual({ ok: false, reason: 'no-matching-signature' });
  });

  it('covers the exact bytes: a tampered or re-serialised body fails', () => {
    const ts = now();
    const raw = '{"test": 2432232314}';
    const signature = sign(key(VECTOR.secret), 'id', ts, raw);
    const check = (body: string) => verify(Buffer.from(body), headers('id', ts, signature), [key(VECTOR.secret)], ts).ok;
    expect(check(raw)).toBe(true);
    expect(check(JSON.stringify(JSON.parse(raw)))).toBe(false);
    expect(check('{"test": 2432232315}')).toBe(false);
    expect(check(raw + '\n')).toBe(false);
  });

  it('refuses repeated headers (Node hands them over as arrays) without throwing', () => {
    const ts = now();
    const good = sign(key(VECTOR.secret), 'id', ts, VECTOR.body);
    const body = Buffer.from(VECTOR.body);
    expect(verify(body, { id: ['id', 'id'], timestamp: String(ts), signature: good }, [key(VECTOR.secret)], ts)).toEqual({ ok: false, reason: 'missing-headers' });
    expect(verify(body, { id: 'id', timestamp: [String(ts)], signature: good }, [key(VECTOR.secret)], ts)).toEqual({ ok: false, reason: 'missing-headers' });
  });

  it('reads signing secrets only in the whsec_<base64> form, 24 to 64 bytes', () => {
    expect(decodeSigningSecret(VECTOR.secret)).toHaveLength(24);
    expect(decodeSigningSecret(generateSigningSecret())).toHaveLength(32);
    expect(generateSigningSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    for (const bad of [
      'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'whsec_',
      'whsec_not base64!',
      `whsec_${randomBytes(16).toString('base64')}`,
      `whsec_${randomBytes(65).toString('base64')}`,
      `whsec_${'A'.repeat(40)}-_AA`, // the base64url alphabet is not base64
      42,
      null,
    ]) {
      expect(decodeSigningSecret(bad)).toBeNull();
    }
    expect(decodeSigningSecret(`whsec_${randomBytes(64).toString('base64')}`)).toHaveLength(64);
  });
});
