import { createHash } from 'node:crypto';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganization, createOrganizationKey, createWorkflow, finished, newSecret, setup } from '../helpers/triggers';

let app: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app, 'alice');
  bob = await registerUser(app, 'bob');
});
afterAll(() => app?.close());

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('organizations', () => {
  it('creates and lists organizations, owner-scoped', async () => {
    const created = await app.http.post('/api/organizations').set(bearer(alice.jwt)).send({ name: '  Acme  ' });
    expect(created.status).toBe(201);
    const { organization } = created.body.data;
    expect(Object.keys(organization).sort()).toEqual(['createdAt', 'id', 'name']);
    expect(organization.name).toBe('Acme');
    expect(new Date(organization.createdAt).toISOString()).toBe(organization.createdAt);

    const mine = await app.http.get('/api/organizations').set(bearer(alice.jwt));
    expect(mine.body.data.organizations).toContainEqual(organization);
    const theirs = await app.http.get('/api/organizations').set(bearer(bob.jwt));
    expect(theirs.body.data.organizations.map((o: any) => o.id)).not.toContain(organization.id);
  });

  it('accepts a user API key too, and refuses no credential or an organization key', async () => {
    const key = await createKey(app, alice);
    expect((await app.http.get('/api/organizations').set(bearer(key))).status).toBe(200);
    expectFailure(await app.http.get('/api/organizations'), 401, 'unauthenticated');
    const orgId = await createOrganization(app, alice);
    const orgKey = await createOrganizationKey(app, alice, orgId);
    expectFailure(await app.http.get('/api/organizations').set('X-Process-Manager-Key', orgKey.secret), 401, 'unauthenticated');
  });

  it('names the field in validation errors', async () => {
    expect(expectFailure(await app.http.post('/api/organizations').set(bearer(alice.jwt)).send({}), 400, 'invalid-argument').message).toBe('name is required.');
    expect(expectFailure(await app.http.post('/api/organizations').set(bearer(alice.jwt)).send({ name: ' ' }), 400, 'invalid-argument').message).toBe('name must not be empty.');
    expect(expectFailure(await app.http.post('/api/organizations').set(bearer(alice.jwt)).send({ name: 'x', plan: 'pro' }), 400, 'invalid-argument').message).toBe('Unknown field: plan.');
  });
});

describe('organization keys', () => {
  it('shows a cko_ key once, lists records only, stores a hash, and revokes', async () => {
    const orgId = await createOrganization(app, alice);
    const created = await app.http.post(`/api/organizations/${orgId}/keys`).set(bearer(alice.jwt)).send({ name: 'ci' });
    expect(created.status).toBe(201);
    const { key, secret } = created.body.data;
    expect(secret).toMatch(/^cko_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(4), 'base64url')).toHaveLength(32);
    expect(Object.keys(key).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix']);
    expect(secret.startsWith(key.prefix)).toBe(true);

    const listed = await app.http.get(`/api/organizations/${orgId}/keys`).set(bearer(alice.jwt));
    expect(listed.body.data.keys).toEqual([key]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const rows = await app.strapi.db.connection('triggers_organization_keys').select('*');
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows.map((r: any) => r.hash)).toContain(sha256(secret));

    // It works on the instance routes until it is revoked, then fails at once.
    expect((await app.http.get('/api/process-instances').set('X-Process-Manager-Key', secret)).status).toBe(200);
    const revoked = await app.http.delete(`/api/organizations/${orgId}/keys/${key.id}`).set(bearer(alice.jwt));
    expect(revoked.body).toEqual({ success: true, data: { id: key.id } });
    expectFailure(await app.http.get('/api/process-instances').set('X-Process-Manager-Key', secret), 401, 'unauthenticated');
    expectFailure(await app.http.delete(`/api/organizations/${orgId}/keys/${key.id}`).set(bearer(alice.jwt)), 404, 'not-found');
  });

  it('keeps another user out with the same 404 as a missing organization', async () => {
    const orgId = await createOrganization(app, alice);
    const key = await createOrganizationKey(app, alice, orgId);
    const attempts = [
      app.http.get(`/api/organizations/${orgId}/keys`).set(bearer(bob.jwt)),
      app.http.post(`/api/organizations/${orgId}/keys`).set(bearer(bob.jwt)).send({}),
      app.http.delete(`/api/organizations/${orgId}/keys/${key.id}`).set(bearer(bob.jwt)),
    ];
    for (const res of await Promise.all(attempts)) {
      const error = expectFailure(res, 404, 'not-found');
      const missing = await app.http.get('/api/organizations/nope/keys').set(bearer(bob.jwt));
      expect(error.message.replace(orgId, 'ID')).toBe(missing.body.error.message.replace('nope', 'ID'));
    }
    expect((await app.http.get('/api/process-instances').set('X-Process-Manager-Key', key.secret)).status).toBe(200);
  });
});

