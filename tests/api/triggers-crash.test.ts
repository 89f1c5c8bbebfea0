/**
 * Exactly once, under a crash (issue 16, CONTRACT 17). Two Strapi processes, separate OS
 * processes (tests/helpers/processes.js), share PostgreSQL and a BullMQ queue in Redis.
 * A burst of 300 triggers goes to both; halfway through, one is killed with SIGKILL, then
 * started again. Every accepted execution must end `success`, none lost; a run the kill cut
 * is run again after its lease (its `attempts` shows it); no execution whose outcome was
 * recorded runs again. Then the same with completion callbacks while the receiver is down.
 *
 * The in-process app of this file only sets things up and reads the database: it works on
 * another queue and never sweeps. Leases are short (TRIGGER_LEASE_MS) so recovery is quick.
 * It runs on PostgreSQL with Redis (CI has both) and says clearly why when it is skipped.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Redis from 'ioredis';
import { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { freePort, killStrapiProcess, redisAvailable, startStrapiProcess, stopStrapiProcess } from '../helpers/processes';
import { bearer, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { setup, type Setup } from '../helpers/triggers';
import { waitFor } from '../helpers/wait';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const onPostgres = /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? '');
const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
const QUEUE = `quire-crash-${tag}`;
const LEASE_MS = 5_000;
/** How long the callback receiver stays down after the burst (issue 16: "for the first minutes"). */
const RECEIVER_DOWN_MS = Number(process.env.CRASH_RECEIVER_DOWN_MS ?? 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Child = Awaited<ReturnType<typeof startStrapiProcess>>;

let app: TestApp;
let alice: TestUser;
let s: Setup;
let receiverPort: number;
const children: Child[] = [];

function childEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    REDIS_URL,
    REDIS_KEY_PREFIX: `quire-crash-${tag}:`,
    TRIGGER_QUEUE: QUEUE,
    TRIGGER_LEASE_MS: String(LEASE_MS),
    TRIGGER_ACTION_TIMEOUT_MS: '2000',
    TRIGGER_SWEEP_INTERVAL_MS: '1000',
    TRIGGER_CONCURRENCY: '8',
    TRIGGER_RATE_LIMIT: '100000',
    TRIGGER_CALLBACK_RETRY_BASE_MS: '1000',
    TRIGGER_CALLBACK_MAX_ATTEMPTS: '12',
    TRIGGER_CALLBACK_TIMEOUT_MS: '2000',
    HTTP_ACTION_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${receiverPort}`,
    LOG_LEVEL: 'error',
  };
}

async function startChild(): Promise<Child> {
  const started = await startStrapiProcess(childEnv(), { testActions: true });
  children.push(started);
  return started;
}

/**
 * Sends `count` triggers, 20 at a time, alternating between the two processes, each with its own
 * Idempotency-Key; a trigger whose process is gone is sent again to the other, with the same key
 * (so one the dead process had accepted is answered by the other as a duplicate, not run twice).
 * `onHalf` runs once half of them are answered.
 */
async function burst(targets: () => [Child, Child], workflowId: string, count: number, label: string, onHalf: () => void) {
  const ids: string[] = new Array(count);
  let next = 0;
  let answered = 0;
  let halfDone = false;
  async function send(n: number) {
    for (let round = 0; ; round += 1) {
      const [a, b] = targets();
      const target = (n + round) % 2 ? b : a;
      try {
        const res = await target.http
          .post(`/webhook/${s.instanceId}/${workflowId}`)
          .set('X-API-Key', s.apiKey)
          .set('Idempotency-Key', `${label}-${n}`)
          .send({ payload: { n } })
          .timeout({ response: 20_000 });
        if (res.status !== 202) throw new Error(`trigger ${n}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body.data.executionId as string;
      } catch (error) {
        if (round >= 5 || (error as Error).message.startsWith('trigger ')) throw error;
        await sleep(50);
      }
    }
  }
  async function lane() {
    while (next < count) {
      const n = next++;
      ids[n] = await send(n);
      answered += 1;
      if (!halfDone && answered >= count / 2) {
        halfDone = true;
        onHalf();
      }
    }
  }
  await Promise.all(Array.from({ length: 20 }, lane));
  return ids;
}

const waitUntil = (what: string, check: () => Promise<boolean>, timeout: number) => waitFor(check, { what, timeout, interval: 250 });

const knex = () => app.strapi.db.connection;

interface Run {
  execution_id: string;
  pid: number;
  attempt: number;
  phase: 'start' | 'done';
}

