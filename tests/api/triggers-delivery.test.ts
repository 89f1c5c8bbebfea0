/**
 * CONTRACT section 17, the trigger's delivery rules: Idempotency-Key (the IETF httpapi draft's
 * rules), Svix's header names, the RateLimit headers; on SQLite and PostgreSQL.
 */
import { Webhook as SvixWebhook } from 'svix';
import { expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createWorkflow, finished, newSecret, setup, type Setup } from '../helpers/triggers';

let app: TestApp;
let alice: TestUser;
let s: Setup;

/** Runs of the counting action, by execution id. */
const runs = new Map<string, number>();

beforeAll(async () => {
  app = await startApp({ TRIGGER_SWEEP_INTERVAL_MS: '0' });
  alice = await registerUser(app, 'alice');
  s = await setup(app, alice);
  app.strapi.plugin('triggers').service('actions').register('test.count', async (input: unknown, ctx: any) => {
    runs.set(ctx.executionId, (runs.get(ctx.executionId) ?? 0) + 1);
    return input;
  });
}, 180_000);
afterAll(() => app?.close());

const trigger = (wf: { id: string }, instanceId = s.instanceId) => app.http.post(`/webhook/${instanceId}/${wf.id}`).set('content-type', 'application/json');
const rowsOf = (wf: { id: string }) => app.strapi.db.connection('triggers_executions').where({ workflow_id: wf.id });

describe('Idempotency-Key', () => {
  it('answers a repeat with the first execution, and runs nothing again', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
    const body = JSON.stringify({ payload: { order: 42 } });
    const first = await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'order-42').send(body);
    expect(first.status).toBe(202);
    expect(first.body.data.duplicate).toBe(false);
    const done = await finished(app, s.instanceId, first.body.data.executionId, s.apiKey);
    const again = await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'order-42').send(body);
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual({ ...first.body.data, status: done.status, duplicate: true });
    expect(await rowsOf(wf)).toHaveLength(1);
    expect(runs.get(first.body.data.executionId)).toBe(1);
    // The key belongs to the workflow: another workflow may use it.
    const other = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
    expect((await trigger(other).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'order-42').send(body)).body.data.duplicate).toBe(false);
  });

  it('refuses the same key with another body: 422 unprocessable, nothing recorded', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
    await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'k-422').send({ payload: 1 });
    const res = await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'k-422').send({ payload: 2 });
    const error = expectFailure(res, 422, 'unprocessable');
    expect(error.nextAction).toMatch(/new Idempotency-Key/);
    // Byte for byte: the same JSON written differently is another body.
    expectFailure(await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'k-422').send('{ "payload": 1 }'), 422, 'unprocessable');
    expect(await rowsOf(wf)).toHaveLength(1);
  });

  it('creates one execution for concurrent requests with one key', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'burst-key').send({ payload: 'same' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(25).fill(202));
    const ids = new Set(responses.map((r) => r.body.data.executionId));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => !r.body.data.duplicate)).toHaveLength(1);
    await finished(app, s.instanceId, [...ids][0], s.apiKey);
    expect(await rowsOf(wf)).toHaveLength(1);
    expect(runs.get([...ids][0])).toBe(1);
  });

  it('is held by a unique index in the database', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId);
    const a = await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'unique-a').send({});
    const b = await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'unique-b').send({});
    expect([a.status, b.status]).toEqual([202, 202]);
    const knex = app.strapi.db.connection;
    const { idempotency_key: key } = await knex('triggers_executions').where({ document_id: a.body.data.executionId }).first('idempotency_key');
    expect(key).toEqual(expect.any(String));
    let refused: unknown;
    try {
      await knex('triggers_executions').where({ document_id: b.body.data.executionId }).update({ idempotency_key: key });
    } catch (error) {
      refused = error;
    }
    expect(String(refused)).toMatch(/unique|duplicate/i);
  });

  it('never takes the body as its own key: a repeated identical body runs again', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
    const a = await trigger(wf).set('X-API-Key', s.apiKey).send({ payload: 'ping' });
    const b = await trigger(wf).set('X-API-Key', s.apiKey).send({ payload: 'ping' });
    expect(a.body.data.duplicate).toBe(false);
    expect(b.body.data.duplicate).toBe(false);
    expect(a.body.data.executionId).not.toBe(b.body.data.executionId);
  });

  it('refuses an empty, too long or non-ASCII key with 400 in the envelope', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId);
    expectFailure(await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', '').send({}), 400, 'invalid-argument');
    expectFailure(await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'x'.repeat(256)).send({}), 400, 'invalid-argument');
    expect((await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'x'.repeat(255)).send({})).status).toBe(202);
    expect(await rowsOf(wf)).toHaveLength(1);
  });

  it('forgets a key after 24 hours, and the sweep releases it', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId);
    const first = await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'day-old').send({ payload: 1 });
    const knex = app.strapi.db.connection;
    await knex('triggers_executions').where({ document_id: first.body.data.executionId }).update({ created_at: new Date(Date.now() - 25 * 3600 * 1000) });
    // Even with another body: the old key is gone.
    const later = await trigger(wf).set('X-API-Key', s.apiKey).set('Idempotency-Key', 'day-old').send({ payload: 2 });
    expect(later.status).toBe(202);
    expect(later.body.data.duplicate).toBe(false);
    await knex('triggers_executions').where({ document_id: later.body.data.executionId }).update({ created_at: new Date(Date.now() - 25 * 3600 * 1000) });
    await app.strapi.plugin('triggers').service('runner').sweep();
    expect((await knex('triggers_executions').where({ document_id: later.body.data.executionId }).first('idempotency_key')).idempotency_key).toBeNull();
  });

  it('works with any credential, a signature included', async () => {
    const secret = newSecret();
    const wf = await createWorkflow(app, alice, s.instanceId, { signingSecrets: [secret] });
    const body = '{"payload":"signed"}';
    const sign = () => {
      const id = `msg_${Math.random().toString(36).slice(2)}`;
      const now = new Date();
      return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': new SvixWebhook(secret).sign(id, now, body) };
    };
    const first = await trigger(wf).set(sign()).set('Idempotency-Key', 'signed-key').send(body);
    const second = await trigger(wf).set(sign()).set('Idempotency-Key', 'signed-key').send(body);
    expect(first.status).toBe(202);
    expect(second.body.data).toMatchObject({ executionId: first.body.data.executionId, duplicate: true });
  });
});

