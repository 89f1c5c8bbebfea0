/**
 * What an attacker found in the OAuth server (issue 25, points 4 to 7 and part of 10), each
 * against the running app: anonymous registration is limited (per address, 16 KiB, unused
 * clients expire), a password change or a block revokes OAuth grants (API keys stay), request
 * errors are a page and never a redirect, client ID metadata documents are fetched within limits
 * (failures cached, a generic message), and spent tokens are deleted by the sweep.
 */
import http from 'node:http';
import { startListeningApp } from '../helpers/cli-login';
import { createAdmin, adminToken, adminBearer } from '../helpers/admin';
import { approveOverHttp, pkcePair, REDIRECT_URI } from '../helpers/oauth';
import { bearer, createKey, registerUser, type TestApp, type TestUser } from '../helpers/strapi';

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery';
const USERS = 'plugin::users-permissions.user';
const CLIENTS = 'plugin::quire.oauth-client';
const TOKENS = 'plugin::quire.oauth-token';
const HOUR = 3600 * 1000;

let app: TestApp;
let base: string;
/** Serves client ID metadata documents: /ok/<name>.json a valid one, /fail/<name>.json a 503 (allowed as a private host, so over http). */
let site: http.Server;
let siteOrigin: string;
const hits: string[] = [];
let address = 0;
/** A client address of its own for each use (TRUST_PROXY), so the per-address limits of one test do not touch another. */
const nextAddress = () => `198.51.100.${(address += 1)}`;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    hits.push(req.url!);
    if (req.url!.startsWith('/fail/')) {
      res.statusCode = 503;
      return res.end('upstream says no');
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ client_id: `${siteOrigin}${req.url}`, client_name: 'Fetched Agent', redirect_uris: [REDIRECT_URI] }));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
  const port = (site.address() as any).port;
  siteOrigin = `http://127.0.0.1:${port}`;
  ({ app, base } = await startListeningApp({ TRUST_PROXY: 'true', UNFURL_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${port}` }));
});
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => site?.close(resolve));
});

const register = (from: string, metadata: Record<string, unknown> = { client_name: 'Agent', redirect_uris: [REDIRECT_URI] }) =>
  app.http.post('/oauth/register').set('X-Forwarded-For', from).send(metadata);
const token = (fields: Record<string, string>) => app.http.post('/oauth/token').set('X-Forwarded-For', nextAddress()).type('form').send(fields);
const me = (secret: string) => app.http.get('/api/auth/me').set(bearer(secret));

function authorizeUrl(clientId: string, params: Record<string, string> = {}) {
  const url = new URL(`${base}/oauth/authorize`);
  const query = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: pkcePair().challenge, code_challenge_method: 'S256', state: 'st', ...params };
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url;
}
const authorizePage = (url: URL, from = nextAddress()) => app.http.get(url.pathname + url.search).set('X-Forwarded-For', from).redirects(0);

/** A client registered, approved by `user` and its code exchanged: the client id and the tokens. */
async function connect(user: TestUser, password = PASSWORD) {
  const clientId = (await register(nextAddress())).body.client_id as string;
  const { verifier, challenge } = pkcePair();
  const back = await approveOverHttp(app.strapi.server.httpServer, authorizeUrl(clientId, { code_challenge: challenge }), { username: user.username, password });
  const tokens = await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId });
  expect(tokens.status).toBe(200);
  return { clientId, access: tokens.body.access_token as string, refresh: tokens.body.refresh_token as string };
}

describe('anonymous client registration (point 4)', () => {
  it('is limited per address, with RateLimit headers on every answer and Retry-After on the 429', async () => {
    const from = nextAddress();
    const before = await app.strapi.db.query(CLIENTS).count();
    for (let i = 0; i < 30; i += 1) {
      const res = await register(from);
      expect(res.status).toBe(201);
      expect(res.headers['ratelimit-policy']).toBe('"oauth-register";q=30;w=3600');
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"oauth-register";r=${29 - i};t=\\d+$`));
    }
    const over = await register(from);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: 'too_many_requests', error_description: expect.stringMatching(/^Too many client registrations from this address\. Retry after \d+ seconds\.$/) });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers.ratelimit).toBe(`"oauth-register";r=0;t=${over.headers['retry-after']}`);
    expect(over.headers['cache-control']).toBe('no-store');
    expect(await app.strapi.db.query(CLIENTS).count()).toBe(before + 30);
    // Another address is not affected.
    expect((await register(nextAddress())).status).toBe(201);
  });

  it('refuses metadata over 16 KiB as invalid_client_metadata, storing nothing', async () => {
    const before = await app.strapi.db.query(CLIENTS).count();
    const padded = (bytes: number) => ({ client_name: 'Big', redirect_uris: [REDIRECT_URI], logo_uri: `https://agent.example/${'a'.repeat(bytes)}` });
    const big = await register(nextAddress(), padded(16 * 1024));
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ error: 'invalid_client_metadata', error_description: expect.stringContaining('larger than 16 KiB') });
    // Ten redirect URIs of 2,000 characters each were accepted before: 20 KB a row.
    const uris = Array.from({ length: 10 }, (_, i) => `https://agent.example/${i}/${'b'.repeat(1990)}`);
    expect((await register(nextAddress(), { client_name: 'Long', redirect_uris: uris })).body.error).toBe('invalid_client_metadata');
    expect(await app.strapi.db.query(CLIENTS).count()).toBe(before);
    expect((await register(nextAddress(), padded(15 * 1024))).status).toBe(201);
  });

  it('expires a client no person authorized within a day: refused when used, deleted by the sweep', async () => {
    const ada = await registerUser(app, 'ada');
    const unused = (await register(nextAddress())).body.client_id as string;
    const used = (await connect(ada)).clientId;
    const fresh = (await register(nextAddress())).body.client_id as string;
    const dayAgo = new Date(Date.now() - 25 * HOUR);
    await app.strapi.db.query(CLIENTS).update({ where: { clientId: unused }, data: { createdAt: dayAgo } });
    expect((await app.strapi.db.query(CLIENTS).findOne({ where: { clientId: used } })).authorizedAt).not.toBeNull();
    // As a client registered before authorizations were recorded: its grant is what keeps it.
    await app.strapi.db.query(CLIENTS).update({ where: { clientId: used }, data: { createdAt: dayAgo, authorizedAt: null } });

    const refused = await authorizePage(authorizeUrl(unused));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('This app is not registered here');
    const exchange = await token({ grant_type: 'authorization_code', code: 'qoc_x', redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier, client_id: unused });
    expect(exchange.status).toBe(401);
    expect(exchange.body.error).toBe('invalid_client');
    // A client that completed an authorization stays, however old; a new one is not yet due.
    expect((await authorizePage(authorizeUrl(used))).status).toBe(200);
    expect((await authorizePage(authorizeUrl(fresh))).status).toBe(200);

    const swept = await app.strapi.plugin('quire').service('oauth').sweep();
    expect(swept.clients).toBeGreaterThanOrEqual(1);
    const left = (await app.strapi.db.query(CLIENTS).findMany({ where: { clientId: { $in: [unused, used, fresh] } } })).map((c: any) => c.clientId);
    expect(left.sort()).toEqual([used, fresh].sort());
  });
});

