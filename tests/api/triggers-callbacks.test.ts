/**
 * CONTRACT section 17, after a run: signed completion callbacks (verified here with the
 * `standardwebhooks` package, as a receiver would), replay, paging and retention of executions,
 * and the trigger's RateLimit headers; on SQLite and PostgreSQL.
 */
import type http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { bearer, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { startServer, type TestServer } from '../helpers/servers';
import { createWorkflow, finished, setup, type Setup } from '../helpers/triggers';
import { waitFor } from '../helpers/wait';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let app: TestApp;
let alice: TestUser;
let bob: TestUser;
let s: Setup;
let receiver: TestServer;
const received: Received[] = [];
/** Status codes the receiver answers, per path, in turn (then 200). */
const scripts = new Map<string, number[]>();

beforeAll(async () => {
  receiver = await startServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body });
      const script = scripts.get(path) ?? [];
      res.statusCode = path.startsWith('/never') ? 500 : (script.shift() ?? 200);
      res.end('ok');
    });
  });
  app = await startApp({
    TRIGGER_SWEEP_INTERVAL_MS: '0',
    HTTP_ACTION_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${receiver.port}`,
    TRIGGER_CALLBACK_RETRY_BASE_MS: '50',
    TRIGGER_CALLBACK_MAX_ATTEMPTS: '5',
    TRIGGER_CALLBACK_TIMEOUT_MS: '2000',
  });
  alice = await registerUser(app, 'alice');
  bob = await registerUser(app, 'bob');
  s = await setup(app, alice);
}, 180_000);
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

const trigger = (wf: { id: string }, instanceId = s.instanceId) => app.http.post(`/webhook/${instanceId}/${wf.id}`).set('X-API-Key', s.apiKey);
const workflowsUrl = () => `/api/process-instances/${s.instanceId}/workflows`;

async function createWithCallback(path: string, extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const res = await app.http.post(workflowsUrl()).set(bearer(alice.jwt)).send({ name: 'with callback', action: 'echo', callbackUrl: `${receiver.origin}${path}`, ...extra });
  expect(res.status).toBe(201);
  return { id: res.body.data.workflow.id, secret: res.body.data.callbackSecret };
}

/** The status record once its callback is settled (delivered or failed). */
async function settled(executionId: string) {
  try {
    return await waitFor(
      async () => {
        const res = await app.http.get(`/status/${s.instanceId}/${executionId}`).set('X-API-Key', s.apiKey);
        return res.body.data.callback && res.body.data.callback.status !== 'pending' ? res.body.data : null;
      },
      { timeout: 10_000, interval: 50 },
    );
  } catch {
    const row = await app.strapi.db.connection('triggers_executions').where({ document_id: executionId }).first();
    throw new Error(`the callback of ${executionId} did not settle: ${JSON.stringify(row)}; received ${received.length}`);
  }
}

const deliveriesTo = (path: string) => received.filter((r) => r.path === path);

describe('completion callbacks', () => {
  it('shows the callback secret once, and POSTs execution.finished signed with it', async () => {
    const wf = await createWithCallback('/hook-1');
    expect(wf.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await app.http.get(`${workflowsUrl()}/${wf.id}`).set(bearer(alice.jwt));
    expect(read.body.data).toEqual({ workflow: expect.objectContaining({ callbackUrl: `${receiver.origin}/hook-1` }) });
    expect(JSON.stringify(read.body)).not.toContain(wf.secret.slice(6));

    const res = await trigger(wf).send({ payload: { order: 7 } });
    const record = await settled(res.body.data.executionId);
    expect(record.callback).toEqual({ status: 'delivered', attempts: 1, lastError: null });
    const [delivery] = deliveriesTo('/hook-1');
    // The receiver's side: the standardwebhooks package verifies the raw body and headers.
    const payload = new Webhook(wf.secret).verify(delivery.body, delivery.headers as Record<string, string>) as any;
    expect(payload.type).toBe('execution.finished');
    expect(payload.data).toMatchObject({ executionId: res.body.data.executionId, workflowId: wf.id, status: 'success', attempts: 1, output: { order: 7 } });
    expect(delivery.headers['webhook-id']).toBe(res.body.data.executionId);
    expect(delivery.headers['content-type']).toBe('application/json');
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(delivery.body, delivery.headers as Record<string, string>)).toThrow();
  });

  it('retries with backoff until the receiver takes it, under one webhook-id', async () => {
    const wf = await createWithCallback('/flaky');
    scripts.set('/flaky', [503, 500]);
    const res = await trigger(wf).send({ payload: 1 });
    const record = await settled(res.body.data.executionId);
    expect(record.callback).toEqual({ status: 'delivered', attempts: 3, lastError: null });
    const attempts = deliveriesTo('/flaky');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers['webhook-id']))).toEqual(new Set([res.body.data.executionId]));
    for (const attempt of attempts) expect(() => new Webhook(wf.secret).verify(attempt.body, attempt.headers as Record<string, string>)).not.toThrow();
  });

  it('gives up after the configured attempts, recorded as failed, without holding up others', async () => {
    const dead = await createWithCallback('/never');
    const fine = await createWithCallback('/fine');
    const doomed = await trigger(dead).send({ payload: 'x' });
    const other = await trigger(fine).send({ payload: 'y' });
    expect((await settled(other.body.data.executionId)).callback.status).toBe('delivered');
    const record = await settled(doomed.body.data.executionId);
    expect(record.status).toBe('success');
    expect(record.callback).toEqual({ status: 'failed', attempts: 5, lastError: 'The receiver answered HTTP 500.' });
    expect(deliveriesTo('/never')).toHaveLength(5);
    // Nothing more is tried, even by a sweep.
    await app.strapi.plugin('triggers').service('runner').sweep();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(deliveriesTo('/never')).toHaveLength(5);
  });

  it('announces failed executions too', async () => {
    app.strapi.plugin('triggers').service('actions').register('test.refuse', () => {
      throw Object.assign(new Error('no'), { name: 'ActionError', code: 'refused', retryable: false });
    });
    const wf = await createWithCallback('/failed', { action: 'test.refuse' });
    const res = await trigger(wf).send({});
    const record = await settled(res.body.data.executionId);
    expect(record).toMatchObject({ status: 'failed', callback: { status: 'delivered' } });
    const payload = new Webhook(wf.secret).verify(deliveriesTo('/failed')[0].body, deliveriesTo('/failed')[0].headers as Record<string, string>) as any;
    expect(payload.data).toMatchObject({ status: 'failed', error: { code: 'refused' } });
  });

  it('rotates the secret: shown once, the old one stops signing at once', async () => {
    const wf = await createWithCallback('/rotated');
    const rotated = await app.http.post(`${workflowsUrl()}/${wf.id}/rotate-callback-secret`).set(bearer(alice.jwt));
    expect(rotated.status).toBe(200);
    const secret = rotated.body.data.callbackSecret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(wf.secret);
    const res = await trigger(wf).send({});
    await settled(res.body.data.executionId);
    const [delivery] = deliveriesTo('/rotated');
    expect(() => new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(wf.secret).verify(delivery.body, delivery.headers as Record<string, string>)).toThrow();
    // Not someone else's, not one without a callback URL, not an unknown one.
    expectFailure(await app.http.post(`${workflowsUrl()}/${wf.id}/rotate-callback-secret`).set(bearer(bob.jwt)), 404, 'not-found');
    const plain = await createWorkflow(app, alice, s.instanceId);
    expectFailure(await app.http.post(`${workflowsUrl()}/${plain.id}/rotate-callback-secret`).set(bearer(alice.jwt)), 400, 'invalid-argument');
    expectFailure(await app.http.post(`${workflowsUrl()}/nope/rotate-callback-secret`).set(bearer(alice.jwt)), 404, 'not-found');
  });

  it('sets a callback URL later with PATCH (secret shown then), and removes it with null', async () => {
    const plain = await createWorkflow(app, alice, s.instanceId);
    expect(plain).toMatchObject({ callbackUrl: null });
    const set = await app.http.patch(`${workflowsUrl()}/${plain.id}`).set(bearer(alice.jwt)).send({ callbackUrl: `${receiver.origin}/later` });
    expect(set.body.data.workflow.callbackUrl).toBe(`${receiver.origin}/later`);
    expect(set.body.data.callbackSecret).toMatch(/^whsec_/);
    // Changing the URL keeps the secret (not shown again).
    const moved = await app.http.patch(`${workflowsUrl()}/${plain.id}`).set(bearer(alice.jwt)).send({ callbackUrl: `${receiver.origin}/later2` });
    expect(moved.body.data).toEqual({ workflow: expect.objectContaining({ callbackUrl: `${receiver.origin}/later2` }) });
    const removed = await app.http.patch(`${workflowsUrl()}/${plain.id}`).set(bearer(alice.jwt)).send({ callbackUrl: null });
    expect(removed.body.data.workflow.callbackUrl).toBeNull();
    const res = await trigger(plain).send({});
    expect((await finished(app, s.instanceId, res.body.data.executionId, s.apiKey)).callback).toBeNull();
  });

  it('refuses a callback URL that is not http(s) or points at a private address: 400, never fetched', async () => {
    const hits = receiver.hits;
    for (const callbackUrl of ['ftp://example.com/x', 'http://10.0.0.8/hook', 'http://localhost:1/hook', 'http://[::1]/x', 'http://169.254.169.254/latest', 'not a url', `http://user:pw@example.com/`]) {
      const res = await app.http.post(workflowsUrl()).set(bearer(alice.jwt)).send({ name: 'bad', action: 'echo', callbackUrl });
      const error = expectFailure(res, 400, 'invalid-argument');
      expect(error.message).toMatch(/^callbackUrl/);
    }
    const plain = await createWorkflow(app, alice, s.instanceId);
    expectFailure(await app.http.patch(`${workflowsUrl()}/${plain.id}`).set(bearer(alice.jwt)).send({ callbackUrl: 'http://192.168.1.1/' }), 400, 'invalid-argument');
    expect(receiver.hits).toBe(hits);
  });

  it('refuses an empty callback URL alike when creating and when patching (null, or leaving it out, means none)', async () => {
    const created = expectFailure(await app.http.post(workflowsUrl()).set(bearer(alice.jwt)).send({ name: 'empty callback', action: 'echo', callbackUrl: '' }), 400, 'invalid-argument');
    const plain = await createWorkflow(app, alice, s.instanceId);
    const patched = expectFailure(await app.http.patch(`${workflowsUrl()}/${plain.id}`).set(bearer(alice.jwt)).send({ callbackUrl: '' }), 400, 'invalid-argument');
    expect(created.message).toMatch(/^callbackUrl/);
    expect(created.message).toBe(patched.message);
    const listed = await app.http.get(workflowsUrl()).set(bearer(alice.jwt));
    expect(listed.body.data.workflows.map((w: { name: string }) => w.name)).not.toContain('empty callback');
  });
});

