/**
 * Quire's OAuth 2.1 authorization server (CONTRACT §16), the way an agent uses it: the official
 * SDK's client discovers it from /api/mcp's 401, registers, sends the person to the authorize
 * page (approved here over HTTP; tests/e2e/oauth-authorize.test.ts does it in Chromium), gets
 * tokens and calls the tools; then refresh, reuse, revocation and the refusals.
 */
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startListeningApp } from '../helpers/cli-login';
import supertest from 'supertest';
import { approveOverHttp, hiddenField, pkcePair, RecordingProvider, REDIRECT_URI } from '../helpers/oauth';
import { registerUser, type TestApp, type TestUser } from '../helpers/strapi';

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery';
let app: TestApp;
let base: string;
let ada: TestUser;
/** A local site serving client ID metadata documents (allowed as a private host, so over http). */
let metadataSite: http.Server;
let metadataOrigin: string;
const metadataHits: string[] = [];

beforeAll(async () => {
  metadataSite = http.createServer((req, res) => {
    metadataHits.push(req.url!);
    const self = `${metadataOrigin}${req.url}`;
    const documents: Record<string, unknown> = {
      '/client.json': { client_id: self, client_name: 'Metadata Agent', client_uri: 'https://metadata-agent.example', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' },
      '/impostor.json': { client_id: 'https://someone-else.example/client.json', client_name: 'Impostor', redirect_uris: [REDIRECT_URI] },
    };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(documents[req.url!] ?? {}));
  });
  await new Promise<void>((resolve) => metadataSite.listen(0, '127.0.0.1', () => resolve()));
  const port = (metadataSite.address() as any).port;
  metadataOrigin = `http://127.0.0.1:${port}`;
  ({ app, base } = await startListeningApp({ UNFURL_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${port}` }));
  ada = await registerUser(app, 'ada');
});
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => metadataSite?.close(resolve));
});

const login = () => ({ username: ada.username, password: PASSWORD });
const form = (fields: Record<string, string>) => app.http.post('/oauth/token').type('form').send(fields);

/** Registers a client, has ada approve it, and returns the code and what it takes to redeem it. */
async function authorizeManually(options: { scope?: string; resource?: string } = {}) {
  const registered = await app.http.post('/oauth/register').send({ client_name: 'Manual agent', redirect_uris: [REDIRECT_URI] });
  expect(registered.status).toBe(201);
  const clientId = registered.body.client_id as string;
  const { verifier, challenge } = pkcePair();
  const url = new URL(`${base}/oauth/authorize`);
  const params: Record<string, string> = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', state: 's1' };
  if (options.scope) params.scope = options.scope;
  if (options.resource) params.resource = options.resource;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const back = await approveOverHttp(app.strapi.server.httpServer, url, login());
  expect(back.searchParams.get('state')).toBe('s1');
  expect(back.searchParams.get('iss')).toBe(base);
  return { clientId, verifier, code: back.searchParams.get('code')!, back };
}

async function connectWith(provider: RecordingProvider) {
  const client = new Client({ name: 'oauth-agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { authProvider: provider }));
  return client;
}

describe('metadata', () => {
  it('serves the protected resource metadata (path-inserted and at the root) and the authorization server metadata', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await app.http.get(path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base] });
    }
    const res = await app.http.get('/.well-known/oauth-authorization-server');
    expect(res.body).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
    });
  });
});

describe('the whole flow with the SDK client', () => {
  it('discovers from the 401, registers, is approved, calls tools, refreshes; a reused refresh token revokes the grant', async () => {
    const provider = new RecordingProvider('Tide Agent');
    await expect(connectWith(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toMatch(/^qc_/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${base}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${base}/api/mcp`);

    const back = await approveOverHttp(app.strapi.server.httpServer, authorizationUrl, login());
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { authProvider: provider });
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^qoa_/);
    expect(provider.saved?.refresh_token).toMatch(/^qor_/);
    expect(provider.saved?.expires_in).toBe(3600);

    const client = await connectWith(provider);
    const created: any = await client.callTool({ name: 'create_article', arguments: { title: 'Written over OAuth' } });
    expect(created.isError).toBeFalsy();
    const id = created.structuredContent.article.id;
    const note: any = await client.callTool({ name: 'add_note', arguments: { id, kind: 'idea', title: 'By the agent' } });
    expect(note.structuredContent.note.createdBy).toBe('agent');
    await client.close();

    // The OAuth path of every /api route: same owner scoping.
    const listed = await app.http.get('/api/articles').set('Authorization', `Bearer ${provider.saved!.access_token}`);
    expect(listed.body.data.articles.map((a: any) => a.id)).toEqual([id]);
    const grants = await app.http.get('/api/oauth/grants').set('Authorization', `Bearer ${ada.jwt}`);
    expect(grants.body.data.grants).toEqual([expect.objectContaining({ client: expect.objectContaining({ name: 'Tide Agent', uri: 'https://agent.example' }), scope: 'write' })]);

    // Refresh rotates; the old refresh token used again revokes the grant.
    const first = provider.saved!;
    const refreshed = await form({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: provider.client!.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    const works = await app.http.get('/api/auth/me').set('Authorization', `Bearer ${refreshed.body.access_token}`);
    // CONTRACT 2: via is key or session; an OAuth access token is an agent's credential, like a key.
    expect(works.body.data).toEqual({ user: { id: ada.id, username: ada.username, email: ada.email }, via: 'key' });
    const reused = await form({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: provider.client!.client_id });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    const revoked = await app.http.get('/api/auth/me').set('Authorization', `Bearer ${refreshed.body.access_token}`);
    expect(revoked.status).toBe(401);
    const afterReuse = await form({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: provider.client!.client_id });
    expect(afterReuse.body.error).toBe('invalid_grant');
  });

  it('records a grant\'s lastUsedAt once a minute at most, however many requests its token makes at once', async () => {
    const { clientId, verifier, code } = await authorizeManually();
    const tokens = (await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId })).body;
    const grantOf = async () => (await app.http.get('/api/oauth/grants').set('Authorization', `Bearer ${ada.jwt}`)).body.data.grants.find((g: any) => g.client.id === clientId);
    expect((await grantOf()).lastUsedAt).toBeNull();
    // Every write of lastUsedAt to a grant row, whichever query makes it.
    const writes: unknown[] = [];
    const unsubscribe = app.strapi.db.lifecycles.subscribe({
      models: ['plugin::quire.oauth-grant'],
      beforeUpdate: (event: any) => void (event.params.data?.lastUsedAt && writes.push(event.params.data.lastUsedAt)),
      beforeUpdateMany: (event: any) => void (event.params.data?.lastUsedAt && writes.push(event.params.data.lastUsedAt)),
    } as any);
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, () => app.http.get('/api/auth/me').set('Authorization', `Bearer ${tokens.access_token}`)));
      expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect((await app.http.get('/api/articles').set('Authorization', `Bearer ${tokens.access_token}`)).status).toBe(200);
    } finally {
      unsubscribe();
    }
    expect(writes).toHaveLength(1);
    expect((await grantOf()).lastUsedAt).toBe((writes[0] as Date).toISOString());
  });

  it('revokes a token (RFC 7009) and a grant (DELETE /api/oauth/grants/{id})', async () => {
    const { clientId, verifier, code } = await authorizeManually();
    const tokens = (await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId })).body;
    expect((await app.http.get('/api/auth/me').set('Authorization', `Bearer ${tokens.access_token}`)).status).toBe(200);
    // Another client may not revoke it (RFC 7009 2.1): refused, and the token still works.
    const other = await authorizeManually();
    const foreign = await app.http.post('/oauth/revoke').type('form').send({ token: tokens.refresh_token, client_id: other.clientId });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ error: 'unauthorized_client', error_description: expect.stringContaining('not issued to this client') });
    expect((await app.http.get('/api/auth/me').set('Authorization', `Bearer ${tokens.access_token}`)).status).toBe(200);
    const res = await app.http.post('/oauth/revoke').type('form').send({ token: tokens.refresh_token, client_id: clientId });
    expect(res.status).toBe(200);
    expect((await app.http.get('/api/auth/me').set('Authorization', `Bearer ${tokens.access_token}`)).status).toBe(401);

    const second = await authorizeManually();
    const more = (await form({ grant_type: 'authorization_code', code: second.code, redirect_uri: REDIRECT_URI, code_verifier: second.verifier, client_id: second.clientId })).body;
    const grants = (await app.http.get('/api/oauth/grants').set('Authorization', `Bearer ${ada.jwt}`)).body.data.grants;
    const grant = grants.find((g: any) => g.client.id === second.clientId);
    const byAgent = await app.http.delete(`/api/oauth/grants/${grant.id}`).set('Authorization', `Bearer ${more.access_token}`);
    expect(byAgent.status).toBe(403);
    const keyByAgent = await app.http.post('/api/keys').set('Authorization', `Bearer ${more.access_token}`).send({ name: 'minted' });
    expect(keyByAgent.status).toBe(403);
    const deleted = await app.http.delete(`/api/oauth/grants/${grant.id}`).set('Authorization', `Bearer ${ada.jwt}`);
    expect(deleted.body.data).toEqual({ revoked: true, id: grant.id });
    expect((await app.http.get('/api/auth/me').set('Authorization', `Bearer ${more.access_token}`)).status).toBe(401);
  });

  it('gives a read-scoped token tool errors on writes', async () => {
    const { clientId, verifier, code } = await authorizeManually({ scope: 'read' });
    const tokens = (await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId })).body;
    expect(tokens.scope).toBe('read');
    const client = new Client({ name: 'reader', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } } }));
    const listed: any = await client.callTool({ name: 'list_articles', arguments: {} });
    expect(listed.isError).toBeFalsy();
    const write: any = await client.callTool({ name: 'create_article', arguments: { title: 'Nope' } });
    expect(write.isError).toBe(true);
    expect(write.structuredContent.error.code).toBe('permission-denied');
    await client.close();
  });
});

