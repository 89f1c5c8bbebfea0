/**
 * The trigger panel's admin routes (/triggers/...): organizations for a chosen user, their keys
 * and instances, an instance's key, workflows with signing secrets, executions. They act through
 * the management API's services as the owner, so what they make works on the public routes.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { bearer, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganization, createOrganizationKey, createWorkflow, finished, newSecret, signed } from '../helpers/triggers';

let app: TestApp;
let token: string;
let editorToken: string;
let lin: TestUser;

const get = (path: string, as = token) => app.http.get(path).set(adminBearer(as));
const post = (path: string, body: object = {}, as = token) => app.http.post(path).set(adminBearer(as)).send(body);

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', PUBLIC_URL: 'http://127.0.0.1:1337' });
  token = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'operator'));
  editorToken = await adminToken(app, await createAdmin(app, 'strapi-editor', 'editor'));
  lin = await registerUser(app, 'lin');
});
afterAll(() => app?.close());

describe('the trigger panel through its admin routes', () => {
  let organizationId: string;
  let instanceId: string;
  let workflowId: string;

  it('finds users and creates an organization they own', async () => {
    const users = await get(`/triggers/users?q=${lin.username.slice(0, 6)}`);
    expect(users.status).toBe(200);
    expect(users.body.data).toContainEqual({ id: lin.id, username: lin.username, email: lin.email });

    const created = await post('/triggers/organizations', { name: 'Lin Labs', ownerId: lin.id });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual(expect.objectContaining({ name: 'Lin Labs', owner: { id: lin.id, username: lin.username, email: lin.email }, keys: [], instances: [] }));
    organizationId = created.body.data.id;

    // The owner sees it through the management API.
    const mine = await app.http.get('/api/organizations').set(bearer(lin.jwt));
    expect(mine.body.data.organizations.map((o) => o.id)).toContain(organizationId);

    const noOwner = await post('/triggers/organizations', { name: 'Nobody', ownerId: 999999 });
    expect(noOwner.status).toBe(400);
    expect(noOwner.body.error.message).toMatch(/ownerId/);
  });

  it('creates an organization key shown once, lists it without its secret, and revokes it', async () => {
    const issued = await post(`/triggers/organizations/${organizationId}/keys`, { name: 'deploy' });
    expect(issued.status).toBe(201);
    const { secret, key } = issued.body.data;
    expect(secret).toMatch(/^cko_/);
    const detail = await get(`/triggers/organizations/${organizationId}`);
    expect(detail.body.data.keys).toEqual([expect.objectContaining({ id: key.id, name: 'deploy' })]);
    expect(JSON.stringify(detail.body)).not.toContain(secret);

    const listed = await app.http.get('/api/process-instances').set('X-Process-Manager-Key', secret);
    expect(listed.status).toBe(200);
    const revoked = await app.http.delete(`/triggers/organizations/${organizationId}/keys/${key.id}`).set(adminBearer(token));
    expect(revoked.status).toBe(200);
    expect((await app.http.get('/api/process-instances').set('X-Process-Manager-Key', secret)).status).toBe(401);
  });

  it('creates an instance, masks its key, reveals it, and regenerates it (the old one fails at once)', async () => {
    const created = await post(`/triggers/organizations/${organizationId}/instances`, { name: 'billing' });
    expect(created.status).toBe(201);
    instanceId = created.body.data.id;
    expect(created.body.data.keyHint).toMatch(/^ck_•+.{4}$/);

    const revealed = await get(`/triggers/instances/${instanceId}/key`);
    expect(revealed.status).toBe(200);
    const oldKey = revealed.body.data.apiKey;
    expect(created.body.data.keyHint.endsWith(oldKey.slice(-4))).toBe(true);

    const regenerated = await post(`/triggers/instances/${instanceId}/regenerate-key`);
    expect(regenerated.status).toBe(200);
    const newKey = (await get(`/triggers/instances/${instanceId}/key`)).body.data.apiKey;
    expect(newKey).not.toBe(oldKey);
    expect((await app.http.get(`/api/process-instances/${instanceId}`).set(bearer(lin.jwt))).body.data.instance.apiKey).toBe(newKey);
  });

  it('lists the actions with descriptions, and refuses a config its action refuses, inline', async () => {
    const actions = await get('/triggers/actions');
    expect(actions.body.data.map((a) => a.name)).toEqual(expect.arrayContaining(['echo', 'http', 'article.import', 'article.note']));
    expect(actions.body.data.find((a) => a.name === 'http').description).toMatch(/POST/);

    const bad = await post(`/triggers/instances/${instanceId}/workflows`, { name: 'hook', action: 'http', config: { url: 42 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/config\.url/);
  });

  it('creates a workflow with a signing secret, adds a generated one (shown once), removes one, and its trigger works', async () => {
    const pasted = newSecret();
    const created = await post(`/triggers/instances/${instanceId}/workflows`, { name: 'echo', action: 'echo', config: {}, signingSecrets: [pasted] });
    expect(created.status).toBe(201);
    workflowId = created.body.data.workflow.id;
    expect(created.body.data.callbackSecret).toBeUndefined();
    expect(created.body.data.workflow.signingSecrets).toEqual([{ id: expect.any(String), hint: `whsec_…${pasted.slice(-4)}` }]);
    expect(JSON.stringify(created.body)).not.toContain(pasted);

    const added = await post(`/triggers/instances/${instanceId}/workflows/${workflowId}/secrets`);
    expect(added.status).toBe(201);
    expect(added.body.data.secret).toMatch(/^whsec_/);
    expect(added.body.data.workflow.signingSecrets).toHaveLength(2);

    const body = JSON.stringify({ payload: { n: 1 } });
    const signedTrigger = await app.http.post(`/webhook/${instanceId}/${workflowId}`).set(signed(added.body.data.secret, body)).send(body);
    expect(signedTrigger.status).toBe(202);

    const first = created.body.data.workflow.signingSecrets[0].id;
    const removed = await app.http.delete(`/triggers/instances/${instanceId}/workflows/${workflowId}/secrets/${first}`).set(adminBearer(token));
    expect(removed.status).toBe(200);
    expect(removed.body.data.signingSecrets).toHaveLength(1);
    const refused = await app.http.post(`/webhook/${instanceId}/${workflowId}`).set(signed(pasted, body)).send(body);
    expect(refused.status).toBe(401);

    const disabled = await app.http.put(`/triggers/instances/${instanceId}/workflows/${workflowId}`).set(adminBearer(token)).send({ enabled: false });
    expect(disabled.body.data.workflow.enabled).toBe(false);
    await app.http.put(`/triggers/instances/${instanceId}/workflows/${workflowId}`).set(adminBearer(token)).send({ enabled: true });
  });

  it('sets a callback URL (its secret shown once), rotates the secret, and refuses a private one', async () => {
    const url = `/triggers/instances/${instanceId}/workflows/${workflowId}`;
    const set = await app.http.put(url).set(adminBearer(token)).send({ callbackUrl: 'https://example.com/done' });
    expect(set.status).toBe(200);
    expect(set.body.data.workflow.callbackUrl).toBe('https://example.com/done');
    expect(set.body.data.callbackSecret).toMatch(/^whsec_/);
    const listed = await get(`/triggers/instances/${instanceId}/workflows`);
    expect(JSON.stringify(listed.body)).not.toContain(set.body.data.callbackSecret);

    const rotated = await post(`${url}/rotate-callback-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.callbackSecret).toMatch(/^whsec_/);
    expect(rotated.body.data.callbackSecret).not.toBe(set.body.data.callbackSecret);

    const refused = await app.http.put(url).set(adminBearer(token)).send({ callbackUrl: 'http://127.0.0.1:9/x' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/callbackUrl/);
    const removed = await app.http.put(url).set(adminBearer(token)).send({ callbackUrl: null });
    expect(removed.body.data.workflow.callbackUrl).toBeNull();
  });

  it('pages executions with filters and shows one with its input and output', async () => {
    const apiKey = (await get(`/triggers/instances/${instanceId}/key`)).body.data.apiKey;
    const triggered = await app.http.post(`/webhook/${instanceId}/${workflowId}`).set('X-API-Key', apiKey).send({ payload: { hello: 'panel' } });
    expect(triggered.status).toBe(202);
    await finished(app, instanceId, triggered.body.data.executionId, apiKey);

    const page = await get(`/triggers/instances/${instanceId}/executions?status=success&workflowId=${workflowId}&pageSize=1`);
    expect(page.status).toBe(200);
    expect(page.body.meta.pagination).toEqual(expect.objectContaining({ page: 1, pageSize: 1, total: 2 }));
    expect(page.body.data[0]).toEqual(expect.objectContaining({ executionId: triggered.body.data.executionId, status: 'success', attempts: 1 }));

    const detail = await get(`/triggers/instances/${instanceId}/executions/${triggered.body.data.executionId}`);
    expect(detail.body.data).toEqual(expect.objectContaining({ input: { hello: 'panel' }, output: { hello: 'panel' }, error: null }));

    const replayed = await post(`/triggers/instances/${instanceId}/executions/${triggered.body.data.executionId}/replay`);
    expect(replayed.status).toBe(202);
    expect(replayed.body.data.replayOf).toBe(triggered.body.data.executionId);
    const again = await finished(app, instanceId, replayed.body.data.executionId, apiKey);
    expect(again.output).toEqual({ hello: 'panel' });
    expect((await get(`/triggers/instances/${instanceId}/executions/${replayed.body.data.executionId}`)).body.data.replayOf).toBe(triggered.body.data.executionId);

    const bad = await get(`/triggers/instances/${instanceId}/executions?status=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual(expect.objectContaining({ name: 'ValidationError', message: expect.stringContaining('Query parameter status:') }));
  });

  it('an admin without the Triggers actions gets 403 from every one of these routes', async () => {
    for (const [method, path] of [
      ['get', '/triggers/users'],
      ['post', '/triggers/organizations'],
      ['get', `/triggers/organizations/${organizationId}`],
      ['get', `/triggers/instances/${instanceId}`],
      ['get', `/triggers/instances/${instanceId}/key`],
      ['post', `/triggers/instances/${instanceId}/regenerate-key`],
      ['get', `/triggers/instances/${instanceId}/workflows`],
      ['get', `/triggers/instances/${instanceId}/executions`],
    ] as const) {
      const res = await app.http[method](path).set(adminBearer(editorToken)).send({});
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
  });

  it('plugin::triggers.read alone shows the panel but neither changes it nor reveals a key', async () => {
    const { id: editorRole } = await app.strapi.db.query('admin::role').findOne({ where: { code: 'strapi-editor' } });
    const current = await get(`/admin/roles/${editorRole}/permissions`);
    const permissions = current.body.data.map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
    const granted = await app.http
      .put(`/admin/roles/${editorRole}/permissions`)
      .set(adminBearer(token))
      .send({ permissions: [...permissions, { action: 'plugin::triggers.read', subject: null, properties: {}, conditions: [] }] });
    expect(granted.status).toBe(200);

    for (const path of [`/triggers/organizations/${organizationId}`, `/triggers/instances/${instanceId}`, `/triggers/instances/${instanceId}/workflows`, `/triggers/instances/${instanceId}/executions`, '/triggers/actions']) {
      expect([path, (await get(path, editorToken)).status]).toEqual([path, 200]);
    }
    expect((await get(`/triggers/instances/${instanceId}`, editorToken)).body.data.keyHint).toMatch(/^ck_•+/);
    expect((await get(`/triggers/instances/${instanceId}/key`, editorToken)).status).toBe(403);
    expect((await post(`/triggers/instances/${instanceId}/regenerate-key`, {}, editorToken)).status).toBe(403);
    expect((await post(`/triggers/organizations/${organizationId}/keys`, {}, editorToken)).status).toBe(403);
    expect((await post('/triggers/organizations', { name: 'x', ownerId: lin.id }, editorToken)).status).toBe(403);
  });
});

describe('what started an execution', () => {
  it('is recorded and shown in the panel: X-API-Key, the api_key parameter, an organization key (webhook and skill call), a signature, a replay', async () => {
    const owner = await registerUser(app, 'started');
    const organizationId = await createOrganization(app, owner, 'Started Labs');
    const { instanceId, apiKey } = await createInstance(app, owner, organizationId, 'starter');
    const secret = newSecret();
    const workflow = await createWorkflow(app, owner, instanceId, { name: 'echo_started', signingSecrets: [secret] });
    const organizationKey = (await createOrganizationKey(app, owner, organizationId)).secret;
    const url = `/webhook/${instanceId}/${workflow.id}`;
    const body = JSON.stringify({ payload: { n: 1 } });

    const started: Record<string, string> = {};
    started['instance-key'] = (await app.http.post(url).set('X-API-Key', apiKey).send({ payload: {} })).body.data.executionId;
    started['instance-key-query'] = (await app.http.post(`${url}?api_key=${apiKey}`).send({ payload: {} })).body.data.executionId;
    started['organization-key'] = (await app.http.post(url).set('X-Process-Manager-Key', organizationKey).send({ payload: {} })).body.data.executionId;
    started['webhook-signature'] = (await app.http.post(url).set(signed(secret, body)).send(body)).body.data.executionId;
    // A skill call over MCP with the organization key is an execution like any other.
    const call = await app.http
      .post('/api/mcp')
      .set('X-Process-Manager-Key', organizationKey)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_started', arguments: { from: 'mcp' } } });
    expect(call.status).toBe(200);
    const skillExecution = call.body.result._meta.executionId as string;
    const replayed = await post(`/triggers/instances/${instanceId}/executions/${started['instance-key']}/replay`);
    expect(replayed.status).toBe(202);
    started.replay = replayed.body.data.executionId;

    for (const [credential, executionId] of Object.entries(started)) {
      expect(executionId).toEqual(expect.any(String));
      const detail = await get(`/triggers/instances/${instanceId}/executions/${executionId}`);
      expect([credential, detail.body.data.startedWith]).toEqual([credential, credential]);
    }
    expect((await get(`/triggers/instances/${instanceId}/executions/${skillExecution}`)).body.data).toEqual(
      expect.objectContaining({ startedWith: 'organization-key', input: { from: 'mcp' } }),
    );
  });
});