describe('a password change or a block revokes OAuth grants (point 5)', () => {
  async function expectRevoked(connection: { clientId: string; access: string; refresh: string }) {
    expect((await me(connection.access)).status).toBe(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: connection.refresh, client_id: connection.clientId });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  }

  it('change-password revokes every grant and token of the user; API keys and other users\' grants stay', async () => {
    const bob = await registerUser(app, 'bob');
    const other = await registerUser(app, 'other');
    const first = await connect(bob);
    const second = await connect(bob);
    const others = await connect(other);
    const key = await createKey(app, bob, 'deliberate');
    expect((await me(first.access)).status).toBe(200);

    const change = await app.http
      .post('/api/auth/change-password')
      .set(bearer(bob.jwt))
      .send({ currentPassword: PASSWORD, password: 'another horse battery', passwordConfirmation: 'another horse battery' });
    expect(change.status).toBe(200);

    await expectRevoked(first);
    await expectRevoked(second);
    expect(await app.strapi.db.query(TOKENS).count({ where: { grantId: { $in: await grantIds(bob.id) } } })).toBe(0);
    expect((await app.http.get('/api/oauth/grants').set(bearer(change.body.jwt))).body.data.grants).toEqual([]);
    expect((await me(key)).status).toBe(200);
    expect((await me(others.access)).status).toBe(200);
    // Connecting again with the new password works.
    const again = await connect(bob, 'another horse battery');
    expect((await me(again.access)).status).toBe(200);
  });

  it('reset-password does the same', async () => {
    const carol = await registerUser(app, 'carol');
    const connection = await connect(carol);
    await app.strapi.db.query(USERS).update({ where: { id: carol.id }, data: { resetPasswordToken: 'reset-code-for-carol' } });
    const reset = await app.http
      .post('/api/auth/reset-password')
      .set('X-Forwarded-For', nextAddress())
      .send({ code: 'reset-code-for-carol', password: 'new horse battery', passwordConfirmation: 'new horse battery' });
    expect(reset.status).toBe(200);
    await expectRevoked(connection);
  });

  it('an admin blocking the user does too, and unblocking does not bring the grants back', async () => {
    const dora = await registerUser(app, 'dora');
    const connection = await connect(dora);
    const key = await createKey(app, dora, 'deliberate');
    const admin = await adminToken(app, await createAdmin(app));
    const { documentId } = await app.strapi.db.query(USERS).findOne({ where: { id: dora.id }, select: ['documentId'] });
    const blocked = await app.http
      .put(`/content-manager/collection-types/${USERS}/${documentId}`)
      .set(adminBearer(admin))
      .send({ blocked: true });
    expect(blocked.status).toBe(200);
    expect((await me(key)).status).toBe(401);
    await app.strapi.db.query(USERS).update({ where: { id: dora.id }, data: { blocked: false } });
    await expectRevoked(connection);
    // The key is the person's own: it works again once they are unblocked.
    expect((await me(key)).status).toBe(200);
  });
});