/** The exactly-once checks on the runs the action recorded; returns the executions the kill cut. */
async function checkRuns(ids: string[], killedPid: number): Promise<string[]> {
  const rows: Run[] = (await knex()('test_slow_runs').whereIn('execution_id', ids).select('*')).map((r: any) => ({ ...r, pid: Number(r.pid), attempt: Number(r.attempt) }));
  const executions = await knex()('triggers_executions').whereIn('document_id', ids).select('document_id', 'status', 'attempts');
  expect(executions).toHaveLength(ids.length);
  expect(executions.filter((e: any) => e.status !== 'success')).toEqual([]);
  const cut: string[] = [];
  const problems: string[] = [];
  for (const execution of executions) {
    const id = execution.document_id;
    const attempts = Number(execution.attempts);
    const starts = rows.filter((r) => r.execution_id === id && r.phase === 'start');
    const dones = rows.filter((r) => r.execution_id === id && r.phase === 'done');
    // One start per attempt: a claim is exclusive.
    if (new Set(starts.map((r) => r.attempt)).size !== starts.length) problems.push(`${id}: two runs of one attempt`);
    // The recorded outcome is that of the last attempt, which ran to its end.
    const last = Math.max(...starts.map((r) => r.attempt));
    if (last !== attempts) problems.push(`${id}: attempts ${attempts}, last run ${last}`);
    if (!dones.some((r) => r.attempt === attempts)) problems.push(`${id}: its recorded attempt did not finish`);
    // Every earlier run was the killed process's, cut (or ended but not recorded) by the kill.
    const earlier = starts.filter((r) => r.attempt < attempts);
    if (earlier.some((r) => r.pid !== killedPid)) problems.push(`${id}: a run by a live process was run again`);
    if (earlier.length) cut.push(id);
  }
  expect(problems).toEqual([]);
  return cut;
}

const ready = (async () => onPostgres && (await redisAvailable(REDIS_URL)))();
let enabled = false;

