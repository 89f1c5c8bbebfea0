import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Transport from 'winston-transport';
import { ActionError } from '../../src/plugins/triggers/server/src/domain/action-error';
// The app runs the compiled code: errors thrown at it must be its own classes.
const { invalidArgument } = require('../../dist/src/kernel/errors');
import { expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganization, createOrganizationKey, createWorkflow, finished, newSecret, setup, signed, type Setup } from '../helpers/triggers';
import { waitFor } from '../helpers/wait';

let app: TestApp;
let alice: TestUser;
let bob: TestUser;
let s: Setup;
let secret: string;
let signedWf: { id: string };
let plainWf: { id: string };

/** Runs of the test actions, by execution id. */
const runs = new Map<string, number>();
const gates = new Map<string, () => void>();

beforeAll(async () => {
  // Sweeps run only when a test calls them.
  app = await startApp({ TRIGGER_SWEEP_INTERVAL_MS: '0' });
  alice = await registerUser(app, 'alice');
  bob = await registerUser(app, 'bob');
  s = await setup(app, alice);
  secret = newSecret();
  signedWf = await createWorkflow(app, alice, s.instanceId, { name: 'signed', signingSecrets: [newSecret(), secret] });
  plainWf = await createWorkflow(app, alice, s.instanceId, { name: 'plain' });

  const actions = app.strapi.plugin('triggers').service('actions');
  actions.register('test.count', (input: unknown, ctx: any) => {
    runs.set(ctx.executionId, (runs.get(ctx.executionId) ?? 0) + 1);
    return { input, attempt: ctx.attempt };
  });
  actions.register('test.gate', (_input: unknown, ctx: any) => new Promise<string>((resolve) => gates.set(ctx.executionId, () => resolve('opened'))));
  actions.register('test.fail', {
    parseInput(input: any) {
      if (input?.mode === 'refuse') throw invalidArgument('payload.mode: refused at the door.');
      return input;
    },
    run(input: any) {
      if (input?.mode === 'action-error') throw new ActionError('upstream-rejected', 'The upstream said no.');
      throw new Error('SELECT * FROM secret_table failed');
    },
  });
});
afterAll(() => app?.close());

/** The app's HTTP port, for the raw requests supertest cannot make (repeated headers, chunked bodies). */
async function port(): Promise<number> {
  const server = app.strapi.server.httpServer;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

/** A request as written, byte for byte, outside supertest. */
async function raw(path: string, headers: Record<string, string | string[]>, body: Buffer | string): Promise<{ status: number; body: any }> {
  const at = await port();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: at, method: 'POST', path }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
    req.end(body);
  });
}

const trigger = (wf: { id: string }, instanceId = s.instanceId) => app.http.post(`/webhook/${instanceId}/${wf.id}`);

describe('credentials accepted', () => {
  it('takes the instance key in X-API-Key', async () => {
    const res = await trigger(plainWf).set('X-API-Key', s.apiKey).send({ payload: { hello: 'world' } });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body.data).sort()).toEqual(['duplicate', 'executionId', 'status', 'statusUrl']);
    expect(res.body.data).toMatchObject({ status: 'pending', duplicate: false });
    expect(res.body.data.executionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.data.statusUrl).toBe(`${app.strapi.config.get('server.url')}/status/${s.instanceId}/${res.body.data.executionId}`);
    const done = await finished(app, s.instanceId, res.body.data.executionId, s.apiKey);
    expect(done).toMatchObject({ status: 'success', output: { hello: 'world' }, error: null, attempts: 1, workflowId: plainWf.id });
  });

  it('takes the instance key as ?api_key=', async () => {
    const res = await app.http.post(`/webhook/${s.instanceId}/${plainWf.id}?api_key=${encodeURIComponent(s.apiKey)}`).send({ payload: 2 });
    expect(res.status).toBe(202);
    expect((await finished(app, s.instanceId, res.body.data.executionId, s.apiKey)).output).toBe(2);
  });

  it('takes an organization key for any instance of its organization', async () => {
    const key = await createOrganizationKey(app, alice, s.organizationId);
    const other = await createInstance(app, alice, s.organizationId, 'second');
    const wf = await createWorkflow(app, alice, other.instanceId);
    for (const [pid, w] of [[s.instanceId, plainWf], [other.instanceId, wf]] as const) {
      const res = await trigger(w, pid).set('X-Process-Manager-Key', key.secret).send({ payload: pid });
      expect(res.status).toBe(202);
      const status = await app.http.get(`/status/${pid}/${res.body.data.executionId}?wait=10`).set('X-Process-Manager-Key', key.secret);
      expect(status.body.data).toMatchObject({ status: 'success', output: pid });
    }
  });

  it('takes a Standard Webhooks signature made by the standardwebhooks package, with any of the secrets', async () => {
    const body = JSON.stringify({ type: 'invoice.paid', data: { id: 'in_1' } });
    const res = await trigger(signedWf).set(signed(secret, body)).send(body);
    expect(res.status).toBe(202);
    // No `payload` wrapper: the whole body is the input.
    expect((await finished(app, s.instanceId, res.body.data.executionId, s.apiKey)).output).toEqual(JSON.parse(body));
  });

  it('verifies the raw bytes as sent, whitespace and key order included', async () => {
    const body = '{ "payload" :  {"b": 1, "a": [1, 2]} }\n';
    const res = await trigger(signedWf).set(signed(secret, body)).send(body);
    expect(res.status).toBe(202);
    expect((await finished(app, s.instanceId, res.body.data.executionId, s.apiKey)).output).toEqual({ b: 1, a: [1, 2] });
  });
});

