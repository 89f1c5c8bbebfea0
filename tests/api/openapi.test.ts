/**
 * The API describes itself (CONTRACT 15): GET /api/openapi.json is a valid OpenAPI 3.1
 * document of every route of ours, the committed docs/openapi.json is that document, and the
 * server's answers are checked against it (helpers/openapi.ts) in every API test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { validate, compileErrors } from '@readme/openapi-parser';
import { assertNoMismatches, ResponseValidator } from '../helpers/openapi';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let ada: TestUser;
let document: any;

beforeAll(async () => {
  app = await startApp();
  ada = await registerUser(app, 'ada');
  const res = await app.http.get('/api/openapi.json');
  expect(res.status).toBe(200);
  document = JSON.parse(res.text);
});
afterAll(() => app?.close());

const methods = (doc: any) =>
  Object.entries(doc.paths).flatMap(([p, ops]: [string, any]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));

describe('GET /api/openapi.json', () => {
  it('is served without a credential, as JSON', async () => {
    const res = await app.http.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: app.strapi.config.get('server.url') }]);
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(document));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it('describes every route the server serves under our prefixes, and the security schemes', () => {
    const served: string[] = [];
    const routers = [app.strapi.server.router, app.strapi.server.api('content-api'), app.strapi.server.api('admin')];
    for (const layer of routers.flatMap((r: any) => (r.listRoutes ? r.listRoutes() : r.stack))) {
      const full = layer.path as string;
      if (full.startsWith('/api/upload/files')) continue; // the upload plugin's own routes (Media Library)
      if (!/^\/(api\/(articles|keys|auth\/me|upload|unfurl|cli|search|organizations|process-instances|skills|openapi\.json|docs|mcp|oauth)|webhook|status|p\/|cli\/login|quire\/|triggers\/|oauth\/|\.well-known\/oauth-)/.test(full)) continue;
      for (const method of layer.methods.filter((m: string) => m !== 'HEAD')) served.push(`${method} ${full.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    }
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((s) => !methods(document).includes(s))).toEqual([]);
    expect(methods(document).filter((m) => !served.includes(m))).toEqual([]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(
      ['adminToken', 'apiKey', 'instanceKey', 'instanceKeyQuery', 'jwt', 'oauth', 'organizationKey', 'sessionCookie', 'webhookSignature'].sort(),
    );
    expect(document.components.securitySchemes.organizationKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Process-Manager-Key' });
    expect(document.components.securitySchemes.instanceKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'api_key' });
  });

  it('gives each route its credentials, its action, and every status it can answer with its codes', () => {
    const create = document.paths['/api/articles'].post;
    expect(create.security).toEqual([{ apiKey: [] }, { oauth: [] }, { jwt: [] }, { sessionCookie: [] }]);
    expect(create['x-users-permissions-action']).toBe('plugin::quire.articles.create');
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '413', '429', '500']);
    const poll = document.paths['/api/cli/login-complete'].post;
    expect(poll.security).toEqual([]);
    const codes = (status: string) => document.components.schemas[poll.responses[status].content['application/json'].schema.$ref.split('/').pop()].properties.error.properties.code.enum;
    expect(codes('429').sort()).toEqual(['rate-limited', 'slow-down']);
    expect(codes('400').sort()).toEqual(['authorization-pending', 'invalid-argument']);
    expect(codes('410')).toEqual(['expired-token']);
    const trigger = document.paths['/webhook/{processInstanceId}/{workflowId}'].post;
    expect(trigger.security).toEqual([{ webhookSignature: [] }, { organizationKey: [] }, { instanceKey: [] }, { instanceKeyQuery: [] }]);
    expect(Object.keys(trigger.responses)).toEqual(expect.arrayContaining(['202', '401', '404', '413', '429']));
    expect(document.paths['/p/{name}'].get.responses['200'].content).toHaveProperty(['text/html']);
    const adminList = document.paths['/quire/articles'].get;
    expect(adminList.security).toEqual([{ adminToken: [] }]);
    expect(adminList['x-admin-permissions']).toEqual(['plugin::quire.read']);
    expect(Object.keys(adminList.responses).sort()).toEqual(['200', '400', '401', '403', '404', '500']);
  });

  it('is the document committed as docs/openapi.json (run "npm run openapi" after changing a route)', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8'));
    const { servers, ...served } = document;
    expect(servers).toHaveLength(1);
    expect(committed).toEqual(served);
  });
});

describe('the answers of the server are checked against it', () => {
  it('the check can fail: a field the document does not have, a status it does not declare, a wrong type', () => {
    const validator = new ResponseValidator(document, () => true);
    const ok = { success: true, data: { keys: [] } };
    expect(validator.check({ method: 'GET', path: '/api/keys', status: 200, contentType: 'application/json', body: ok })).toBeNull();
    expect(validator.check({ method: 'GET', path: '/api/keys', status: 200, contentType: 'application/json', body: { ...ok, extra: 1 } })).toMatch(/outside its description/);
    expect(validator.check({ method: 'GET', path: '/api/keys', status: 202, contentType: 'application/json', body: ok })).toMatch(/does not declare/);
    expect(validator.check({ method: 'GET', path: '/api/keys', status: 200, contentType: 'text/html', body: '<p>' })).toMatch(/text\/html/);
    const wrongCode = { success: false, error: { code: 'not-found', message: 'x' } };
    expect(validator.check({ method: 'GET', path: '/api/keys', status: 401, contentType: 'application/json', body: wrongCode })).toMatch(/outside/);
    expect(validator.check({ method: 'GET', path: '/api/keys/x/y', status: 404, contentType: 'application/json', body: { ...wrongCode, data: 1 } })).toMatch(
      /not the failure envelope/,
    );
  });

  it('fails the test whose call got an answer outside the description', async () => {
    const key = await createKey(app, ada);
    const keys = app.strapi.plugin('quire').service('keys');
    const original = keys.list;
    keys.list = async (...args: unknown[]) => (await original(...args)).map((k: object) => ({ ...k, hash: 'leaked' }));
    try {
      expect((await app.http.get('/api/keys').set(bearer(key))).status).toBe(200);
      expect(() => assertNoMismatches()).toThrow(/GET \/api\/keys answered 200 outside its description.*additionalProperty.*hash/s);
    } finally {
      keys.list = original;
    }
    assertNoMismatches();
  });

  it('checks unknown routes under our prefixes against the failure envelope', async () => {
    expectFailure(await app.http.get('/api/articles/a/b/c/d').set(bearer(ada.jwt)), 404, 'not-found');
  });
});
