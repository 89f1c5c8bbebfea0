/**
 * Skills (CONTRACT 21, issue 24): described, typed workflows; the trigger checks its input
 * against the workflow's inputSchema before anything runs; GET /api/skills; organization keys
 * deploy instances and workflows but do not manage organization keys; the skills service the
 * MCP server calls (list, call).
 */
import { ActionError } from '../../src/plugins/triggers/server/src/domain/action-error';
import { problemsOf, ValidationTooSlow } from '../../dist/src/plugins/triggers/server/src/domain/input-schema';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganization, createOrganizationKey, createWorkflow, setup, type Setup } from '../helpers/triggers';
import { waitFor } from '../helpers/wait';

let app: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app, 'alice');
  bob = await registerUser(app, 'bob');
  const actions = app.strapi.plugin('triggers').service('actions');
  actions.register('test.fail', () => {
    throw new ActionError('upstream-rejected', 'The upstream said no.');
  });
  // Finishes only when the test opens it.
  actions.register('test.gate', (_input: unknown, ctx: any) => new Promise<string>((resolve) => gates.set(ctx.executionId, () => resolve('opened'))));
});
afterAll(() => app?.close());

const gates = new Map<string, () => void>();

const ORDER_SCHEMA = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    amount: { type: 'integer', minimum: 1 },
    items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } }, required: ['sku'] } },
  },
  required: ['email', 'amount'],
  additionalProperties: false,
};

async function executionCount(instanceId: string): Promise<number> {
  const rows = await app.strapi.db.connection('triggers_executions').where({ instance_id: instanceId }).count('* as n');
  return Number(rows[0].n);
}

const workflowsUrl = (s: Setup) => `/api/process-instances/${s.instanceId}/workflows`;