describe('misuse refused with 401', () => {
  let other: Setup;
  let otherWf: { id: string };
  let bobs: Setup;
  beforeAll(async () => {
    other = await createInstance(app, alice, await createOrganization(app, alice, 'Other org'));
    otherWf = await createWorkflow(app, alice, other.instanceId);
    bobs = await setup(app, bob);
  });

  const refused = async (req: any, body: unknown = { payload: 1 }) => {
    const res = await req.send(body as any);
    return expectFailure(res, 401, 'unauthenticated');
  };

  it('refuses another instance\'s key, and another organization\'s key', async () => {
    await refused(trigger(plainWf).set('X-API-Key', other.apiKey));
    await refused(trigger(plainWf).set('X-API-Key', bobs.apiKey));
    await refused(app.http.post(`/webhook/${s.instanceId}/${plainWf.id}?api_key=${other.apiKey}`));
    const otherOrgKey = await createOrganizationKey(app, alice, other.organizationId);
    await refused(trigger(plainWf).set('X-Process-Manager-Key', otherOrgKey.secret));
    // The key does work where it belongs.
    expect((await trigger(otherWf, other.instanceId).set('X-Process-Manager-Key', otherOrgKey.secret).send({})).status).toBe(202);
  });

  it('refuses a revoked organization key and a regenerated instance key', async () => {
    const key = await createOrganizationKey(app, alice, s.organizationId);
    expect((await trigger(plainWf).set('X-Process-Manager-Key', key.secret).send({})).status).toBe(202);
    await app.http.delete(`/api/organizations/${s.organizationId}/keys/${key.id}`).set('Authorization', `Bearer ${alice.jwt}`).expect(200);
    await refused(trigger(plainWf).set('X-Process-Manager-Key', key.secret));

    const temp = await createInstance(app, alice, s.organizationId, 'temp');
    const wf = await createWorkflow(app, alice, temp.instanceId);
    await app.http.post(`/api/process-instances/${temp.instanceId}/regenerate-key`).set('Authorization', `Bearer ${alice.jwt}`).expect(200);
    await refused(trigger(wf, temp.instanceId).set('X-API-Key', temp.apiKey));
    await refused(app.http.post(`/webhook/${temp.instanceId}/${wf.id}?api_key=${temp.apiKey}`));
  });

  it('refuses a key in the wrong header', async () => {
    const orgKey = await createOrganizationKey(app, alice, s.organizationId);
    await refused(trigger(plainWf).set('X-Process-Manager-Key', s.apiKey));
    await refused(trigger(plainWf).set('X-API-Key', orgKey.secret));
    await refused(app.http.post(`/webhook/${s.instanceId}/${plainWf.id}?api_key=${orgKey.secret}`));
    await refused(trigger(plainWf).set('Authorization', `Bearer ${s.apiKey}`));
    await refused(trigger(plainWf).set('Authorization', `Bearer ${alice.jwt}`));
  });

  it('answers the same 401 whether or not the ids exist', async () => {
    const bogus = `ck_${'A'.repeat(43)}`;
    const a = await refused(trigger(plainWf).set('X-API-Key', bogus));
    const b = await refused(app.http.post(`/webhook/nope/nope`).set('X-API-Key', bogus));
    const c = await refused(app.http.post(`/webhook/${s.instanceId}/nope`).set('X-API-Key', bogus));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const none = await refused(trigger(plainWf));
    expect(none.message).toBe('No credential was sent.');
    expect(none.nextAction).toMatch(/X-API-Key/);
    expect(await refused(app.http.post('/webhook/nope/nope'))).toEqual(none);
  });

  it('gives 404 with a valid credential for an unknown or disabled workflow', async () => {
    expectFailure(await trigger({ id: 'nope' }).set('X-API-Key', s.apiKey).send({}), 404, 'not-found');
    const orgKey = await createOrganizationKey(app, alice, s.organizationId);
    expectFailure(await trigger({ id: 'nope' }).set('X-Process-Manager-Key', orgKey.secret).send({}), 404, 'not-found');
    const wf = await createWorkflow(app, alice, s.instanceId, { enabled: false, signingSecrets: [secret] });
    expect(expectFailure(await trigger(wf).set('X-API-Key', s.apiKey).send({}), 404, 'not-found').nextAction).toMatch(/enabled/);
    const body = '{}';
    expectFailure(await trigger(wf).set(signed(secret, body)).send(body), 404, 'not-found');
    // An organization key of another organization learns nothing about the instance.
    const foreign = await createOrganizationKey(app, alice, other.organizationId);
    await refused(trigger({ id: 'nope' }).set('X-Process-Manager-Key', foreign.secret));
  });

  it('refuses a signature with a wrong secret, a stale or future timestamp, a tampered or re-serialised body', async () => {
    const body = JSON.stringify({ payload: { amount: 10 } }, null, 2);
    const now = Math.floor(Date.now() / 1000);
    expect((await refused(trigger(signedWf).set(signed(newSecret(), body)), body)).message).toMatch(/No signature/);
    expect((await refused(trigger(signedWf).set(signed(secret, body, { timestamp: now - 330 })), body)).message).toMatch(/past/);
    expect((await refused(trigger(signedWf).set(signed(secret, body, { timestamp: now + 330 })), body)).message).toMatch(/future/);
    await refused(trigger(signedWf).set(signed(secret, body)), body.replace('10', '11'));
    await refused(trigger(signedWf).set(signed(secret, body)), JSON.stringify(JSON.parse(body)));
    // A signature for one workflow does not open another, nor a workflow without secrets.
    await refused(trigger(plainWf).set(signed(secret, body)), body);
    await refused(trigger(otherWf, other.instanceId).set(signed(secret, body)), body);
    // Within the tolerance, both ways.
    expect((await trigger(signedWf).set(signed(secret, body, { timestamp: now - 240 })).send(body)).status).toBe(202);
    expect((await trigger(signedWf).set(signed(secret, body, { timestamp: now + 240 })).send(body)).status).toBe(202);
  });

  it('answers 401, never 500, to missing, repeated or garbage signature headers', async () => {
    const body = '{"payload":1}';
    const good = signed(secret, body);
    const variants: Array<Record<string, string>> = [
      { 'webhook-id': good['webhook-id'], 'webhook-timestamp': good['webhook-timestamp'] },
      { 'webhook-id': good['webhook-id'], 'webhook-signature': good['webhook-signature'] },
      { 'webhook-timestamp': good['webhook-timestamp'], 'webhook-signature': good['webhook-signature'] },
      { ...good, 'webhook-timestamp': 'now' },
      { ...good, 'webhook-timestamp': `${good['webhook-timestamp']}abc` },
      { ...good, 'webhook-timestamp': '99999999999999999999999' },
      { ...good, 'webhook-timestamp': '-5' },
      { ...good, 'webhook-signature': 'garbage' },
      { ...good, 'webhook-signature': 'v1,' },
      { ...good, 'webhook-signature': ',,,, v1,%%%' },
      { ...good, 'webhook-signature': `v1,${'A'.repeat(5000)}` },
      { ...good, 'webhook-signature': good['webhook-signature'].replace('v1,', 'v2,') },
      { ...good, 'webhook-id': '' },
    ];
    for (const headers of variants) await refused(trigger(signedWf).set(headers), body);
    // Node keeps repeated unknown headers as one string joined by ", ".
    const repeated = await raw(`/webhook/${s.instanceId}/${signedWf.id}`, { ...good, 'webhook-id': [good['webhook-id'], good['webhook-id']] }, body);
    expectFailure(repeated, 401, 'unauthenticated');
  });

  it('tries the credentials in order: a failed signature does not hide a valid key', async () => {
    const body = '{"payload":"both"}';
    const res = await trigger(signedWf).set(signed(newSecret(), body)).set('X-API-Key', s.apiKey).send(body);
    expect(res.status).toBe(202);
    // ...and the reason given when all fail is the first credential's.
    const failed = await refused(trigger(signedWf).set(signed(newSecret(), body)).set('X-API-Key', other.apiKey), body);
    expect(failed.message).toMatch(/No signature/);
  });
});