describe('Svix header names', () => {
  /** svix-* headers for `body`, signed by the svix package. */
  function svixSigned(secret: string, body: string, options: { id?: string; at?: Date } = {}) {
    const id = options.id ?? `msg_${Math.random().toString(36).slice(2)}`;
    const at = options.at ?? new Date();
    return {
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new SvixWebhook(secret).sign(id, at, body),
    };
  }

  it('accepts a delivery signed by the svix package, with its svix-* headers', async () => {
    const secret = newSecret();
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count', signingSecrets: [secret] });
    const body = JSON.stringify({ type: 'user.created', data: { id: 'user_1' } });
    const res = await trigger(wf).set(svixSigned(secret, body)).send(body);
    expect(res.status).toBe(202);
    const done = await finished(app, s.instanceId, res.body.data.executionId, s.apiKey);
    expect(done).toMatchObject({ status: 'success', output: { type: 'user.created', data: { id: 'user_1' } } });
  });

  it('dedupes on svix-id like webhook-id', async () => {
    const secret = newSecret();
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count', signingSecrets: [secret] });
    const body = '{"payload":"once"}';
    const headers = svixSigned(secret, body, { id: 'msg_svix_once' });
    const first = await trigger(wf).set(headers).send(body);
    const again = await trigger(wf).set(headers).send(body);
    expect(again.body.data).toMatchObject({ executionId: first.body.data.executionId, duplicate: true });
  });

  it('refuses a wrong secret, a tampered body or a stale timestamp with 401', async () => {
    const secret = newSecret();
    const wf = await createWorkflow(app, alice, s.instanceId, { signingSecrets: [secret] });
    const body = '{"payload":1}';
    expectFailure(await trigger(wf).set(svixSigned(newSecret(), body)).send(body), 401, 'unauthenticated');
    expectFailure(await trigger(wf).set(svixSigned(secret, body)).send('{"payload":2}'), 401, 'unauthenticated');
    expectFailure(await trigger(wf).set(svixSigned(secret, body, { at: new Date(Date.now() - 6 * 60_000) })).send(body), 401, 'unauthenticated');
    const partial = svixSigned(secret, body) as Record<string, string>;
    delete partial['svix-signature'];
    expectFailure(await trigger(wf).set(partial).send(body), 401, 'unauthenticated');
  });
});