async function grantIds(userId: number): Promise<number[]> {
  return (await app.strapi.db.query('plugin::quire.oauth-grant').findMany({ where: { userId }, select: ['id'] })).map((g: any) => g.id);
}

describe('errors of the authorize page are never redirects (point 6)', () => {
  it('shows every bad parameter on the page, even for a valid client and redirect URI; only the person\'s decision goes back', async () => {
    const landing = 'https://evil.example/landing';
    const clientId = (await register(nextAddress(), { client_name: 'Lure', redirect_uris: [landing] })).body.client_id;
    const bad: Array<[Record<string, string>, string]> = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ scope: 'admin' }, 'invalid_scope'],
      [{ resource: 'https://other.example/mcp' }, 'invalid_target'],
    ];
    for (const [params, code] of bad) {
      const res = await authorizePage(authorizeUrl(clientId, { redirect_uri: landing, ...params }));
      expect({ params, status: res.status, location: res.headers.location }).toEqual({ params, status: 400, location: undefined });
      expect(res.text).toContain(`(${code})`);
      expect(res.text).not.toContain('evil.example');
    }
    // A valid request is shown; a person who denies is sent back with access_denied.
    const valid = authorizeUrl(clientId, { redirect_uri: landing });
    expect((await authorizePage(valid)).status).toBe(200);
    const eve = await registerUser(app, 'eve');
    const back = await approveOverHttp(app.strapi.server.httpServer, valid, { username: eve.username, password: PASSWORD }, 'deny');
    expect(back.origin + back.pathname).toBe(landing);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st');
  });
});