describe('webhook ids', () => {
  it('does not run a replayed delivery again and answers with the first execution', async () => {
    const body = JSON.stringify({ payload: { n: 1 } });
    const headers = signed(secret, body);
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count', signingSecrets: [secret] });
    const first = await trigger(wf).set(headers).send(body);
    expect(first.body.data.duplicate).toBe(false);
    const done = await finished(app, s.instanceId, first.body.data.executionId, s.apiKey);
    const again = await trigger(wf).set(headers).send(body);
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual({ ...first.body.data, duplicate: true, status: done.status });
    const rows = await app.strapi.db.connection('triggers_executions').where({ workflow_id: wf.id });
    expect(rows).toHaveLength(1);
    expect(runs.get(first.body.data.executionId)).toBe(1);
    // Another id with the same body is a new delivery; the same id on another workflow too.
    expect((await trigger(wf).set(signed(secret, body)).send(body)).body.data.duplicate).toBe(false);
    expect((await trigger(signedWf).set(headers).send(body)).body.data.duplicate).toBe(false);
  });

  it('runs one execution for a burst of concurrent deliveries of one id', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count', signingSecrets: [secret] });
    const body = JSON.stringify({ payload: 'burst' });
    const headers = signed(secret, body);
    const responses = await Promise.all(Array.from({ length: 20 }, () => trigger(wf).set(headers).send(body)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(202));
    const ids = new Set(responses.map((r) => r.body.data.executionId));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => !r.body.data.duplicate)).toHaveLength(1);
    const [id] = [...ids];
    await finished(app, s.instanceId, id, s.apiKey);
    expect(await app.strapi.db.connection('triggers_executions').where({ workflow_id: wf.id })).toHaveLength(1);
    expect(runs.get(id)).toBe(1);
  });

  it('forgets an id after 24 hours', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { signingSecrets: [secret] });
    const body = '{"payload":"old"}';
    const id = 'msg_reused_after_a_day';
    const first = await trigger(wf).set(signed(secret, body, { id })).send(body);
    await app.strapi.db.connection('triggers_executions').where({ workflow_id: wf.id }).update({ created_at: new Date(Date.now() - 25 * 3600 * 1000) });
    const later = await trigger(wf).set(signed(secret, body, { id })).send(body);
    expect(later.body.data.duplicate).toBe(false);
    expect(later.body.data.executionId).not.toBe(first.body.data.executionId);
    // The sweep releases ids past the window.
    const knex = app.strapi.db.connection;
    await knex('triggers_executions').where({ document_id: later.body.data.executionId }).update({ created_at: new Date(Date.now() - 25 * 3600 * 1000) });
    await app.strapi.plugin('triggers').service('runner').sweep();
    expect((await knex('triggers_executions').where({ document_id: later.body.data.executionId }).first('dedupe_key')).dedupe_key).toBeNull();
    const third = await trigger(wf).set(signed(secret, body, { id })).send(body);
    expect(third.body.data.duplicate).toBe(false);
  });

  it('treats webhook-id as an idempotency key for key-authenticated triggers too', async () => {
    const first = await trigger(plainWf).set('X-API-Key', s.apiKey).set('webhook-id', 'order-42').send({ payload: 1 });
    const second = await trigger(plainWf).set('X-API-Key', s.apiKey).set('webhook-id', 'order-42').send({ payload: 1 });
    expect(second.body.data).toMatchObject({ executionId: first.body.data.executionId, duplicate: true });
  });
});