describe('replay', () => {
  it('runs the same input again as a new execution', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId);
    const first = await trigger(wf).send({ payload: { again: true } });
    await finished(app, s.instanceId, first.body.data.executionId, s.apiKey);
    const res = await app.http.post(`/api/process-instances/${s.instanceId}/executions/${first.body.data.executionId}/replay`).set(bearer(alice.jwt));
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ replayOf: first.body.data.executionId, status: 'pending' });
    expect(res.body.data.executionId).not.toBe(first.body.data.executionId);
    expect(res.body.data.statusUrl).toMatch(new RegExp(`/status/${s.instanceId}/${res.body.data.executionId}$`));
    expect(await finished(app, s.instanceId, res.body.data.executionId, s.apiKey)).toMatchObject({ status: 'success', workflowId: wf.id, output: { again: true } });
  });

  it('answers 404 for an unknown execution, or one of an instance the caller does not own', async () => {
    expectFailure(await app.http.post(`/api/process-instances/${s.instanceId}/executions/nope/replay`).set(bearer(alice.jwt)), 404, 'not-found');
    const wf = await createWorkflow(app, alice, s.instanceId);
    const first = await trigger(wf).send({});
    expectFailure(await app.http.post(`/api/process-instances/${s.instanceId}/executions/${first.body.data.executionId}/replay`).set(bearer(bob.jwt)), 404, 'not-found');
    // A disabled workflow runs nothing, replayed or triggered; a deleted one neither.
    await app.http.patch(`${workflowsUrl()}/${wf.id}`).set(bearer(alice.jwt)).send({ enabled: false });
    expectFailure(await app.http.post(`/api/process-instances/${s.instanceId}/executions/${first.body.data.executionId}/replay`).set(bearer(alice.jwt)), 404, 'not-found');
    await app.http.delete(`${workflowsUrl()}/${wf.id}`).set(bearer(alice.jwt));
    expectFailure(await app.http.post(`/api/process-instances/${s.instanceId}/executions/${first.body.data.executionId}/replay`).set(bearer(alice.jwt)), 404, 'not-found');
    expect(await app.strapi.db.connection('triggers_executions').where({ workflow_id: wf.id })).toHaveLength(1);
  });
});