describe('client ID metadata documents are fetched within limits (point 7)', () => {
  const fetchesOf = (path: string) => hits.filter((u) => u === path).length;

  it('caches a failure, and tells no status of the target', async () => {
    const from = nextAddress();
    for (let i = 0; i < 3; i += 1) {
      const res = await authorizePage(authorizeUrl(`${siteOrigin}/fail/cached.json`), from);
      expect(res.status).toBe(400);
      expect(res.text).toContain('could not be fetched');
      expect(res.text).not.toMatch(/503|HTTP|upstream/);
    }
    expect(fetchesOf('/fail/cached.json')).toBe(1);
  });

  it('fetches once for concurrent requests of one document', async () => {
    const url = authorizeUrl(`${siteOrigin}/ok/concurrent.json`);
    const answers = await Promise.all(Array.from({ length: 20 }, () => authorizePage(url)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(fetchesOf('/ok/concurrent.json')).toBe(1);
  });

  it('limits fetches per requesting address: past 10 a minute, 429 with Retry-After and no fetch', async () => {
    const from = nextAddress();
    for (let i = 0; i < 10; i += 1) expect((await authorizePage(authorizeUrl(`${siteOrigin}/fail/address-${i}.json`), from)).status).toBe(400);
    const over = await authorizePage(authorizeUrl(`${siteOrigin}/fail/address-10.json`), from);
    expect(over.status).toBe(429);
    expect(over.text).toContain('Too many client ID metadata documents fetched for this address.');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['ratelimit-policy']).toBe('"oauth-metadata-fetch";q=10;w=60');
    expect(fetchesOf('/fail/address-10.json')).toBe(0);
    // Another address still gets it fetched.
    expect((await authorizePage(authorizeUrl(`${siteOrigin}/ok/address-10.json`))).status).toBe(200);
  });

  it('limits fetches per target host: past 30 a minute, from whatever addresses', async () => {
    const first = await authorizePage(authorizeUrl(`${siteOrigin}/ok/host-0.json`));
    expect(first.headers['ratelimit-policy']).toBe('"oauth-metadata-fetch";q=10;w=60, "oauth-metadata-host";q=30;w=60');
    const left = Number(/"oauth-metadata-host";r=(\d+)/.exec(first.headers.ratelimit)![1]);
    for (let i = 1; i <= left; i += 1) expect((await authorizePage(authorizeUrl(`${siteOrigin}/ok/host-${i}.json`))).status).toBe(200);
    const over = await authorizePage(authorizeUrl(`${siteOrigin}/ok/host-over.json`));
    expect(over.status).toBe(429);
    expect(over.text).toContain('Too many client ID metadata documents fetched from this host.');
    expect(fetchesOf('/ok/host-over.json')).toBe(0);
  });
});

describe('spent OAuth tokens are deleted (point 10)', () => {
  it('the sweep deletes expired codes and access tokens, and refresh tokens expired or rotated a week ago; what is live stays', async () => {
    const fay = await registerUser(app, 'fay');
    const connection = await connect(fay);
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: connection.refresh, client_id: connection.clientId });
    const latest = await token({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token, client_id: connection.clientId });
    expect(latest.status).toBe(200);
    const [grantId] = await grantIds(fay.id);
    const rows = async () => app.strapi.db.query(TOKENS).findMany({ where: { grantId }, orderBy: { id: 'asc' } });
    // Three access tokens and three refresh tokens (two of them rotated).
    const all = await rows();
    expect(all.map((t: any) => t.kind).sort()).toEqual(['access', 'access', 'access', 'refresh', 'refresh', 'refresh']);
    const [firstAccess] = all.filter((t: any) => t.kind === 'access');
    const [firstRefresh, secondRefresh] = all.filter((t: any) => t.kind === 'refresh');
    const now = Date.now();
    await app.strapi.db.query(TOKENS).update({ where: { id: firstAccess.id }, data: { expiresAt: new Date(now - 1000) } });
    await app.strapi.db.query(TOKENS).update({ where: { id: firstRefresh.id }, data: { usedAt: new Date(now - 8 * 24 * HOUR) } });
    // A code never exchanged, expired.
    await app.strapi.db.query(TOKENS).create({ data: { hash: `expired-code-${now}`, kind: 'code', grantId, expiresAt: new Date(now - 1000) } });

    const swept = await app.strapi.plugin('quire').service('oauth').sweep();
    expect(swept.tokens).toBeGreaterThanOrEqual(3);
    const left = (await rows()).map((t: any) => t.id);
    expect(left).not.toContain(firstAccess.id);
    expect(left).not.toContain(firstRefresh.id);
    expect(left).toContain(secondRefresh.id);
    expect((await rows()).filter((t: any) => t.kind === 'code')).toEqual([]);
    expect(left).toHaveLength(4);
    // The live tokens work; the refresh token rotated within the week still detects reuse.
    expect((await me(latest.body.access_token)).status).toBe(200);
    const reuse = await token({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token, client_id: connection.clientId });
    expect(reuse.body.error_description).toMatch(/already used/);
    expect((await me(latest.body.access_token)).status).toBe(401);
  });
});