describe('body', () => {
  const LIMIT = 1_048_576;
  const bodyOfSize = (size: number) => {
    const head = '{"payload":"';
    return head + 'x'.repeat(size - head.length - 2) + '"}';
  };

  it('accepts exactly 1 MiB and refuses one byte more with 413, before any signature work', async () => {
    const exact = bodyOfSize(LIMIT);
    expect(Buffer.byteLength(exact)).toBe(LIMIT);
    expect((await trigger(signedWf).set(signed(secret, exact)).send(exact)).status).toBe(202);
    const over = bodyOfSize(LIMIT + 1);
    const res = await trigger(signedWf).set(signed(secret, over)).send(over);
    expect(expectFailure(res, 413, 'payload-too-large').message).toMatch(/1 MiB/);
    // Refused on size before credentials: no credential at all also gives 413.
    expectFailure(await trigger(signedWf).set('content-type', 'application/json').send(over), 413, 'payload-too-large');
  });

  it('counts the bytes of a chunked body as they arrive', async () => {
    const at = await port();
    const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: at, method: 'POST', path: `/webhook/${s.instanceId}/${plainWf.id}`, headers: { 'x-api-key': s.apiKey, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (r) => {
        let text = '';
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      req.write('{"payload":"');
      for (let i = 0; i < 17; i += 1) req.write(chunk);
      req.end('"}');
    });
    expectFailure(res, 413, 'payload-too-large');
  });

  it('refuses malformed JSON and non-object bodies with 400, after the credential check', async () => {
    const send = (text: string) => trigger(plainWf).set('X-API-Key', s.apiKey).set('content-type', 'application/json').send(text);
    expect(expectFailure(await send('{"payload": '), 400, 'invalid-argument').message).toMatch(/not valid JSON/);
    expect(expectFailure(await send('[1,2]'), 400, 'invalid-argument').message).toMatch(/JSON object/);
    expect(expectFailure(await send(''), 400, 'invalid-argument').message).toMatch(/not valid JSON/);
    expectFailure(await trigger(plainWf).set('content-type', 'application/json').send('{"payload": '), 401, 'unauthenticated');
    const invalidUtf8 = await raw(`/webhook/${s.instanceId}/${plainWf.id}`, { 'x-api-key': s.apiKey, 'content-type': 'application/json' }, Buffer.from('{"payload":"\xff"}', 'latin1'));
    expect(expectFailure(invalidUtf8, 400, 'invalid-argument').message).toMatch(/UTF-8/);
  });

  it('checks the input of actions that declare it, naming the field', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.fail' });
    const res = await trigger(wf).set('X-API-Key', s.apiKey).send({ payload: { mode: 'refuse' } });
    expect(expectFailure(res, 400, 'invalid-argument').message).toBe('payload.mode: refused at the door.');
    const bare = await trigger(wf).set('X-API-Key', s.apiKey).send({ mode: 'refuse' });
    expect(expectFailure(bare, 400, 'invalid-argument').message).toBe('mode: refused at the door.');
    expect(await app.strapi.db.connection('triggers_executions').where({ workflow_id: wf.id })).toHaveLength(0);
  });
});