describe('executions list', () => {
  it('pages newest first with limit and cursor', async () => {
    const other = await setup(app, alice);
    const wf = await createWorkflow(app, alice, other.instanceId);
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) ids.push((await app.http.post(`/webhook/${other.instanceId}/${wf.id}`).set('X-API-Key', other.apiKey).send({ payload: n })).body.data.executionId);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await app.http.get(`/api/process-instances/${other.instanceId}/executions`).query({ limit: 2, ...(cursor ? { cursor } : {}) }).set(bearer(alice.jwt));
      expect(res.status).toBe(200);
      expect(res.body.data.executions.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.executions.map((e: any) => e.executionId));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('refuses a malformed limit or cursor with 400', async () => {
    const url = `/api/process-instances/${s.instanceId}/executions`;
    for (const query of ['limit=abc', 'limit=1.5', 'limit=0', 'limit=101', 'cursor=bogus', 'cursor=']) {
      expectFailure(await app.http.get(`${url}?${query}`).set(bearer(alice.jwt)), 400, 'invalid-argument');
    }
  });
});

describe('retention', () => {
  it('deletes executions older than TRIGGER_RETENTION_DAYS, their idempotency keys and webhook ids with them', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId);
    const old = await trigger(wf).set('Idempotency-Key', 'kept-for-31-days').send({ payload: 'old' });
    const recent = await trigger(wf).send({ payload: 'recent' });
    await finished(app, s.instanceId, old.body.data.executionId, s.apiKey);
    await finished(app, s.instanceId, recent.body.data.executionId, s.apiKey);
    const knex = app.strapi.db.connection;
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await knex('triggers_executions').where({ document_id: old.body.data.executionId }).update({ created_at: daysAgo(31) });
    await knex('triggers_executions').where({ document_id: recent.body.data.executionId }).update({ created_at: daysAgo(29) });
    await app.strapi.plugin('triggers').service('runner').sweep();
    expect(await knex('triggers_executions').where({ document_id: old.body.data.executionId })).toHaveLength(0);
    expect(await knex('triggers_executions').where({ document_id: recent.body.data.executionId })).toHaveLength(1);
    expectFailure(await app.http.get(`/status/${s.instanceId}/${old.body.data.executionId}`).set('X-API-Key', s.apiKey), 404, 'not-found');
    // The key is free again.
    const reuse = await trigger(wf).set('Idempotency-Key', 'kept-for-31-days').send({ payload: 'new body' });
    expect(reuse.body.data.duplicate).toBe(false);
  });
});

