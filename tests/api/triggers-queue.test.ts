/**
 * The Redis path: executions go through a BullMQ queue. With PostgreSQL, a second Strapi
 * process joins the same database and queue, and a burst of triggers sent to both runs each
 * execution exactly once.
 */
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { startStrapiProcess, stopStrapiProcess } from '../helpers/processes';
import { registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createWorkflow, finished, setup, type Setup } from '../helpers/triggers';
import { waitFor } from '../helpers/wait';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const onPostgres = /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? '');
const QUEUE = `quire-test-${process.pid}-${randomBytes(4).toString('hex')}`;

let app: TestApp;
let alice: TestUser;
let s: Setup;
let countWf: { id: string };

beforeAll(async () => {
  app = await startApp({ REDIS_URL, TRIGGER_QUEUE: QUEUE });
  await app.strapi.db.connection.schema.createTable('test_runs', (t: any) => {
    t.increments('id');
    t.string('execution_id').notNullable();
    t.integer('pid').notNullable();
  });
  app.strapi.plugin('triggers').service('actions').register('test.count', async (input: unknown, ctx: any) => {
    await ctx.strapi.db.connection('test_runs').insert({ execution_id: ctx.executionId, pid: process.pid });
    return input;
  });
  alice = await registerUser(app, 'alice');
  s = await setup(app, alice);
  countWf = await createWorkflow(app, alice, s.instanceId, { action: 'test.count' });
});

afterAll(async () => {
  await app?.close();
  const queue = new Queue(QUEUE, { connection: { url: REDIS_URL } });
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
});

async function runsByExecution(): Promise<Map<string, number>> {
  const rows = await app.strapi.db.connection('test_runs').select('execution_id');
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.execution_id, (counts.get(row.execution_id) ?? 0) + 1);
  return counts;
}

async function allFinished(ids: string[]) {
  await waitFor(
    async () => {
      const rows = await app.strapi.db.connection('triggers_executions').whereIn('document_id', ids).whereIn('status', ['success', 'failed']).select('document_id');
      return rows.length === ids.length;
    },
    { what: 'every execution finished', timeout: 60_000, interval: 100 },
  );
}

describe('with REDIS_URL', () => {
  it('runs executions through the BullMQ queue', async () => {
    expect(app.strapi.plugin('triggers').service('runner').mode()).toBe('queue');
    const res = await app.http.post(`/webhook/${s.instanceId}/${countWf.id}`).set('X-API-Key', s.apiKey).send({ payload: { via: 'queue' } });
    expect(res.status).toBe(202);
    expect(await finished(app, s.instanceId, res.body.data.executionId, s.apiKey)).toMatchObject({ status: 'success', attempts: 1, output: { via: 'queue' } });
    expect((await runsByExecution()).get(res.body.data.executionId)).toBe(1);
  });

  it('runs each of a burst exactly once, and a re-dispatched execution not again', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, n) => app.http.post(`/webhook/${s.instanceId}/${countWf.id}`).set('X-API-Key', s.apiKey).send({ payload: n })),
    );
    const ids = responses.map((r) => r.body.data.executionId);
    await allFinished(ids);
    // Dispatching finished executions again (a sweep or a BullMQ stall would) runs nothing.
    const runner = app.strapi.plugin('triggers').service('runner');
    await Promise.all(ids.slice(0, 10).map((id) => runner.dispatch(id, { jobId: `${id}-again` })));
    await Promise.all(ids.slice(0, 10).map((id) => runner.execute(id)));
    const counts = await runsByExecution();
    expect(ids.map((id) => counts.get(id))).toEqual(Array(50).fill(1));
  });
});

const twoProcesses = onPostgres ? describe : describe.skip;
if (!onPostgres) {
  // eslint-disable-next-line no-console
  console.warn('triggers-queue: the two-process test needs PostgreSQL (set DATABASE_URL=postgres://...); skipped on SQLite.');
}

twoProcesses('two Strapi processes sharing PostgreSQL and Redis (PostgreSQL only)', () => {
  let child: Awaited<ReturnType<typeof startStrapiProcess>>;

  beforeAll(async () => {
    child = await startStrapiProcess({ ...process.env, REDIS_URL, TRIGGER_QUEUE: QUEUE }, { testActions: true });
  }, 120_000);

  afterAll(async () => {
    if (child) await stopStrapiProcess(child);
  });

  it('runs a burst of 200 triggers sent to both, each execution exactly once, the work shared', async () => {
    await app.strapi.db.connection('test_runs').del();
    const send = (n: number) =>
      (n % 2 ? child.http : app.http).post(`/webhook/${s.instanceId}/${countWf.id}`).set('X-API-Key', s.apiKey).send({ payload: n });
    const responses = await Promise.all(Array.from({ length: 200 }, (_, n) => send(n)));
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(202));
    const ids = responses.map((r) => r.body.data.executionId);
    expect(new Set(ids).size).toBe(200);
    await allFinished(ids);

    const counts = await runsByExecution();
    expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
    expect(counts.size).toBe(200);
    const executions = await app.strapi.db.connection('triggers_executions').whereIn('document_id', ids).select('status', 'attempts');
    expect(executions.every((row: any) => row.status === 'success' && Number(row.attempts) === 1)).toBe(true);
    // Both processes' workers took part.
    const pids = await app.strapi.db.connection('test_runs').distinct('pid');
    expect(pids.map((row: any) => Number(row.pid)).sort()).toEqual([process.pid, child.pid].sort());
  }, 120_000);
});