describe('rate limit', () => {
  it('answers 429 rate-limited with Retry-After per instance', async () => {
    const limited = await createInstance(app, alice, s.organizationId, 'limited');
    const wf = await createWorkflow(app, alice, limited.instanceId);
    const before = app.strapi.config.get('plugin::triggers.rateLimitPerMinute');
    app.strapi.config.set('plugin::triggers.rateLimitPerMinute', 3);
    try {
      for (let i = 0; i < 3; i += 1) expect((await trigger(wf, limited.instanceId).set('X-API-Key', limited.apiKey).send({})).status).toBe(202);
      const res = await trigger(wf, limited.instanceId).set('X-API-Key', limited.apiKey).send({});
      expectFailure(res, 429, 'rate-limited');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // Other instances keep their own budget.
      expect((await trigger(plainWf).set('X-API-Key', s.apiKey).send({})).status).toBe(202);
    } finally {
      app.strapi.config.set('plugin::triggers.rateLimitPerMinute', before);
    }
  });
});

describe('status', () => {
  it('answers with the instance key (header or query) or an organization key, and 401 otherwise', async () => {
    const res = await trigger(plainWf).set('X-API-Key', s.apiKey).send({ payload: 'st' });
    const id = res.body.data.executionId;
    await finished(app, s.instanceId, id, s.apiKey);
    const orgKey = await createOrganizationKey(app, alice, s.organizationId);
    const viaHeader = await app.http.get(`/status/${s.instanceId}/${id}`).set('X-API-Key', s.apiKey);
    expect(viaHeader.status).toBe(200);
    expect(Object.keys(viaHeader.body.data).sort()).toEqual(['attempts', 'callback', 'createdAt', 'error', 'executionId', 'finishedAt', 'output', 'startedAt', 'status', 'workflowId']);
    const viaQuery = await app.http.get(`/status/${s.instanceId}/${id}?api_key=${s.apiKey}`);
    const viaOrg = await app.http.get(`/status/${s.instanceId}/${id}`).set('X-Process-Manager-Key', orgKey.secret);
    expect(viaQuery.body).toEqual(viaHeader.body);
    expect(viaOrg.body).toEqual(viaHeader.body);

    const other = await setup(app, bob);
    expectFailure(await app.http.get(`/status/${s.instanceId}/${id}`), 401, 'unauthenticated');
    expectFailure(await app.http.get(`/status/${s.instanceId}/${id}`).set('X-API-Key', other.apiKey), 401, 'unauthenticated');
    const bobOrgKey = await createOrganizationKey(app, bob, other.organizationId);
    expectFailure(await app.http.get(`/status/${s.instanceId}/${id}`).set('X-Process-Manager-Key', bobOrgKey.secret), 401, 'unauthenticated');
    // Another instance's execution id through one's own instance: not found.
    expectFailure(await app.http.get(`/status/${other.instanceId}/${id}`).set('X-API-Key', other.apiKey), 404, 'not-found');
    expectFailure(await app.http.get(`/status/${s.instanceId}/nope`).set('X-API-Key', s.apiKey), 404, 'not-found');
  });

  it('holds the answer with ?wait= until the execution finishes', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.gate' });
    const res = await trigger(wf).set('X-API-Key', s.apiKey).send({});
    const id = res.body.data.executionId;
    const waiting = app.http.get(`/status/${s.instanceId}/${id}?wait=30`).set('X-API-Key', s.apiKey).then((r) => r);
    // The long poll is pending while the action waits for its gate; open it once the run started.
    await waitFor(() => gates.has(id), { what: 'the execution at its gate', timeout: 5_000 });
    const running = await app.http.get(`/status/${s.instanceId}/${id}`).set('X-API-Key', s.apiKey);
    expect(running.body.data).toMatchObject({ status: 'running', attempts: 1, finishedAt: null });
    gates.get(id)!();
    const answered = await waiting;
    expect(answered.body.data).toMatchObject({ status: 'success', output: 'opened' });
  });

  it('returns the current state when ?wait= runs out, and refuses a bad wait', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.gate' });
    const id = (await trigger(wf).set('X-API-Key', s.apiKey).send({})).body.data.executionId;
    const res = await app.http.get(`/status/${s.instanceId}/${id}?wait=1`).set('X-API-Key', s.apiKey);
    expect(['pending', 'running']).toContain(res.body.data.status);
    for (const wait of ['31', '-1', 'abc', '1.5']) {
      expect(expectFailure(await app.http.get(`/status/${s.instanceId}/${id}?wait=${wait}`).set('X-API-Key', s.apiKey), 400, 'invalid-argument').message).toMatch(/^wait/);
    }
    await waitFor(() => gates.has(id), { what: 'the execution at its gate', timeout: 5_000 });
    gates.get(id)!();
    await finished(app, s.instanceId, id, s.apiKey);
  });
});