describe('RateLimit headers on the trigger', () => {
  it('tells the policy and what is left on every answer past the credential, and Retry-After on 429', async () => {
    const limited = await setup(app, alice);
    const wf = await createWorkflow(app, alice, limited.instanceId);
    const before = app.strapi.config.get('plugin::triggers.rateLimitPerMinute');
    app.strapi.config.set('plugin::triggers.rateLimitPerMinute', 3);
    try {
      const send = () => app.http.post(`/webhook/${limited.instanceId}/${wf.id}`).set('X-API-Key', limited.apiKey);
      const first = await send().send({});
      expect(first.status).toBe(202);
      expect(first.headers['ratelimit-policy']).toBe('"trigger";q=3;w=60');
      expect(first.headers.ratelimit).toMatch(/^"trigger";r=2;t=([1-9]|[1-5][0-9]|60)$/);
      // A bad body is still counted and told.
      const bad = await send().set('content-type', 'application/json').send('[1]');
      expectFailure(bad, 400, 'invalid-argument');
      expect(bad.headers.ratelimit).toMatch(/^"trigger";r=1;/);
      expect((await send().send({})).headers.ratelimit).toMatch(/^"trigger";r=0;/);
      const refused = await send().send({});
      expectFailure(refused, 429, 'rate-limited');
      expect(refused.headers.ratelimit).toBe(`"trigger";r=0;t=${refused.headers['retry-after']}`);
      expect(refused.headers['ratelimit-policy']).toBe('"trigger";q=3;w=60');
    } finally {
      app.strapi.config.set('plugin::triggers.rateLimitPerMinute', before);
    }
  });
});