describe('client ID metadata documents', () => {
  it('fetches the client_id URL once (cached), names the client from it, enforces its redirect_uris', async () => {
    const clientId = `${metadataOrigin}/client.json`;
    const { verifier, challenge } = pkcePair();
    const query = { response_type: 'code', client_id: clientId, code_challenge: challenge, code_challenge_method: 'S256', state: 'm' };
    const elsewhere = await app.http.get('/oauth/authorize').query({ ...query, redirect_uri: 'https://evil.example/cb' });
    expect(elsewhere.status).toBe(400);
    const url = new URL(`${base}/oauth/authorize`);
    for (const [k, v] of Object.entries({ ...query, redirect_uri: REDIRECT_URI })) url.searchParams.set(k, v);
    const back = await approveOverHttp(app.strapi.server.httpServer, url, login());
    const tokens = await form({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId });
    expect(tokens.status).toBe(200);
    expect(metadataHits.filter((u) => u === '/client.json')).toHaveLength(1);
    const grants = (await app.http.get('/api/oauth/grants').set('Authorization', `Bearer ${ada.jwt}`)).body.data.grants;
    expect(grants[0].client).toEqual({ id: clientId, name: 'Metadata Agent', uri: 'https://metadata-agent.example' });
  });

  it('refuses a document whose client_id is not its own URL', async () => {
    const res = await app.http
      .get('/oauth/authorize')
      .query({ response_type: 'code', client_id: `${metadataOrigin}/impostor.json`, redirect_uri: REDIRECT_URI, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/client_id is its own URL/);
  });
});

describe('refusals', () => {
  it('a wrong PKCE verifier', async () => {
    const { clientId, code } = await authorizeManually();
    const res = await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier, client_id: clientId });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.body.error_description).toMatch(/code_verifier/);
  });

  it('a wrong password on the sign-in form: 401, counted by the sign-in limits the RateLimit headers tell', async () => {
    const registered = await app.http.post('/oauth/register').send({ client_name: 'Counted', redirect_uris: [REDIRECT_URI] });
    const { challenge } = pkcePair();
    const agent = supertest.agent(app.strapi.server.httpServer);
    const query = new URLSearchParams({ response_type: 'code', client_id: registered.body.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' });
    const page = await agent.get(`/oauth/authorize?${query}`);
    expect(page.status).toBe(200);
    const send = (password: string, from: string) =>
      agent.post('/oauth/authorize/session').type('form').send({ csrf: hiddenField(from, 'csrf'), request: hiddenField(from, 'request'), identifier: ada.username, password });
    const wrong = await send('not the password', page.text);
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong username, email or password.');
    // The same limits as the CLI login page's sign-in: 10 per address and identifier, 50 per address, in 15 minutes.
    expect(wrong.headers['ratelimit-policy']).toBe('"cli-sign-in";q=10;w=900, "cli-sign-in-ip";q=50;w=900');
    expect(wrong.headers.ratelimit).toMatch(/^"cli-sign-in";r=9;t=\d+, "cli-sign-in-ip";r=\d+;t=\d+$/);
    const right = await send(PASSWORD, wrong.text);
    expect(right.status).toBe(303);
    expect(right.headers['ratelimit-policy']).toBe('"cli-sign-in";q=10;w=900, "cli-sign-in-ip";q=50;w=900');
    expect(right.headers.ratelimit).toMatch(/^"cli-sign-in";r=10;t=0, "cli-sign-in-ip";r=\d+;t=\d+$/);
  });

  it('a redirect URI the client did not register: a page, never a redirect', async () => {
    const registered = await app.http.post('/oauth/register').send({ client_name: 'X', redirect_uris: [REDIRECT_URI] });
    const { challenge } = pkcePair();
    const res = await app.http.get('/oauth/authorize').query({ response_type: 'code', client_id: registered.body.client_id, redirect_uri: 'https://evil.example/cb', code_challenge: challenge, code_challenge_method: 'S256' });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toMatch(/redirect_uri is not one this app registered/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  });

  it('an expired code', async () => {
    const { clientId, verifier, code } = await authorizeManually();
    await app.strapi.db.query('plugin::quire.oauth-token').updateMany({ where: { kind: 'code' }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId });
    expect(res.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
  });

  it('a code used twice, which also revokes what the first use gave', async () => {
    const { clientId, verifier, code } = await authorizeManually();
    const first = await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId });
    expect(first.status).toBe(200);
    const second = await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId });
    expect(second.body.error).toBe('invalid_grant');
  });

  it('a token for another resource', async () => {
    const registered = await app.http.post('/oauth/register').send({ client_name: 'X', redirect_uris: [REDIRECT_URI] });
    const { challenge } = pkcePair();
    const res = await app.http
      .get('/oauth/authorize')
      .query({ response_type: 'code', client_id: registered.body.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://other.example/mcp', state: 'z' });
    // A page, not a redirect: errors go back to the client only after the person saw the request (RFC 9700 4.11.2).
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('(invalid_target)');

    const { clientId, verifier, code } = await authorizeManually();
    const exchange = await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId, resource: 'https://other.example/mcp' });
    expect(exchange.body.error).toBe('invalid_target');
  });

  it('a client_id URL at a private address, refused without being fetched', async () => {
    let hits = 0;
    const fixture = http.createServer((_req, res) => {
      hits += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', () => resolve()));
    const port = (fixture.address() as any).port;
    const { challenge } = pkcePair();
    for (const clientId of [`https://127.0.0.1:${port}/client.json`, 'https://10.1.2.3/client.json', 'https://[::1]/client.json']) {
      const res = await app.http.get('/oauth/authorize').query({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/could not be fetched/);
    }
    expect(hits).toBe(0);
    await new Promise((resolve) => fixture.close(resolve));
  });

  it('registration without valid redirect URIs, and a plain code_challenge', async () => {
    const bad = await app.http.post('/oauth/register').send({ client_name: 'X', redirect_uris: ['http://evil.example/cb'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_redirect_uri');
    const registered = await app.http.post('/oauth/register').send({ client_name: 'X', redirect_uris: [REDIRECT_URI] });
    const res = await app.http.get('/oauth/authorize').query({ response_type: 'code', client_id: registered.body.client_id, redirect_uri: REDIRECT_URI, code_challenge: 'plain-challenge', code_challenge_method: 'plain' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('PKCE is required');
  });

  it('a body that cannot be read (malformed or too deep JSON) in the OAuth format, not Strapi\'s', async () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    const cases: Array<[string, string, string, RegExp]> = [
      ['/oauth/register', '{"client_name": "X",', 'invalid_client_metadata', /not valid JSON/],
      ['/oauth/register', `{"redirect_uris": ${deep}}`, 'invalid_client_metadata', /nested more than 128 levels/],
      ['/oauth/token', '{"grant_type": ', 'invalid_request', /not valid JSON/],
      ['/oauth/token', `{"grant_type": ${deep}}`, 'invalid_request', /nested more than 128 levels/],
      ['/oauth/revoke', '{"token"', 'invalid_request', /not valid JSON/],
    ];
    for (const [path, body, error, description] of cases) {
      const res = await app.http.post(path).set('Content-Type', 'application/json').send(body);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { error, error_description: expect.stringMatching(description) } });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});