describe('executions', () => {
  it('records action failures: ActionError messages pass, other errors stay private', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.fail' });
    const a = await trigger(wf).set('X-API-Key', s.apiKey).send({ payload: { mode: 'action-error' } });
    expect(await finished(app, s.instanceId, a.body.data.executionId, s.apiKey)).toMatchObject({
      status: 'failed',
      output: null,
      attempts: 1,
      error: { code: 'upstream-rejected', message: 'The upstream said no.' },
    });
    const b = await trigger(wf).set('X-API-Key', s.apiKey).send({ payload: { mode: 'crash' } });
    const crashed = await finished(app, s.instanceId, b.body.data.executionId, s.apiKey);
    expect(crashed.error).toEqual({ code: 'action-failed', message: 'The action failed.' });
    expect(JSON.stringify(crashed)).not.toMatch(/secret_table/);
  });

  it('runs an execution left running by a dead process again once its lease has expired', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
    const res = await trigger(wf).set('X-API-Key', s.apiKey).send({ payload: 'lease' });
    const id = res.body.data.executionId;
    await finished(app, s.instanceId, id, s.apiKey);
    // As a crashed worker leaves it: claimed (attempt 1), never finished.
    const knex = app.strapi.db.connection;
    await knex('triggers_executions').where({ document_id: id }).update({ status: 'running', output: null, finished_at: null, lease_until: new Date(Date.now() + 60_000) });
    const runner = app.strapi.plugin('triggers').service('runner');
    await runner.sweep();
    expect((await app.http.get(`/status/${s.instanceId}/${id}`).set('X-API-Key', s.apiKey)).body.data.status).toBe('running');
    await knex('triggers_executions').where({ document_id: id }).update({ lease_until: new Date(Date.now() - 1000) });
    expect(await runner.sweep()).toBeGreaterThanOrEqual(1);
    const done = await finished(app, s.instanceId, id, s.apiKey);
    expect(done).toMatchObject({ status: 'success', attempts: 2, output: { input: 'lease', attempt: 2 } });
    expect(runs.get(id)).toBe(2);
  });

  it('runs a pending execution whose process died before running it', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
    const id = (await trigger(wf).set('X-API-Key', s.apiKey).send({ payload: 'stranded' })).body.data.executionId;
    await finished(app, s.instanceId, id, s.apiKey);
    const knex = app.strapi.db.connection;
    await knex('triggers_executions').where({ document_id: id }).update({ status: 'pending', attempts: 0, output: null, created_at: new Date(Date.now() - 3600_000) });
    runs.delete(id);
    await app.strapi.plugin('triggers').service('runner').sweep();
    expect(await finished(app, s.instanceId, id, s.apiKey)).toMatchObject({ status: 'success', attempts: 1 });
    expect(runs.get(id)).toBe(1);
  });

  it('claims an execution for one worker only, however often it is dispatched', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
    const id = (await trigger(wf).set('X-API-Key', s.apiKey).send({ payload: 'once' })).body.data.executionId;
    const runner = app.strapi.plugin('triggers').service('runner');
    await Promise.all(Array.from({ length: 10 }, () => runner.execute(id)));
    await finished(app, s.instanceId, id, s.apiKey);
    expect(runs.get(id)).toBe(1);
  });
});