describe('process instances', () => {
  it('creates an instance with its own ck_ key, stored sealed and hashed, shown to its owner', async () => {
    const orgId = await createOrganization(app, alice);
    const created = await app.http.post('/api/process-instances').set(bearer(alice.jwt)).send({ organizationId: orgId, name: 'Billing' });
    expect(created.status).toBe(201);
    const { instance } = created.body.data;
    expect(Object.keys(instance).sort()).toEqual(['apiKey', 'createdAt', 'id', 'name', 'organizationId']);
    expect(instance).toMatchObject({ organizationId: orgId, name: 'Billing' });
    expect(instance.apiKey).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(instance.apiKey.slice(3), 'base64url')).toHaveLength(32);

    const row = await app.strapi.db.connection('triggers_process_instances').where({ document_id: instance.id }).first();
    expect(JSON.stringify(row)).not.toContain(instance.apiKey);
    expect(JSON.stringify(row)).not.toContain(instance.apiKey.slice(3, 20));
    expect(row.key_hash).toBe(sha256(instance.apiKey));
    expect(row.key_ciphertext).toMatch(/^v1\./);

    expect((await app.http.get(`/api/process-instances/${instance.id}`).set(bearer(alice.jwt))).body.data.instance).toEqual(instance);
    const listed = await app.http.get(`/api/process-instances?organizationId=${orgId}`).set(bearer(alice.jwt));
    expect(listed.body.data.instances).toEqual([instance]);
  });

  it('regenerates the key: the new one works, the old one fails at once', async () => {
    const s = await setup(app, alice);
    const wf = await createWorkflow(app, alice, s.instanceId);
    const before = await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', s.apiKey).send({ payload: 1 });
    expect(before.status).toBe(202);
    const regenerated = await app.http.post(`/api/process-instances/${s.instanceId}/regenerate-key`).set(bearer(alice.jwt));
    expect(regenerated.status).toBe(200);
    const fresh = regenerated.body.data.instance.apiKey;
    expect(fresh).toMatch(/^ck_/);
    expect(fresh).not.toBe(s.apiKey);
    expectFailure(await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', s.apiKey).send({ payload: 1 }), 401, 'unauthenticated');
    expectFailure(await app.http.get(`/status/${s.instanceId}/${before.body.data.executionId}`).set('X-API-Key', s.apiKey), 401, 'unauthenticated');
    expect((await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', fresh).send({ payload: 1 })).status).toBe(202);
    expect((await app.http.get(`/api/process-instances/${s.instanceId}`).set(bearer(alice.jwt))).body.data.instance.apiKey).toBe(fresh);
  });

  it('keeps other users out (404 like a missing instance), also from creating in a foreign organization', async () => {
    const s = await setup(app, alice);
    const missing = expectFailure(await app.http.get('/api/process-instances/zzzz').set(bearer(bob.jwt)), 404, 'not-found');
    for (const res of [
      await app.http.get(`/api/process-instances/${s.instanceId}`).set(bearer(bob.jwt)),
      await app.http.post(`/api/process-instances/${s.instanceId}/regenerate-key`).set(bearer(bob.jwt)),
      await app.http.get(`/api/process-instances/${s.instanceId}/workflows`).set(bearer(bob.jwt)),
      await app.http.post(`/api/process-instances/${s.instanceId}/workflows`).set(bearer(bob.jwt)).send({ name: 'x', action: 'echo' }),
      await app.http.get(`/api/process-instances/${s.instanceId}/executions`).set(bearer(bob.jwt)),
    ]) {
      expect(expectFailure(res, 404, 'not-found').message.replace(s.instanceId, 'ID')).toBe(missing.message.replace('zzzz', 'ID'));
    }
    expectFailure(await app.http.post('/api/process-instances').set(bearer(bob.jwt)).send({ organizationId: s.organizationId, name: 'x' }), 404, 'not-found');
    expectFailure(await app.http.get(`/api/process-instances?organizationId=${s.organizationId}`).set(bearer(bob.jwt)), 404, 'not-found');
    const bobs = await app.http.get('/api/process-instances').set(bearer(bob.jwt));
    expect(JSON.stringify(bobs.body)).not.toContain(s.instanceId);
    expect(JSON.stringify(bobs.body)).not.toContain(s.apiKey);
  });

  it('lets an organization key manage the instances of its organization only', async () => {
    const orgA = await createOrganization(app, alice, 'A');
    const orgB = await createOrganization(app, alice, 'B');
    const key = (await createOrganizationKey(app, alice, orgA)).secret;
    const inB = await createInstance(app, alice, orgB);
    const org = (req: any) => req.set('X-Process-Manager-Key', key);

    const created = await org(app.http.post('/api/process-instances')).send({ organizationId: orgA, name: 'deployed' });
    expect(created.status).toBe(201);
    const pid = created.body.data.instance.id;
    const wf = await org(app.http.post(`/api/process-instances/${pid}/workflows`)).send({ name: 'w', action: 'echo' });
    expect(wf.status).toBe(201);
    expect((await org(app.http.get(`/api/process-instances/${pid}`))).body.data.instance.apiKey).toBe(created.body.data.instance.apiKey);
    const listed = await org(app.http.get('/api/process-instances'));
    expect(listed.body.data.instances.map((i: any) => i.id)).toEqual([pid]);

    expectFailure(await org(app.http.post('/api/process-instances')).send({ organizationId: orgB, name: 'x' }), 404, 'not-found');
    expectFailure(await org(app.http.get(`/api/process-instances/${inB.instanceId}`)), 404, 'not-found');
    expectFailure(await org(app.http.get(`/api/process-instances?organizationId=${orgB}`)), 404, 'not-found');
    expectFailure(await app.http.get('/api/process-instances').set('X-Process-Manager-Key', inB.apiKey), 401, 'unauthenticated');
    expectFailure(await app.http.get('/api/process-instances').set('X-Process-Manager-Key', 'cko_garbage'), 401, 'unauthenticated');
  });
});

describe('workflows', () => {
  it('creates a workflow with signing secrets, never returning them', async () => {
    const s = await setup(app, alice);
    const secret = newSecret();
    const res = await app.http
      .post(`/api/process-instances/${s.instanceId}/workflows`)
      .set(bearer(alice.jwt))
      .send({ name: 'Inbound', action: 'echo', signingSecrets: [secret] });
    expect(res.status).toBe(201);
    const { workflow } = res.body.data;
    expect(workflow).toMatchObject({ name: 'Inbound', action: 'echo', config: {}, signing: true, enabled: true });
    expect(workflow.triggerUrl).toBe(`${app.strapi.config.get('server.url')}/webhook/${s.instanceId}/${workflow.id}`);
    for (const body of [res.body, (await app.http.get(`/api/process-instances/${s.instanceId}/workflows`).set(bearer(alice.jwt))).body]) {
      expect(JSON.stringify(body)).not.toContain(secret.slice(6, 30));
    }
    const rows = await app.strapi.db.connection('triggers_workflows').select('*');
    expect(JSON.stringify(rows)).not.toContain(secret.slice(6, 30));
    const plain = await createWorkflow(app, alice, s.instanceId);
    expect((plain as any).signing).toBe(false);
  });

  it('refuses unknown actions, bad config and malformed secrets, naming the field', async () => {
    const s = await setup(app, alice);
    const post = (body: object) => app.http.post(`/api/process-instances/${s.instanceId}/workflows`).set(bearer(alice.jwt)).send(body);
    const unknown = expectFailure(await post({ name: 'w', action: 'nope' }), 400, 'invalid-argument');
    expect(unknown.message).toMatch(/^action: unknown action "nope"/);
    expect(unknown.nextAction).toMatch(/echo/);
    expect(expectFailure(await post({ name: 'w', action: 'echo', config: { x: 1 } }), 400, 'invalid-argument').message).toMatch(/x/);
    expect(expectFailure(await post({ name: 'w', action: 'echo', signingSecrets: ['not-a-secret'] }), 400, 'invalid-argument').message).toBe('signingSecrets.0 must be a Standard Webhooks secret: whsec_ followed by the base64 of 24 to 64 bytes.');
    expect(expectFailure(await post({ action: 'echo' }), 400, 'invalid-argument').message).toBe('name is required.');
    expect(expectFailure(await post({ name: 'w', action: 'echo', enabled: 'yes' }), 400, 'invalid-argument').message).toBe('enabled must be a boolean.');
  });

  it('updates name, enabled, secrets and config; deletes', async () => {
    const s = await setup(app, alice);
    const wf = await createWorkflow(app, alice, s.instanceId);
    const url = `/api/process-instances/${s.instanceId}/workflows/${wf.id}`;
    const patched = await app.http.patch(url).set(bearer(alice.jwt)).send({ name: 'Renamed', enabled: false, signingSecrets: [newSecret(), newSecret()] });
    expect(patched.status).toBe(200);
    expect(patched.body.data.workflow).toMatchObject({ id: wf.id, name: 'Renamed', enabled: false, signing: true });
    expect((await app.http.get(url).set(bearer(alice.jwt))).body.data.workflow).toEqual(patched.body.data.workflow);
    const cleared = await app.http.patch(url).set(bearer(alice.jwt)).send({ signingSecrets: [] });
    expect(cleared.body.data.workflow.signing).toBe(false);
    expectFailure(await app.http.patch(url).set(bearer(alice.jwt)).send({ action: 'http' }), 400, 'invalid-argument');
    expectFailure(await app.http.patch(url).set(bearer(bob.jwt)).send({ name: 'x' }), 404, 'not-found');
    expectFailure(await app.http.delete(url).set(bearer(bob.jwt)), 404, 'not-found');

    const removed = await app.http.delete(url).set(bearer(alice.jwt));
    expect(removed.body).toEqual({ success: true, data: { id: wf.id } });
    expectFailure(await app.http.get(url).set(bearer(alice.jwt)), 404, 'not-found');
    expectFailure(await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', s.apiKey).send({}), 404, 'not-found');
  });
});

describe('executions list', () => {
  it('lists an instance\'s executions newest first, filtered and paged', async () => {
    const s = await setup(app, alice);
    const a = await createWorkflow(app, alice, s.instanceId, { name: 'a' });
    const b = await createWorkflow(app, alice, s.instanceId, { name: 'b' });
    const ids: string[] = [];
    for (const wf of [a, b, a, a]) {
      const res = await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-API-Key', s.apiKey).send({ payload: { n: ids.length } });
      ids.push(res.body.data.executionId);
      await finished(app, s.instanceId, res.body.data.executionId, s.apiKey);
    }
    const all = await app.http.get(`/api/process-instances/${s.instanceId}/executions`).set(bearer(alice.jwt));
    expect(all.status).toBe(200);
    expect(all.body.data.executions.map((e: any) => e.executionId)).toEqual([...ids].reverse());
    expect(all.body.data.nextCursor).toBeNull();
    expect(Object.keys(all.body.data.executions[0]).sort()).toEqual(
      ['attempts', 'callback', 'createdAt', 'error', 'executionId', 'finishedAt', 'output', 'startedAt', 'status', 'workflowId'].sort(),
    );

    const onlyB = await app.http.get(`/api/process-instances/${s.instanceId}/executions?workflowId=${b.id}&status=success`).set(bearer(alice.jwt));
    expect(onlyB.body.data.executions.map((e: any) => e.executionId)).toEqual([ids[1]]);
    const none = await app.http.get(`/api/process-instances/${s.instanceId}/executions?status=failed`).set(bearer(alice.jwt));
    expect(none.body.data.executions).toEqual([]);

    const first = await app.http.get(`/api/process-instances/${s.instanceId}/executions?limit=3`).set(bearer(alice.jwt));
    expect(first.body.data.executions).toHaveLength(3);
    const second = await app.http.get(`/api/process-instances/${s.instanceId}/executions?limit=3&cursor=${first.body.data.nextCursor}`).set(bearer(alice.jwt));
    expect(second.body.data.executions.map((e: any) => e.executionId)).toEqual([ids[0]]);
    expect(second.body.data.nextCursor).toBeNull();

    expect(expectFailure(await app.http.get(`/api/process-instances/${s.instanceId}/executions?status=done`).set(bearer(alice.jwt)), 400, 'invalid-argument').message).toMatch(/^status/);
    expectFailure(await app.http.get(`/api/process-instances/${s.instanceId}/executions?cursor=bogus`).set(bearer(alice.jwt)), 400, 'invalid-argument');
    expectFailure(await app.http.get(`/api/process-instances/${s.instanceId}/executions?limit=0`).set(bearer(alice.jwt)), 400, 'invalid-argument');
  });
});