beforeAll(async () => {
  enabled = await ready;
  if (!enabled) {
    // eslint-disable-next-line no-console
    console.warn(
      `triggers-crash: SKIPPED. It needs PostgreSQL (DATABASE_URL=postgres://...)${onPostgres ? ' (set)' : ' (not set)'} and Redis at ${REDIS_URL}${onPostgres ? ' (not reachable)' : ''}.`,
    );
    return;
  }
  receiverPort = await freePort();
  app = await startApp({
    REDIS_URL,
    TRIGGER_QUEUE: `${QUEUE}-setup`,
    TRIGGER_SWEEP_INTERVAL_MS: '0',
    REDIS_KEY_PREFIX: `quire-crash-${tag}:`,
    HTTP_ACTION_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${receiverPort}`,
  });
  await knex().schema.createTable('test_slow_runs', (t: any) => {
    t.increments('id');
    t.string('execution_id').notNullable();
    t.integer('pid').notNullable();
    t.integer('attempt').notNullable();
    t.string('phase').notNullable();
  });
  // Known here too, so workflows of it can be created; only the two processes run it.
  app.strapi.plugin('triggers').service('actions').register('test.slow', () => {
    throw new Error('test.slow runs in the two Strapi processes, not in the test process');
  });
  alice = await registerUser(app, 'alice');
  s = await setup(app, alice);
  await Promise.all([startChild(), startChild()]);
}, 240_000);

afterAll(async () => {
  await Promise.all(children.map((child) => stopStrapiProcess(child, 10_000)));
  await app?.close();
  if (enabled) {
    for (const name of [QUEUE, `${QUEUE}-callbacks`, `${QUEUE}-setup`, `${QUEUE}-setup-callbacks`]) {
      const queue = new Queue(name, { connection: { url: REDIS_URL } });
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close();
    }
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`quire-crash-${tag}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
}, 60_000);

/** The two live processes (a restarted one replaces the killed one). */
const live = (): [Child, Child] => {
  const alive = children.filter((c) => c.process.exitCode === null && c.process.signalCode === null);
  return [alive[0], alive[1] ?? alive[0]];
};

const maybe = (name: string, fn: () => Promise<void>, timeout: number) =>
  it(name, async () => {
    if (!enabled) return; // skipped, and said why in beforeAll
    await fn();
  }, timeout);

if (!onPostgres) {
  // eslint-disable-next-line no-console
  console.warn('triggers-crash: SKIPPED on SQLite: the crash test needs PostgreSQL (DATABASE_URL=postgres://...) and Redis (CI has both).');
}

(onPostgres ? describe : describe.skip)('exactly once under a crash (PostgreSQL + Redis, two OS processes)', () => {
  maybe(
    'a burst of 300, one process SIGKILLed halfway and restarted: every accepted execution succeeds once',
    async () => {
      const wf = await app.http.post(`/api/process-instances/${s.instanceId}/workflows`).set(bearer(alice.jwt)).send({ name: 'slow', action: 'test.slow' });
      const workflowId = wf.body.data.workflow.id;
      const victim = children[0];
      let killedAt = 0;
      let killed: Promise<unknown> = Promise.resolve();
      const started = Date.now();
      const ids = await burst(live, workflowId, 300, 'crash', () => {
        killedAt = Date.now();
        killed = killStrapiProcess(victim);
      });
      const burstMs = Date.now() - started;
      await killed;
      expect(new Set(ids).size).toBe(300);
      // The Idempotency-Key made every resend after the kill a duplicate, not a second execution.
      expect(Number((await knex()('triggers_executions').where({ workflow_id: workflowId }).count({ n: '*' }))[0].n)).toBe(300);

      const restart = startChild();
      await waitUntil(
        'every execution is finished',
        async () => Number((await knex()('triggers_executions').where({ workflow_id: workflowId, status: 'success' }).count({ n: '*' }))[0].n) === 300,
        120_000,
      );
      const recoveryMs = Date.now() - killedAt;
      await restart;

      const cut = await checkRuns(ids, victim.pid);
      // The kill did cut runs, and they show it in `attempts`.
      expect(cut.length).toBeGreaterThan(0);
      const cutRows = await knex()('triggers_executions').whereIn('document_id', cut).select('attempts');
      expect(cutRows.every((r: any) => Number(r.attempts) >= 2)).toBe(true);
      // eslint-disable-next-line no-console
      console.log(`triggers-crash: burst of 300 answered in ${burstMs} ms; ${cut.length} runs cut by the kill; all 300 finished ${recoveryMs} ms after the kill (lease ${LEASE_MS} ms).`);
    },
    300_000,
  );

  maybe(
    'with callbacks while the receiver is down for the first minute: each delivered at least once, recorded delivered once',
    async () => {
      const secretRes = await app.http
        .post(`/api/process-instances/${s.instanceId}/workflows`)
        .set(bearer(alice.jwt))
        .send({ name: 'slow with callback', action: 'test.slow', callbackUrl: `http://127.0.0.1:${receiverPort}/done` });
      expect(secretRes.status).toBe(201);
      const workflowId = secretRes.body.data.workflow.id;
      const verifier = new Webhook(secretRes.body.data.callbackSecret);
      const [, victim] = live();
      let killed: Promise<unknown> = Promise.resolve();
      const ids = await burst(live, workflowId, 100, 'callback', () => {
        killed = killStrapiProcess(victim);
      });
      await killed;
      const restart = startChild();
      // The receiver comes up only a minute later: the callbacks back off through about six
      // attempts meanwhile (1 s, 2 s, 4 s... each ±20%), the process restart included.
      const downSince = Date.now();
      await sleep(RECEIVER_DOWN_MS);
      const seen = new Map<string, number>();
      let invalid = 0;
      const receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          try {
            const payload = verifier.verify(body, req.headers as Record<string, string>) as any;
            seen.set(payload.data.executionId, (seen.get(payload.data.executionId) ?? 0) + 1);
            res.statusCode = 204;
          } catch {
            invalid += 1;
            res.statusCode = 400;
          }
          res.end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));
      const receiverUpAt = Date.now();
      try {
        await waitUntil(
          'every callback is delivered',
          async () => Number((await knex()('triggers_executions').where({ workflow_id: workflowId, callback_status: 'delivered' }).count({ n: '*' }))[0].n) === 100,
          // The next attempt after a minute down can be two minutes away (64 s ±20% after 63 s).
          180_000,
        );
      } finally {
        await restart;
        await new Promise((resolve) => receiver.close(resolve));
      }
      expect(invalid).toBe(0);
      expect(ids.filter((id) => !seen.has(id))).toEqual([]);
      const rows = await knex()('triggers_executions').whereIn('document_id', ids).select('callback_status', 'callback_attempts', 'callback_last_error');
      expect(rows.filter((r: any) => r.callback_status !== 'delivered' || r.callback_last_error !== null)).toEqual([]);
      // Those that finished while the receiver was down were retried, backing off, until it was back.
      const retried = rows.filter((r: any) => Number(r.callback_attempts) >= 2);
      expect(retried.length).toBeGreaterThan(0);
      const mostAttempts = Math.max(...rows.map((r: any) => Number(r.callback_attempts)));
      expect(mostAttempts).toBeGreaterThanOrEqual(5);
      await checkRuns(ids, victim.pid);
      const extra = [...seen.values()].filter((n) => n > 1).length;
      // eslint-disable-next-line no-console
      console.log(
        `triggers-crash: receiver down ${Math.round((receiverUpAt - downSince) / 1000)} s; 100 callbacks delivered ${Math.round((Date.now() - receiverUpAt) / 1000)} s after it came back, after up to ${mostAttempts} attempts; ${extra} delivered more than once (at least once).`,
      );
    },
    300_000,
  );
});
