/**
 * The one authentication policy (kernel/auth.ts): credentials tried in the route's order, the
 * first valid one (that grants the route's target) wins, a refusal names the first credential
 * presented; and the scope half of the authorizer (kernel/permissions.ts).
 */
import { authenticate, bearerToken, parseCookies, registerCredential, type AuthRequest, type Caller } from '../../src/kernel/auth';
import { ApiError } from '../../src/kernel/errors';
import { authorize } from '../../src/kernel/permissions';

const user = (id: number, credential: 'api-key' | 'jwt' | 'session' = 'api-key'): Caller => ({
  kind: 'user',
  credential,
  userId: id,
  user: { id, username: `u${id}`, email: `u${id}@example.test` },
  via: credential === 'api-key' ? 'key' : 'session',
  scope: 'write',
});

function request(headers: Record<string, string> = {}, extra: Partial<AuthRequest> = {}): AuthRequest {
  return { method: 'GET', path: '/x', headers, cookies: parseCookies(headers.cookie), queryKeys: [], params: {}, memo: new Map(), ...extra };
}

/** An app with three made-up credentials: a header each, valid when its value is "good". */
function app() {
  const strapi = {} as never;
  const seen: string[] = [];
  const byHeader = (kind: 'api-key' | 'jwt' | 'organization-key', header: string, id: number, whenMissing?: string) =>
    registerCredential(strapi, kind, {
      whenMissing,
      verify(r) {
        seen.push(kind);
        const value = r.headers[header];
        if (value === undefined) return undefined;
        return value === 'good' ? { caller: user(id) } : { refused: `${header} is wrong.`, nextAction: `Fix ${header}.` };
      },
    });
  byHeader('api-key', 'a', 1, 'Send a.');
  byHeader('jwt', 'b', 2);
  byHeader('organization-key', 'c', 3);
  return { strapi, seen };
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message, nextAction: error.nextAction };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('authenticate', () => {
  it('tries the route\'s credentials in its order; the first valid one wins', async () => {
    const { strapi, seen } = app();
    const found = await authenticate(strapi, request({ a: 'good', b: 'good' }), { credentials: ['jwt', 'api-key'] });
    expect(found.caller?.userId).toBe(2);
    expect(seen).toEqual(['jwt']);
  });

  it('passes over a refused credential to a valid one, and names the first presented when none is valid', async () => {
    const { strapi } = app();
    expect((await authenticate(strapi, request({ a: 'bad', b: 'good' }), { credentials: ['api-key', 'jwt'] })).caller?.userId).toBe(2);
    expect(await failure(authenticate(strapi, request({ a: 'bad', b: 'bad' }), { credentials: ['jwt', 'api-key'] }))).toEqual({
      status: 401,
      code: 'unauthenticated',
      message: 'b is wrong.',
      nextAction: 'Fix b.',
    });
  });

  it('ignores credentials the route does not accept', async () => {
    const { strapi } = app();
    const refused = await failure(authenticate(strapi, request({ c: 'good' }), { credentials: ['api-key', 'jwt'] }));
    expect(refused).toEqual({ status: 401, code: 'unauthenticated', message: 'No credential was sent.', nextAction: 'Send a.' });
  });

  it('lets a route check its target, and give every 401 its own nextAction', async () => {
    const { strapi } = app();
    const grants = async (caller: Caller) => (caller.kind === 'user' && caller.userId === 3 ? null : 'Not this one.');
    const policy = { credentials: ['api-key', 'organization-key'] as const, grants, nextAction: 'Use the right key.' };
    expect((await authenticate(strapi, request({ a: 'good', c: 'good' }), policy)).caller?.userId).toBe(3);
    expect(await failure(authenticate(strapi, request({ a: 'good' }), policy))).toMatchObject({ message: 'Not this one.', nextAction: 'Use the right key.' });
  });

  it('makes a credential optional: no caller, and whether one was refused', async () => {
    const { strapi } = app();
    expect(await authenticate(strapi, request({}), { credentials: ['api-key'], optional: true })).toEqual({ caller: null, refused: false });
    expect(await authenticate(strapi, request({ a: 'bad' }), { credentials: ['api-key'], optional: true })).toEqual({ caller: null, refused: true });
    expect(await authenticate(strapi, request({ a: 'bad' }), { credentials: [] })).toEqual({ caller: null, refused: false });
  });

  it('refuses to run with a credential no plugin registered', async () => {
    const { strapi } = app();
    await expect(authenticate(strapi, request({}), { credentials: ['webhook-signature'] })).rejects.toThrow(/No plugin registered the credential "webhook-signature"/);
  });
});

describe('reading credentials', () => {
  it('reads a Bearer token, and tells a malformed Authorization header from none', () => {
    expect(bearerToken(request({ authorization: 'Bearer abc' }))).toBe('abc');
    expect(bearerToken(request({ authorization: 'bearer  abc ' }))).toBe('abc');
    expect(bearerToken(request({ authorization: 'Basic abc' }))).toBeNull();
    expect(bearerToken(request({ authorization: 'Bearer' }))).toBeNull();
    expect(bearerToken(request({}))).toBeUndefined();
  });

  it('reads cookies, the first of each name', () => {
    expect(parseCookies('quire_session=abc; other="x y"; quire_session=later')).toEqual({ quire_session: 'abc', other: 'x y' });
    expect(parseCookies(undefined)).toEqual({});
    expect(parseCookies('garbage; =x; a=')).toEqual({ a: '' });
  });
});

describe('authorize: key scopes', () => {
  const strapi = {} as never;
  const scoped = (scope: 'write' | 'suggest' | 'read') => ({ ...user(1), scope }) as Caller;

  it('lets a read credential read, and refuses it any change with 403 permission-denied', async () => {
    await expect(authorize(strapi, scoped('read'), { action: null, access: 'read' })).resolves.toBeUndefined();
    expect(await failure(authorize(strapi, scoped('read'), { action: null, access: 'write' }))).toMatchObject({ status: 403, code: 'permission-denied' });
  });

  it('refuses a suggest credential every write but the suggestible routes, whose calls become suggestions', async () => {
    expect(await failure(authorize(strapi, scoped('suggest'), { action: null, access: 'write' }))).toMatchObject({ code: 'permission-denied' });
    await expect(authorize(strapi, scoped('suggest'), { action: null, access: 'write', suggestible: true })).resolves.toBeUndefined();
    expect(await failure(authorize(strapi, scoped('read'), { action: null, access: 'write', suggestible: true }))).toMatchObject({ code: 'permission-denied' });
    await expect(authorize(strapi, scoped('write'), { action: null, access: 'write' })).resolves.toBeUndefined();
    await expect(authorize(strapi, null, { action: 'plugin::x.y.z', access: 'write' })).resolves.toBeUndefined();
  });
});
