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