describe('logs', () => {
  it('never writes the api_key value to a log line', async () => {
    const lines: string[] = [];
    class Capture extends Transport {
      log(info: any, done: () => void) {
        lines.push(`${info.level} ${info.message}`.replace(/\x1b\[[0-9;]*m/g, ''));
        done();
      }
    }
    const capture = new Capture({ level: 'silly' });
    const log = app.strapi.log as any;
    const level = log.level;
    log.add(capture);
    log.level = 'http';
    try {
      const res = await app.http.post(`/webhook/${s.instanceId}/${plainWf.id}?api_key=${s.apiKey}&keep=1`).send({ payload: 'log' });
      expect(res.status).toBe(202);
      await app.http.get(`/status/${s.instanceId}/${res.body.data.executionId}?wait=5&api_key=${encodeURIComponent(s.apiKey)}`).expect(200);
      await app.http.post(`/webhook/${s.instanceId}/${plainWf.id}?API_KEY=${s.apiKey}`).send({});
      await app.http.get(`/api/organizations?api_key=${s.apiKey}`);
    } finally {
      log.remove(capture);
      log.level = level;
    }
    const requestLines = lines.filter((line) => line.startsWith('http '));
    expect(requestLines.some((line) => line.includes(`/webhook/${s.instanceId}/${plainWf.id}?keep=1`))).toBe(true);
    expect(requestLines.some((line) => line.includes(`/status/${s.instanceId}/`))).toBe(true);
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    const all = lines.join('\n');
    expect(all).not.toContain(s.apiKey);
    expect(all).not.toContain(s.apiKey.slice(3, 15));
  });
});