describe('described, typed workflows', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(app, alice);
  });

  it('takes description and inputSchema on create and PATCH, and returns them with the workflow everywhere', async () => {
    const created = await app.http
      .post(workflowsUrl(s))
      .set(bearer(alice.jwt))
      .send({ name: 'Place order', action: 'echo', description: 'Places an order for a customer.', inputSchema: ORDER_SCHEMA });
    expect(created.status).toBe(201);
    const { workflow } = created.body.data;
    expect(workflow).toMatchObject({ description: 'Places an order for a customer.', inputSchema: ORDER_SCHEMA });

    const listed = await app.http.get(workflowsUrl(s)).set(bearer(alice.jwt));
    expect(listed.body.data.workflows.find((w: any) => w.id === workflow.id)).toEqual(workflow);
    const got = await app.http.get(`${workflowsUrl(s)}/${workflow.id}`).set(bearer(alice.jwt));
    expect(got.body.data.workflow).toEqual(workflow);

    const patched = await app.http
      .patch(`${workflowsUrl(s)}/${workflow.id}`)
      .set(bearer(alice.jwt))
      .send({ description: 'Orders things.', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.workflow).toMatchObject({ description: 'Orders things.', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } });

    const cleared = await app.http.patch(`${workflowsUrl(s)}/${workflow.id}`).set(bearer(alice.jwt)).send({ description: null, inputSchema: null });
    expect(cleared.body.data.workflow).toMatchObject({ description: null, inputSchema: null });

    const plain = await createWorkflow(app, alice, s.instanceId, { name: 'plain' });
    expect(plain).toMatchObject({ description: null, inputSchema: null });
  });

  it('refuses a description over 2,000 characters and a schema that is not an object, too large or not valid, naming the problem', async () => {
    const post = (body: Record<string, unknown>) => app.http.post(workflowsUrl(s)).set(bearer(alice.jwt)).send({ name: 'w', action: 'echo', ...body });
    expect(expectFailure(await post({ description: 'x'.repeat(2001) }), 400, 'invalid-argument').message).toBe('description must be at most 2000 characters.');
    expect((await post({ description: 'x'.repeat(2000) })).status).toBe(201);

    expect(expectFailure(await post({ inputSchema: [] }), 400, 'invalid-argument').message).toMatch(/^inputSchema must be a JSON Schema object/);
    expect(expectFailure(await post({ inputSchema: 'string' }), 400, 'invalid-argument').message).toMatch(/^inputSchema must be a JSON Schema object/);
    const big = { type: 'object', description: 'x'.repeat(64 * 1024) };
    expect(expectFailure(await post({ inputSchema: big }), 400, 'invalid-argument').message).toMatch(/^inputSchema is \d+ bytes; at most 65536 \(64 KiB\)\.$/);
    const typo = expectFailure(await post({ inputSchema: { type: 'strng' } }), 400, 'invalid-argument');
    expect(typo.message).toMatch(/^inputSchema is not a valid JSON Schema: \/type must be equal to one of the allowed values\.$/);
    expect(typo.nextAction).toMatch(/JSON Schema \(draft 2020-12\)/);
    expect(expectFailure(await post({ inputSchema: { $ref: 'https://example.com/schema.json' } }), 400, 'invalid-argument').message).toMatch(
      /^inputSchema does not compile: can't resolve reference https:\/\/example.com\/schema.json/,
    );
    expect(expectFailure(await post({ inputSchema: { $ref: '#/$defs/missing' } }), 400, 'invalid-argument').message).toMatch(/^inputSchema does not compile/);
    expect(expectFailure(await post({ inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' } }), 400, 'invalid-argument').message).toMatch(/2020-12/);

    // PATCH checks the same way, and a refused PATCH changes nothing.
    const wf = await createWorkflow(app, alice, s.instanceId, { inputSchema: { type: 'object' } });
    expectFailure(await app.http.patch(`${workflowsUrl(s)}/${wf.id}`).set(bearer(alice.jwt)).send({ inputSchema: { type: 7 } }), 400, 'invalid-argument');
    expect((await app.http.get(`${workflowsUrl(s)}/${wf.id}`).set(bearer(alice.jwt))).body.data.workflow.inputSchema).toEqual({ type: 'object' });
  });

  it('refuses at creation the schemas that would be slow to compile or validate', async () => {
    const post = (inputSchema: unknown) => app.http.post(workflowsUrl(s)).set(bearer(alice.jwt)).send({ name: 'w', action: 'echo', inputSchema });
    const refused = async (schema: unknown, pattern: RegExp) => expect(expectFailure(await post(schema), 400, 'invalid-argument').message).toMatch(pattern);

    await refused({ enum: Array.from({ length: 257 }, (_, i) => i) }, /enum of 257 values at \/enum; at most 256/);
    await refused({ type: 'string', pattern: '^(?=a)b' }, /pattern at \/pattern that is not supported .*without lookaround or backreferences/);
    await refused({ type: 'string', pattern: '(a)\\1' }, /not supported/);
    await refused({ type: 'array', uniqueItems: true }, /uniqueItems at \/uniqueItems without maxItems of at most 1000/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i += 1) deep = { type: 'object', properties: { a: deep } };
    await refused(deep, /nested more than 32 levels deep/);
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 70; i += 1) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    defs.d70 = { type: 'string' };
    await refused({ $defs: defs, $ref: '#/$defs/d0' }, /more than 64 \$ref/);
    const props: Record<string, unknown> = {};
    for (let i = 0; i < 400; i += 1) props[`f${i}`] = { type: 'string', minLength: 1 };
    await refused({ type: 'object', properties: props }, /more than 1000 keywords and values/);
    const patterns: Record<string, unknown> = {};
    for (let i = 0; i < 17; i += 1) patterns[`^p${i}`] = { type: 'integer' };
    await refused({ type: 'object', patternProperties: patterns }, /17 patternProperties .* at most 16/);

    // Within the limits, patterns are fine: RE2 runs them in linear time.
    expect((await post({ type: 'string', pattern: '^(a+)+$', maxLength: 100 })).status).toBe(201);
    expect((await post({ type: 'array', uniqueItems: true, maxItems: 50 })).status).toBe(201);
  });
});

describe('the trigger validates its input against the inputSchema', () => {
  let s: Setup;
  let wf: { id: string; triggerUrl: string };
  beforeAll(async () => {
    s = await setup(app, alice);
    wf = await createWorkflow(app, alice, s.instanceId, { name: 'order', inputSchema: ORDER_SCHEMA });
  });
  const trigger = (body: unknown, workflowId = wf.id) => app.http.post(`/webhook/${s.instanceId}/${workflowId}`).set('X-API-Key', s.apiKey).send(body as object);

  it('runs a matching input', async () => {
    const res = await trigger({ payload: { email: 'a@example.com', amount: 2, items: [{ sku: 'ABC-12' }] } });
    expect(res.status).toBe(202);
  });

  it('refuses a mismatch with 400 naming the JSON path of the first problem, lists at most 10, and records nothing', async () => {
    const before = await executionCount(s.instanceId);
    const one = expectFailure(await trigger({ payload: { email: 'a@example.com', amount: 0 } }), 400, 'invalid-argument');
    expect(one.message).toBe("payload.amount must be >= 1: the payload does not match the workflow's inputSchema.");
    expect(one.nextAction).toContain(`GET /api/process-instances/${s.instanceId}/workflows/${wf.id}`);

    const several = expectFailure(
      await trigger({ payload: { email: 'not-an-email', amount: 'two', items: [{ sku: 'abc' }, {}], extra: true } }),
      400,
      'invalid-argument',
    );
    // The first problem ajv meets (additionalProperties is checked first), then the others.
    expect(several.message).toMatch(/^payload\.extra is not allowed: the payload does not match the workflow's inputSchema \(5 problems: payload\.extra is not allowed; /);
    for (const problem of ['payload.email must match format "email"', 'payload.amount must be integer', 'payload.items[0].sku must match pattern', 'payload.items[1].sku is required', 'payload.extra is not allowed']) {
      expect(several.message).toContain(problem);
    }
    // A bare body is the input: its paths start at body.
    expect(expectFailure(await trigger({ email: 'a@example.com' }), 400, 'invalid-argument').message).toBe(
      "body.amount is required: the body does not match the workflow's inputSchema.",
    );

    // At most 10 problems.
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x${i}`, i]));
    const capped = expectFailure(await trigger({ payload: { email: 'a@example.com', amount: 1, ...many } }), 400, 'invalid-argument');
    expect(capped.message).toContain('(10 problems: ');
    expect(capped.message.split('; ')).toHaveLength(10);

    expect(await executionCount(s.instanceId)).toBe(before);
    // The organization key and signed requests go through the same check.
    const orgKey = await createOrganizationKey(app, alice, s.organizationId);
    const viaOrg = await app.http.post(`/webhook/${s.instanceId}/${wf.id}`).set('X-Process-Manager-Key', orgKey.secret).send({ payload: {} });
    expect(expectFailure(viaOrg, 400, 'invalid-argument').message).toMatch(/^payload\.email is required/);
    expect(await executionCount(s.instanceId)).toBe(before);
  });

  it('compiles each schema once per revision: a PATCH applies at once, without recompiling in between', async () => {
    const w = await createWorkflow(app, alice, s.instanceId, { name: 'revised', inputSchema: { type: 'object', required: ['a'] } });
    const workflows = app.strapi.plugin('triggers').service('workflows');
    const current = async () => workflows.validator(await workflows.findForTrigger(s.instanceId, w.id));

    expect((await trigger({ payload: { a: 1 } }, w.id)).status).toBe(202);
    const first = await current();
    expect(await current()).toBe(first); // the same compiled function: not compiled again
    expect((await trigger({ payload: { a: 1 } }, w.id)).status).toBe(202);
    expect(await current()).toBe(first);

    await app.http.patch(`${workflowsUrl(s)}/${w.id}`).set(bearer(alice.jwt)).send({ inputSchema: { type: 'object', required: ['b'] } });
    expect(expectFailure(await trigger({ payload: { a: 1 } }, w.id), 400, 'invalid-argument').message).toMatch(/^payload\.b is required/);
    const second = await current();
    expect(second).not.toBe(first);
    expect(await current()).toBe(second);

    // A PATCH of something else keeps the compiled schema.
    await app.http.patch(`${workflowsUrl(s)}/${w.id}`).set(bearer(alice.jwt)).send({ name: 'renamed' });
    expect(await current()).toBe(second);

    await app.http.patch(`${workflowsUrl(s)}/${w.id}`).set(bearer(alice.jwt)).send({ inputSchema: null });
    expect((await trigger({ payload: 'anything' }, w.id)).status).toBe(202);
  });

  describe('hostile inputs: the validation keeps the event loop busy < 100 ms', () => {
    /**
     * The trigger's answer, and how long validating that payload against the workflow's stored,
     * compiled schema holds the thread (timed directly: the 1 MiB body's own parsing and
     * storing cost the same with or without a schema, and this shared machine's load shows
     * in any wall-clock stall of the whole request).
     */
    async function hostile(workflowId: string, payload: unknown) {
      const res = await trigger({ payload }, workflowId);
      const workflows = app.strapi.plugin('triggers').service('workflows');
      const validator = await workflows.validator(await workflows.findForTrigger(s.instanceId, workflowId));
      const bytes = Buffer.byteLength(JSON.stringify({ payload }));
      const started = performance.now();
      let outcome: unknown;
      try {
        outcome = problemsOf(validator, payload, 'payload', bytes);
      } catch (error) {
        outcome = error;
      }
      return { res, outcome, busyMs: performance.now() - started };
    }

    it('a pathological pattern on a long string (RE2: linear)', async () => {
      const w = await createWorkflow(app, alice, s.instanceId, { name: 'redos', inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } });
      const { res, outcome, busyMs } = await hostile(w.id, { s: `${'a'.repeat(500_000)}!` });
      expect(expectFailure(res, 400, 'invalid-argument').message).toMatch(/^payload\.s must match pattern/);
      expect(outcome).toEqual([expect.stringMatching(/^payload\.s must match pattern/)]);
      expect(busyMs).toBeLessThan(100);
    });

    it('a pattern applied to a hundred thousand strings (cut off by the time budget)', async () => {
      const w = await createWorkflow(app, alice, s.instanceId, {
        name: 'many strings',
        inputSchema: { type: 'array', items: { type: 'string', pattern: '^[a-z]+\\d*$' } },
      });
      const { res, outcome, busyMs } = await hostile(w.id, Array.from({ length: 100_000 }, () => 'abc1'));
      // Past its time budget, the validation gives up with a 400 that says so.
      expect(expectFailure(res, 400, 'invalid-argument').message).toMatch(/took too long to check against the workflow's inputSchema/);
      expect(outcome).toBeInstanceOf(ValidationTooSlow);
      expect(busyMs).toBeLessThan(100);
    });

    it('an input of 200,000 wrong items (a large input: only the first problem is looked for)', async () => {
      const w = await createWorkflow(app, alice, s.instanceId, { name: 'wrong items', inputSchema: { type: 'array', items: { type: 'string' } } });
      const { res, outcome, busyMs } = await hostile(w.id, Array.from({ length: 200_000 }, () => 1));
      expect(expectFailure(res, 400, 'invalid-argument').message).toBe("payload[0] must be string: the payload does not match the workflow's inputSchema.");
      expect(outcome).toEqual(['payload[0] must be string']);
      expect(busyMs).toBeLessThan(100);
    });

    it('an enum of 256 objects against a hundred thousand items (cut off by the time budget)', async () => {
      const values = Array.from({ length: 256 }, (_, i) => ({ k: i }));
      const w = await createWorkflow(app, alice, s.instanceId, { name: 'enum', inputSchema: { type: 'array', items: { enum: values } } });
      const { res, outcome, busyMs } = await hostile(w.id, Array.from({ length: 100_000 }, () => ({ k: 255 })));
      expect(expectFailure(res, 400, 'invalid-argument').message).toMatch(/took too long to check against the workflow's inputSchema/);
      expect(outcome).toBeInstanceOf(ValidationTooSlow);
      expect(busyMs).toBeLessThan(100);
      // A small input against the same schema is checked as usual.
      expect((await trigger({ payload: [{ k: 255 }, { k: 0 }] }, w.id)).status).toBe(202);
    });

    it('uniqueItems over 1,000 long, nearly equal items', async () => {
      const w = await createWorkflow(app, alice, s.instanceId, { name: 'unique', inputSchema: { type: 'array', uniqueItems: true, maxItems: 1000 } });
      const { res, busyMs } = await hostile(w.id, Array.from({ length: 1000 }, (_, i) => ({ text: 'x'.repeat(900), n: i })));
      expect([202, 400]).toContain(res.status);
      if (res.status === 400) expect(res.body.error.message).toMatch(/took too long/);
      expect(busyMs).toBeLessThan(100);
    });
  });
});

describe('GET /api/skills', () => {
  let orgId: string;
  let billing: Setup;
  let support: Setup;
  let orgKey: string;
  beforeAll(async () => {
    orgId = await createOrganization(app, alice, 'Skills Inc');
    billing = await createInstance(app, alice, orgId, 'Billing');
    support = await createInstance(app, alice, orgId, 'Support Desk');
    orgKey = (await createOrganizationKey(app, alice, orgId)).secret;
  });
  const skills = (headers: Record<string, string>, query = '') => app.http.get(`/api/skills${query}`).set(headers);

  it('lists one skill per enabled workflow of the organization, exactly in the contract\'s shape, with unique stable names', async () => {
    const send = await createWorkflow(app, alice, billing.instanceId, { name: 'Send Invoice', description: 'Sends an invoice.', inputSchema: ORDER_SCHEMA });
    const sendToo = await createWorkflow(app, alice, support.instanceId, { name: 'send invoice!' });
    const sendThird = await createWorkflow(app, alice, support.instanceId, { name: 'Send-Invoice' });
    const off = await createWorkflow(app, alice, billing.instanceId, { name: 'Refund', enabled: false });
    await createWorkflow(app, bob, (await setup(app, bob)).instanceId, { name: 'Not theirs' });

    const res = await skills({ 'X-Process-Manager-Key': orgKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['skills']);
    expect(res.body.data.skills).toEqual([
      {
        name: 'send_invoice',
        title: 'Send Invoice',
        description: 'Sends an invoice.',
        inputSchema: ORDER_SCHEMA,
        processInstanceId: billing.instanceId,
        workflowId: send.id,
        triggerUrl: send.triggerUrl,
      },
      {
        name: 'support_desk_send_invoice',
        title: 'send invoice!',
        description: null,
        inputSchema: null,
        processInstanceId: support.instanceId,
        workflowId: sendToo.id,
        triggerUrl: sendToo.triggerUrl,
      },
      {
        name: 'support_desk_send_invoice_2',
        title: 'Send-Invoice',
        description: null,
        inputSchema: null,
        processInstanceId: support.instanceId,
        workflowId: sendThird.id,
        triggerUrl: sendThird.triggerUrl,
      },
    ]);
    for (const skill of res.body.data.skills) expect(skill.name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect((await skills({ 'X-Process-Manager-Key': orgKey })).body).toEqual(res.body);

    // Enabling a workflow, or adding one, renames no other skill.
    await app.http.patch(`/api/process-instances/${billing.instanceId}/workflows/${off.id}`).set(bearer(alice.jwt)).send({ enabled: true });
    const later = await createWorkflow(app, alice, billing.instanceId, { name: 'Send Invoice' });
    const again = await skills({ 'X-Process-Manager-Key': orgKey });
    const names = Object.fromEntries(again.body.data.skills.map((k: any) => [k.workflowId, k.name]));
    expect(names).toEqual({
      [send.id]: 'send_invoice',
      [sendToo.id]: 'support_desk_send_invoice',
      [sendThird.id]: 'support_desk_send_invoice_2',
      [off.id]: 'refund',
      [later.id]: 'billing_send_invoice',
    });
    // Disabling one takes it off the list.
    await app.http.patch(`/api/process-instances/${billing.instanceId}/workflows/${later.id}`).set(bearer(alice.jwt)).send({ enabled: false });
    expect((await skills({ 'X-Process-Manager-Key': orgKey })).body.data.skills.map((k: any) => k.workflowId)).not.toContain(later.id);
  });

  it('makes names of 64 characters at most from any workflow name', async () => {
    const o = await createOrganization(app, alice, 'Long names');
    const i = await createInstance(app, alice, o, 'An instance with a rather long name indeed, longer than most');
    const key = (await createOrganizationKey(app, alice, o)).secret;
    const long = 'Ünïcödé workflow name that goes on and on and on and on and on, well past sixty-four characters';
    await createWorkflow(app, alice, i.instanceId, { name: long });
    await createWorkflow(app, alice, i.instanceId, { name: long });
    await createWorkflow(app, alice, i.instanceId, { name: '!!!' });
    const names = (await skills({ 'X-Process-Manager-Key': key })).body.data.skills.map((k: any) => k.name);
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(names[0]).toMatch(/^unicode_workflow_name_that_goes_on/);
    expect(names[2]).toBe('workflow');
  });

  it('gives a user the same for an organization they own, and 404 for another\'s', async () => {
    const asKey = await skills({ 'X-Process-Manager-Key': orgKey });
    const asUser = await skills(bearer(alice.jwt), `?organizationId=${orgId}`);
    expect(asUser.status).toBe(200);
    expect(asUser.body).toEqual(asKey.body);
    expect((await skills(bearer(await createKey(app, alice)), `?organizationId=${orgId}`)).body).toEqual(asKey.body);

    const notTheirs = expectFailure(await skills(bearer(bob.jwt), `?organizationId=${orgId}`), 404, 'not-found');
    const missing = expectFailure(await skills(bearer(bob.jwt), '?organizationId=nope'), 404, 'not-found');
    expect(notTheirs.message.replace(orgId, 'ID')).toBe(missing.message.replace('nope', 'ID'));
    expect(expectFailure(await skills(bearer(alice.jwt)), 400, 'invalid-argument').message).toMatch(/organizationId is required/);

    // An organization key sees its own organization only.
    const other = await createOrganization(app, alice, 'Other');
    expect((await skills({ 'X-Process-Manager-Key': orgKey }, `?organizationId=${orgId}`)).status).toBe(200);
    expectFailure(await skills({ 'X-Process-Manager-Key': orgKey }, `?organizationId=${other}`), 404, 'not-found');
    expectFailure(await skills({}), 401, 'unauthenticated');
    expectFailure(await skills({ 'X-Process-Manager-Key': 'cko_nope' }), 401, 'unauthenticated');
    expectFailure(await skills({ 'X-API-Key': billing.apiKey }), 401, 'unauthenticated');
  });
});

describe('organization keys deploy use cases, but do not manage organization keys', () => {
  it('creates, reads and changes instances and workflows of its organization; 404 elsewhere', async () => {
    const orgId = await createOrganization(app, alice, 'Deployer');
    const key = (await createOrganizationKey(app, alice, orgId)).secret;
    const as = { 'X-Process-Manager-Key': key };

    const instance = await app.http.post('/api/process-instances').set(as).send({ organizationId: orgId, name: 'Deployed' });
    expect(instance.status).toBe(201);
    const pid = instance.body.data.instance.id;
    const wf = await app.http.post(`/api/process-instances/${pid}/workflows`).set(as).send({ name: 'Greet', action: 'echo', description: 'Says hello.', inputSchema: { type: 'object', required: ['who'] } });
    expect(wf.status).toBe(201);
    const wid = wf.body.data.workflow.id;
    expect((await app.http.get(`/api/process-instances/${pid}`).set(as)).body.data.instance.name).toBe('Deployed');
    expect((await app.http.get(`/api/process-instances/${pid}/workflows`).set(as)).body.data.workflows.map((w: any) => w.id)).toEqual([wid]);
    const patched = await app.http.patch(`/api/process-instances/${pid}/workflows/${wid}`).set(as).send({ description: 'Says hello to someone.' });
    expect(patched.body.data.workflow.description).toBe('Says hello to someone.');
    expect((await app.http.get('/api/skills').set(as)).body.data.skills.map((k: any) => k.name)).toEqual(['greet']);

    // Another organization's instances (even the same owner's) are not found.
    const elsewhere = await setup(app, alice);
    expectFailure(await app.http.post('/api/process-instances').set(as).send({ organizationId: elsewhere.organizationId, name: 'x' }), 404, 'not-found');
    expectFailure(await app.http.get(`/api/process-instances/${elsewhere.instanceId}`).set(as), 404, 'not-found');
    expectFailure(await app.http.post(`/api/process-instances/${elsewhere.instanceId}/workflows`).set(as).send({ name: 'x', action: 'echo' }), 404, 'not-found');
    const theirWf = await createWorkflow(app, alice, elsewhere.instanceId);
    expectFailure(await app.http.patch(`/api/process-instances/${elsewhere.instanceId}/workflows/${theirWf.id}`).set(as).send({ enabled: false }), 404, 'not-found');
  });

  it('refuses the organization-key routes with 403 permission-denied', async () => {
    const orgId = await createOrganization(app, alice, 'Keys');
    const key = await createOrganizationKey(app, alice, orgId);
    const as = { 'X-Process-Manager-Key': key.secret };
    for (const res of [
      await app.http.post(`/api/organizations/${orgId}/keys`).set(as).send({ name: 'another' }),
      await app.http.get(`/api/organizations/${orgId}/keys`).set(as),
      await app.http.delete(`/api/organizations/${orgId}/keys/${key.id}`).set(as),
    ]) {
      expect(expectFailure(res, 403, 'permission-denied').message).toBe('An organization key cannot manage organization keys.');
    }
    // Nothing changed: the key still works and is the only one.
    expect((await app.http.get(`/api/organizations/${orgId}/keys`).set(bearer(alice.jwt))).body.data.keys.map((k: any) => k.id)).toEqual([key.id]);
    // A user-only route stays 401 for it.
    expectFailure(await app.http.get('/api/organizations').set(as), 401, 'unauthenticated');
  });
});

describe('the skills service (what the MCP server calls)', () => {
  let s: Setup;
  const service = () => app.strapi.plugin('triggers').service('skills');
  beforeAll(async () => {
    s = await setup(app, alice);
  });

  it('lists what GET /api/skills lists', async () => {
    await createWorkflow(app, alice, s.instanceId, { name: 'Echo' });
    const key = (await createOrganizationKey(app, alice, s.organizationId)).secret;
    const http = await app.http.get('/api/skills').set('X-Process-Manager-Key', key);
    expect(await service().list(s.organizationId)).toEqual(http.body.data.skills);
  });

  it('calls a skill: the output, recorded as an execution like any other', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { name: 'Echo back', inputSchema: { type: 'object', required: ['text'] } });
    const result = await service().call(s.organizationId, 'echo_back', { text: 'hi' });
    expect(result).toEqual({ status: 'success', output: { text: 'hi' }, executionId: expect.any(String), workflowId: wf.id, processInstanceId: s.instanceId, duplicate: false });
    const listed = await app.http.get(`/api/process-instances/${s.instanceId}/executions?workflowId=${wf.id}`).set(bearer(alice.jwt));
    expect(listed.body.data.executions.map((e: any) => e.executionId)).toEqual([result.executionId]);

    // The same idempotency key and input: the first execution, nothing runs again.
    const first = await service().call(s.organizationId, 'echo_back', { text: 'once' }, { idempotencyKey: 'k-1' });
    const repeat = await service().call(s.organizationId, 'echo_back', { text: 'once' }, { idempotencyKey: 'k-1' });
    expect(repeat).toMatchObject({ executionId: first.executionId, duplicate: true, status: 'success', output: { text: 'once' } });
    await expect(service().call(s.organizationId, 'echo_back', { text: 'other' }, { idempotencyKey: 'k-1' })).rejects.toMatchObject({ code: 'unprocessable' });
  });

  it('refuses an input the schema refuses (nothing runs), an unknown skill and a disabled one', async () => {
    const wf = await createWorkflow(app, alice, s.instanceId, { name: 'Strict', inputSchema: { type: 'object', required: ['text'] } });
    const before = await executionCount(s.instanceId);
    await expect(service().call(s.organizationId, 'strict', {})).rejects.toMatchObject({
      code: 'invalid-argument',
      message: "input.text is required: the input does not match the workflow's inputSchema.",
    });
    expect(await executionCount(s.instanceId)).toBe(before);
    await expect(service().call(s.organizationId, 'nope', {})).rejects.toMatchObject({ code: 'not-found', message: 'No skill named nope in this organization.' });
    await app.http.patch(`/api/process-instances/${s.instanceId}/workflows/${wf.id}`).set(bearer(alice.jwt)).send({ enabled: false });
    await expect(service().call(s.organizationId, 'strict', { text: 'x' })).rejects.toMatchObject({ code: 'not-found', message: expect.stringMatching(/^The skill strict is disabled/) });
    // Another organization's skill is unknown here.
    await expect(service().call((await setup(app, bob)).organizationId, 'echo_back', { text: 'x' })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('answers with the execution\'s error when it fails, and where to poll while it runs', async () => {
    await createWorkflow(app, alice, s.instanceId, { name: 'Fails', action: 'test.fail' });
    const failed = await service().call(s.organizationId, 'fails', {});
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'upstream-rejected', message: 'The upstream said no.' } });

    const gated = await createWorkflow(app, alice, s.instanceId, { name: 'Slow', action: 'test.gate' });
    const running = await service().call(s.organizationId, 'slow', {}, { waitSeconds: 0 });
    expect(running).toEqual({
      status: expect.stringMatching(/^(pending|running)$/),
      executionId: expect.any(String),
      workflowId: gated.id,
      processInstanceId: s.instanceId,
      duplicate: false,
      statusUrl: expect.stringMatching(new RegExp(`/status/${s.instanceId}/${running.executionId}$`)),
    });
    await waitFor(() => gates.has(running.executionId), { what: 'the execution at its gate', timeout: 5_000, interval: 20 });
    gates.get(running.executionId)!();
    const done = await app.strapi.plugin('triggers').service('runner').waitFor(s.instanceId, running.executionId, 5000);
    expect(done).toMatchObject({ status: 'success', output: 'opened' });
  });
});
