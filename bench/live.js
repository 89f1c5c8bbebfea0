#!/usr/bin/env node
'use strict';
/**
 * The live canvas (issue 22), measured with Node clients of the live document (Y.Doc +
 * HocuspocusProvider over `ws`, as the canvas runs them) against the compiled server run as a
 * child process (tests/helpers/strapi-process.js), so its CPU and memory are read from /proc apart from
 * the clients'. npm run bench runs it last; alone: `BENCH_ONLY=live node bench/run.js`, or
 * `node bench/live.js` (after `npm run compile`).
 *
 * One process (SQLite):
 *   - beside the figures, the floor: GET /_health one at a time (p50 / p99);
 *   - an agent's PATCH -> the change in a connected client (p50 / p99, BENCH_LIVE_N writes);
 *   - the cost of that PATCH on an article open live against the same PATCH on one nobody has
 *     open, alternating (p50 ratio; target within 1.5x);
 *   - a person's keystroke -> another client: client A inserts one character into a paragraph's
 *     Y.XmlText (as y-prosemirror does) and moves its caret in awareness, client B sees it
 *     (BENCH_LIVE_KEYS samples, one at a time);
 *   - BENCH_LIVE_EDITORS (50) editors typing into one article (each in its own section, a character
 *     every 100-300 ms, 5 a second on average, caret in awareness) for BENCH_LIVE_LOAD_SECONDS (30):
 *     the server's CPU (% of one core, mean and busiest second), RSS and heap (MiB) before, at the
 *     peak and after, its event loop's delay, and meanwhile the keystroke -> other editor latency;
 *   - memory per open document against its encoded Yjs state: BENCH_LIVE_DOCS (24) sockets on one
 *     article, then as many each on an article of its own (40 sections), the server's heap and
 *     external memory after a full GC each time: (the second growth - the first) / (docs - 1);
 *   - a store round's time against the article's size: one keystroke into an article of 10 and
 *     one of 200 sections, BENCH_LIVE_STORES (10) rounds, each round's store timed inside the
 *     server (the live state service's store(), wrapped over IPC by tests/helpers/strapi-process.js);
 *   - /_health one request after another while one editor floods the channel with one-character
 *     updates (tests/helpers/live-flood.js, BENCH_LIVE_FLOOD_UPDATES (20,000) each, again and again
 *     for BENCH_LIVE_FLOOD_SECONDS (10); issue 32's target p99 < 100 ms). 0 skips a part.
 * Two processes (PostgreSQL + Redis, skipped with the reason printed when either is not
 * reachable): client A on one process, client B on the other; an agent's PATCH sent to A's
 * process -> the change in B, and A's keystroke -> B. Until live documents are shared through
 * Redis, a keystroke reaches the other process only through the stored write (the canvas
 * stores 1-2 s after typing), so that figure is about the store's debounce, and is labelled so.
 * PostgreSQL: a fresh database next to BENCH_DATABASE_URL / DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards; Redis: BENCH_REDIS_URL /
 * REDIS_URL (default redis://127.0.0.1:6379), under a key prefix of its own;
 * BENCH_LIVE_CROSS=false skips this part.
 *
 * liveBench({ target }) runs it on another build (bench/before.js, BENCH_BEFORE); liveTable prints
 * one side with the targets of issues 31 and 32 beside the figures, liveCompare both sides.
 *
 * Not part of the tests: numbers depend on the machine and on what else runs on it.
 */
const { execSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { serverEnv } = require('../tests/helpers/server-env');
const { request, expectStatus } = require('./http');
const { freePort, postgresDatabase, redisAvailable, sqliteDatabase, startStrapiProcess, stopStrapiProcess } = require('../tests/helpers/processes');

const ROOT = path.join(__dirname, '..');
const N = Number(process.env.BENCH_LIVE_N || 100);
const KEYS = Number(process.env.BENCH_LIVE_KEYS || 200);
const EDITORS = Number(process.env.BENCH_LIVE_EDITORS || 50);
const DOCS = Number(process.env.BENCH_LIVE_DOCS || 24);
const STORE_ROUNDS = Number(process.env.BENCH_LIVE_STORES || 10);
const FLOOD_SECONDS = Number(process.env.BENCH_LIVE_FLOOD_SECONDS || 10);
const FLOOD_UPDATES = Number(process.env.BENCH_LIVE_FLOOD_UPDATES || 20_000);
/** The targets of issues 31 and 32, printed beside the figures. */
const TARGETS = {
  keystrokeP99OneMs: 20,
  keystrokeP99TwoMs: 50,
  agentWriteP99Ms: 50,
  editorsCpuPct: 50,
  memoryPerDocToEncoded: 2,
  healthUnderFloodP99Ms: 100,
};
const LOAD_SECONDS = Number(process.env.BENCH_LIVE_LOAD_SECONDS || 30);
const CROSS_N = Number(process.env.BENCH_LIVE_CROSS_N || 50);
const CROSS_KEYS = Number(process.env.BENCH_LIVE_CROSS_KEYS || 15);
const ADMIN = { email: 'bench-editor@example.test', password: 'Quire-admin-2026', firstname: 'Bench', lastname: 'Editor' };
const TYPED = 'The quick brown fox jumps over the lazy dog, then writes another sentence. ';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (v, digits = 1) => (Number.isFinite(v) ? Number(v.toFixed(digits)) : null);

/** p-th percentile (nearest rank below); with fewer than 100 samples the p99 is the largest. */
const pct = (values, p) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))], 2);
};
const summary = (values, extra = {}) => ({ p50: pct(values, 50), p99: pct(values, 99), n: values.length, ...extra });

let clkTck = 100;
try {
  clkTck = Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
} catch {
  // not Linux: /proc is not read either
}

/**
 * Starts a server with `env` (tests/helpers/processes.js) and waits for it to listen. usage()
 * reads its CPU time and RSS from /proc (the server alone: its worker threads count, the bench's
 * clients do not) and its heap over IPC.
 */
async function startServer(env, label, { profileDir, appDir } = {}) {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = await startStrapiProcess(env, { port: await freePort(), nodeArgs: ['--expose-gc', ...profile], logs: false, label, appDir });
  const hasProc = fs.existsSync(`/proc/${child.pid}/stat`);
  return {
    label,
    pid: child.pid,
    baseUrl: child.origin,
    liveUrl: `ws://127.0.0.1:${child.port}/quire/live`,
    createAdmin: (user) => child.ask({ type: 'admin', user }),
    /** Starts timing the live channel's store rounds (false: this code has no live state service to time). */
    timeStores: () => child.ask({ type: 'time-stores' }).then(() => true, () => false),
    /** The store rounds timed since the last call: [{ ms, articleId, sections }]. */
    storeTimes: () => child.ask({ type: 'store-times' }).then((answer) => answer.times),
    /**
     * CPU seconds so far and RSS (MiB) from /proc; over IPC (unless `heap` is false) the heap
     * (MiB, after a full GC when `gc`) and the event loop's delay since the last such call.
     */
    async usage({ gc = false, heap = true } = {}) {
      const answer = heap ? await child.ask({ type: 'usage', gc }) : null;
      const memory = answer?.memory;
      const out = { heapMiB: memory ? memory.heapUsed / 1048576 : null, externalMiB: memory ? memory.external / 1048576 : null, rssMiB: memory ? memory.rss / 1048576 : null, cpuSec: null, cpuWaitSec: null, eventLoop: answer?.eventLoop ?? null };
      if (hasProc) {
        const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.cpuSec = (Number(fields[11]) + Number(fields[12])) / clkTck;
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        out.rssMiB = Number(/^VmRSS:\s+(\d+)/m.exec(status)[1]) / 1024;
        // The main thread's time spent runnable but waiting for a CPU (a loaded machine's share of the latency).
        const schedstat = `/proc/${child.pid}/schedstat`;
        if (fs.existsSync(schedstat)) out.cpuWaitSec = Number(fs.readFileSync(schedstat, 'utf8').split(' ')[1]) / 1e9;
      }
      return out;
    },
    stop: () => stopStrapiProcess(child),
  };
}

/** An admin (created over IPC, signed in once), a user with an API key, and the helpers to make articles. */
async function setUp(server) {
  await server.createAdmin(ADMIN);
  const token = (await expectStatus(request(server.baseUrl, 'POST', '/admin/login', { body: { email: ADMIN.email, password: ADMIN.password } }), 200, 'admin login')).json().data.token;
  const name = `live${crypto.randomBytes(3).toString('hex')}`;
  const reg = await expectStatus(
    request(server.baseUrl, 'POST', '/api/auth/local/register', { body: { username: name, email: `${name}@example.test`, password: 'a long bench passphrase' } }),
    200,
    'register',
  );
  const key = await expectStatus(request(server.baseUrl, 'POST', '/api/keys', { headers: { authorization: `Bearer ${reg.json().jwt}` }, body: { name: 'Agent' } }), 201, 'key');
  const auth = { authorization: `Bearer ${key.json().data.secret}` };
  const article = async (title, sections = 20) => {
    const markdown = Array.from({ length: sections }, (_, i) => `# Part ${i}\n\n${'Words of the section. '.repeat(40)}`).join('\n\n');
    const res = await expectStatus(request(server.baseUrl, 'POST', '/api/articles', { headers: auth, body: { title, markdown } }), 201, 'create article');
    return res.json().data;
  };
  return { token, auth, article };
}

/** A Node client of the live document, as the canvas: resolves once synced. */
function connect(liveUrl, articleId, token, name) {
  const WebSocket = require('ws');
  const Y = require('yjs');
  const { HocuspocusProvider, HocuspocusProviderWebsocket } = require('@hocuspocus/provider');
  return new Promise((resolve, reject) => {
    const socket = new HocuspocusProviderWebsocket({ url: liveUrl, WebSocketPolyfill: WebSocket });
    const doc = new Y.Doc();
    const destroy = () => {
      provider.destroy();
      socket.destroy();
    };
    const timer = setTimeout(() => {
      destroy();
      reject(new Error(`${name}: not synced in 60 s`));
    }, 60_000);
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name: `article:${articleId}`,
      document: doc,
      token,
      onAuthenticationFailed: ({ reason }) => {
        clearTimeout(timer);
        destroy();
        reject(new Error(`${name}: ${reason}`));
      },
      onSynced: () => {
        clearTimeout(timer);
        resolve({ doc, provider, destroy });
      },
    });
    provider.attach();
    provider.setAwarenessField('user', { name, color: '#3366cc', kind: 'editor', id: 0 });
  });
}

/** The first text node of a section's first paragraph (where a person types). */
function textOf(doc, sectionId) {
  const Y = require('yjs');
  for (const node of doc.getXmlFragment(`section:${sectionId}`).toArray()) {
    if (node instanceof Y.XmlElement && node.nodeName === 'paragraph') {
      const text = node.toArray().find((n) => n instanceof Y.XmlText);
      if (text) return text;
    }
  }
  throw new Error(`section ${sectionId} has no paragraph text`);
}

/** A keystroke as the canvas makes it: one character into the Y.XmlText, then the caret in awareness. */
function type(client, sectionId, offset, char) {
  const Y = require('yjs');
  const text = textOf(client.doc, sectionId);
  const at = Math.min(offset, text.length);
  client.doc.transact(() => text.insert(at, char));
  const caret = Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, at + 1));
  client.provider.setAwarenessField('cursor', { anchor: caret, head: caret });
}

/**
 * Resolves with the time when `predicate` holds on the section in `doc` (checked at each change
 * of it), or null after `timeoutMs`.
 */
function whenSection(doc, sectionId, predicate, timeoutMs) {
  const fragment = doc.getXmlFragment(`section:${sectionId}`);
  return new Promise((resolve) => {
    const done = (value) => {
      clearTimeout(timer);
      fragment.unobserveDeep(check);
      resolve(value);
    };
    const check = () => {
      if (predicate()) done(performance.now());
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    fragment.observeDeep(check);
  });
}

/** Sequential GET /_health: the floor the latencies are read against. */
async function healthFloor(baseUrl, n) {
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await expectStatus(request(baseUrl, 'GET', '/_health'), 204, '/_health');
    times.push(performance.now() - started);
  }
  return summary(times);
}

/** Agent PATCHes to `target`'s section `anchor` (HTTP to `baseUrl`), timed to the change in `observer`. */
async function patchToClient({ baseUrl, auth, articleId, anchor, sectionId, observer, n, timeoutMs, closed }) {
  const arrivals = [];
  const openCost = [];
  const closedCost = [];
  let missed = 0;
  const fragment = observer.doc.getXmlFragment(`section:${sectionId}`);
  for (let i = 0; i < n; i += 1) {
    const marker = `marker${i}x${crypto.randomBytes(2).toString('hex')}`;
    const body = { markdown: `# Part 5\n\nThe agent writes ${marker}. ${'Words of the section. '.repeat(40)}` };
    const arrived = whenSection(observer.doc, sectionId, () => fragment.toString().includes(marker), timeoutMs);
    const started = performance.now();
    await expectStatus(request(baseUrl, 'PATCH', `/api/articles/${articleId}/sections/${anchor}`, { headers: auth, body }), 200, 'PATCH open');
    openCost.push(performance.now() - started);
    const at = await arrived;
    if (at === null) missed += 1;
    else arrivals.push(at - started);
    if (closed) {
      const t = performance.now();
      await expectStatus(request(baseUrl, 'PATCH', `/api/articles/${closed.articleId}/sections/${closed.anchor}`, { headers: auth, body }), 200, 'PATCH closed');
      closedCost.push(performance.now() - t);
    }
  }
  return { arrivals: summary(arrivals, { missed }), openCost: summary(openCost), closedCost: summary(closedCost) };
}

/** Client A types one character at a time; the time until client B's copy of the section has it. */
async function keystrokeToClient({ a, b, sectionId, n, timeoutMs, gapMs }) {
  const times = [];
  let missed = 0;
  let offset = 10;
  for (let i = 0; i < n; i += 1) {
    const target = textOf(a.doc, sectionId).length + 1;
    const arrived = whenSection(b.doc, sectionId, () => textOf(b.doc, sectionId).length >= target, timeoutMs);
    const started = performance.now();
    type(a, sectionId, offset, TYPED[i % TYPED.length]);
    offset += 1;
    const at = await arrived;
    if (at === null) {
      missed += 1;
      // Later samples must not count this one's arrival: wait until B has caught up.
      await whenSection(b.doc, sectionId, () => textOf(b.doc, sectionId).length >= target, timeoutMs);
    } else times.push(at - started);
    await sleep(gapMs);
  }
  return summary(times, { missed });
}

/**
 * EDITORS clients, each typing into its own section of one article (a character every 100-300 ms)
 * for LOAD_SECONDS, while the server's CPU and memory are sampled every second. Client 0 also
 * times every other editor's keystrokes to its copy.
 */
async function typingLoad(server, token, articleId) {
  // Idle CPU, then memory before anyone connects (after a full GC: the heap is what the server holds).
  const idleFrom = await server.usage({ heap: false });
  const idleStart = performance.now();
  await sleep(3000);
  const idleTo = await server.usage({ heap: false });
  const idlePct = ((idleTo.cpuSec - idleFrom.cpuSec) / ((performance.now() - idleStart) / 1000)) * 100;
  const before = await server.usage({ gc: true });

  const clients = [];
  for (let i = 0; i < EDITORS; i += 1) clients.push(await connect(server.liveUrl, articleId, token, `Editor ${i + 1}`));
  const sections = clients[0].doc.getArray('order').toArray();
  if (sections.length < EDITORS) throw new Error(`the article has ${sections.length} sections for ${EDITORS} editors`);
  const connected = await server.usage();

  // Client 0 times the others' keystrokes: the i-th character typed into a section is there
  // when that section's text has grown by i.
  const observer = clients[0];
  const sent = clients.map(() => []);
  const initial = sections.map((id) => textOf(observer.doc, id).length);
  const seen = sections.map(() => 0);
  const arrivals = [];
  const observers = [];
  for (let s = 1; s < EDITORS; s += 1) {
    const fragment = observer.doc.getXmlFragment(`section:${sections[s]}`);
    const check = () => {
      const now = performance.now();
      const grown = textOf(observer.doc, sections[s]).length - initial[s];
      while (seen[s] < grown) {
        const t0 = sent[s][seen[s]];
        seen[s] += 1;
        if (t0 !== undefined) arrivals.push(now - t0);
      }
    };
    fragment.observeDeep(check);
    observers.push(() => fragment.unobserveDeep(check));
  }

  const samples = [];
  let sampling = true;
  const cpuStart = await server.usage();
  const benchCpuStart = process.cpuUsage();
  const started = performance.now();
  const sampler = (async () => {
    let last = { ...cpuStart, at: started };
    while (sampling) {
      await sleep(1000);
      const u = await server.usage();
      const at = performance.now();
      samples.push({
        cpuPct: ((u.cpuSec - last.cpuSec) / ((at - last.at) / 1000)) * 100,
        rssMiB: u.rssMiB,
        heapMiB: u.heapMiB,
        loopP99Ms: u.eventLoop?.p99Ms,
        loopMaxMs: u.eventLoop?.maxMs,
      });
      last = { ...u, at };
    }
  })();
  const stopAt = started + LOAD_SECONDS * 1000;
  let typed = 0;
  await Promise.all(
    clients.map(async (client, i) => {
      let offset = 10;
      await sleep(Math.random() * 200);
      while (performance.now() < stopAt) {
        type(client, sections[i], offset, TYPED[offset % TYPED.length]);
        sent[i].push(performance.now());
        offset += 1;
        typed += 1;
        await sleep(100 + Math.random() * 200);
      }
    }),
  );
  const cpuEnd = await server.usage({ heap: false });
  const elapsed = (performance.now() - started) / 1000;
  const benchCpu = process.cpuUsage(benchCpuStart);
  sampling = false;
  await sampler;
  // Everything typed has reached client 0 (or 10 s passed).
  const expected = sent.slice(1).reduce((n, xs) => n + xs.length, 0);
  const deadline = Date.now() + 10_000;
  while (arrivals.length < expected && Date.now() < deadline) await sleep(50);
  for (const off of observers) off();
  for (const client of clients) client.destroy();
  // The documents store what is left and unload; then a full GC.
  await sleep(5000);
  const after = await server.usage({ gc: true });

  const peak = (key) => Math.max(...samples.map((s) => s[key]).filter(Number.isFinite));
  return {
    editors: EDITORS,
    seconds: round(elapsed),
    keystrokes: typed,
    keystrokesPerSecond: round(typed / elapsed),
    cpu: {
      idlePct: round(idlePct),
      meanPct: round(((cpuEnd.cpuSec - cpuStart.cpuSec) / elapsed) * 100),
      peakSecondPct: round(peak('cpuPct')),
      // Share of the time the server's main thread was ready to run but waited for a CPU.
      mainThreadWaitingPct: cpuStart.cpuWaitSec === null ? null : round(((cpuEnd.cpuWaitSec - cpuStart.cpuWaitSec) / elapsed) * 100),
    },
    rssMiB: { before: round(before.rssMiB), connected: round(connected.rssMiB), peak: round(Math.max(peak('rssMiB'), connected.rssMiB)), after: round(after.rssMiB) },
    heapMiB: { before: round(before.heapMiB), connected: round(connected.heapMiB), peak: round(Math.max(peak('heapMiB'), connected.heapMiB)), after: round(after.heapMiB) },
    // The server's event loop while they typed: how long a ready callback waited (per-second samples).
    eventLoopDelayMs: { worstSecondP99: round(peak('loopP99Ms')), max: round(peak('loopMaxMs')) },
    keystrokeToClient: summary(arrivals, { missed: expected - arrivals.length }),
    benchProcessCpuPct: round(((benchCpu.user + benchCpu.system) / 1e6 / elapsed) * 100),
  };
}

/** The section ids of an article as the live document orders them, with their anchors. */
function sectionsOf(client, created) {
  const order = client.doc.getArray('order').toArray();
  return created.outline.map((s, i) => ({ anchor: s.anchor, id: order[i] }));
}

/** Heap used plus memory outside it (Buffers, ArrayBuffers), after a full GC: what the server holds. */
async function heldMiB(server) {
  const answer = await server.usage({ gc: true });
  return answer.heapMiB + (answer.externalMiB ?? 0);
}

async function settle(ms = 3000) {
  await sleep(ms);
}

/**
 * The floor: what a bare Y.Doc holding `doc`'s state takes in this process (heap and memory
 * outside it, after a full GC, over 20 copies), or null when GC cannot be forced here.
 */
function bareDocBytes(doc) {
  const Y = require('yjs');
  let gc = global.gc;
  if (!gc) {
    try {
      require('node:v8').setFlagsFromString('--expose-gc');
      gc = require('node:vm').runInNewContext('gc');
    } catch {
      return null;
    }
  }
  const update = Y.encodeStateAsUpdate(doc);
  const held = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const before = held();
  const copies = Array.from({ length: 20 }, () => {
    const copy = new Y.Doc();
    Y.applyUpdate(copy, update);
    return copy;
  });
  const after = held();
  copies.forEach((copy) => copy.destroy());
  return (after - before) / 20;
}

/**
 * Memory per open document against its encoded state: DOCS sockets all on one article (what the
 * connections cost), then DOCS sockets each on an article of its own; the difference, over
 * DOCS - 1, is what one more open document costs, beside the size of its encoded Yjs state.
 */
async function memoryPerDocument(server, token, articles) {
  const base = await heldMiB(server);
  let clients = [];
  for (let i = 0; i < articles.length; i += 1) clients.push(await connect(server.liveUrl, articles[0].article.id, token, `Reader ${i + 1}`));
  const oneDoc = await heldMiB(server);
  for (const c of clients) c.destroy();
  clients = [];
  await settle();
  const base2 = await heldMiB(server);
  for (const [i, a] of articles.entries()) clients.push(await connect(server.liveUrl, a.article.id, token, `Reader ${i + 1}`));
  const manyDocs = await heldMiB(server);
  const Y = require('yjs');
  const encoded = clients.map((c) => Y.encodeStateAsUpdate(c.doc).length);
  for (const c of clients) c.destroy();
  await settle();
  const after = await heldMiB(server);
  const n = articles.length;
  const perDocBytes = (((manyDocs - base2) - (oneDoc - base)) * 1048576) / (n - 1);
  const encodedMean = encoded.reduce((x, y) => x + y, 0) / n;
  const bare = bareDocBytes(clients[0].doc);
  return {
    documents: n,
    sectionsEach: articles[0].outline.length,
    encodedStateBytes: Math.round(encodedMean),
    perDocumentBytes: Math.round(perDocBytes),
    ratio: round(perDocBytes / encodedMean, 2),
    bareDocBytes: bare === null ? null : Math.round(bare),
    bareRatio: bare === null ? null : round(bare / Y.encodeStateAsUpdate(clients[0].doc).length, 2),
    heldMiB: { base: round(base), oneDocument: round(oneDoc), base2: round(base2), documents: round(manyDocs), after: round(after) },
  };
}

/**
 * A store round's time against the article's size: a client on an article of 10 sections and one
 * on an article of 200 types one character in one section of each, STORE_ROUNDS times; the
 * server times each store round (the live state service's store(), over IPC). Null when the
 * code has no such service.
 */
async function storeRounds(server, token, small, large) {
  if (!(await server.timeStores())) return null;
  const sides = [small, large];
  const clients = [];
  try {
    for (const a of sides) clients.push(await connect(server.liveUrl, a.article.id, token, `Typist ${a.outline.length}`));
    await server.storeTimes();
    const times = sides.map(() => []);
    const deadline = (ms) => Date.now() + ms;
    for (let round_ = 0; round_ < STORE_ROUNDS; round_ += 1) {
      for (const [i, a] of sides.entries()) {
        const sectionId = clients[i].doc.getArray('order').get(Math.min(5, a.outline.length - 1));
        type(clients[i], sectionId, 10 + round_, TYPED[round_ % TYPED.length]);
      }
      // Stored within 2 s of the keystroke (Hocuspocus' debounce); wait for both rounds.
      const until = deadline(6000);
      const got = sides.map(() => false);
      while (!got.every(Boolean) && Date.now() < until) {
        await sleep(200);
        for (const t of await server.storeTimes()) {
          const i = sides.findIndex((a) => a.article.id === t.articleId);
          if (i >= 0 && t.sections > 0) {
            times[i].push(t.ms);
            got[i] = true;
          }
        }
      }
    }
    const [s, l] = times.map((xs) => summary(xs));
    return { small: { sections: small.outline.length, ...s }, large: { sections: large.outline.length, ...l }, ratio: round(l.p50 / s.p50, 2) };
  } finally {
    for (const c of clients) c.destroy();
  }
}

/**
 * /_health, one request after another, while one editor floods the live channel with
 * one-character updates (tests/helpers/live-flood.js in its own process, FLOOD_UPDATES each,
 * started again when it ends, for FLOOD_SECONDS), another client having the article open.
 */
async function healthUnderFlood(server, token, articleId) {
  const { spawn } = require('node:child_process');
  const watcher = await connect(server.liveUrl, articleId, token, 'Watcher');
  const times = [];
  const floods = [];
  let flooding = true;
  const flooder = (async () => {
    const stopAt = Date.now() + FLOOD_SECONDS * 1000;
    while (Date.now() < stopAt) {
      const child = spawn(process.execPath, [path.join(ROOT, 'tests', 'helpers', 'live-flood.js'), server.liveUrl, articleId, token, String(FLOOD_UPDATES)], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      const killer = setTimeout(() => child.kill('SIGKILL'), Math.max(1000, stopAt - Date.now() + 2000));
      await new Promise((resolve) => child.once('exit', resolve));
      clearTimeout(killer);
      try {
        floods.push(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        floods.push({ refused: null, sent: null });
      }
    }
    flooding = false;
  })();
  try {
    while (flooding) {
      const started = performance.now();
      const res = await request(server.baseUrl, 'GET', '/_health').catch(() => null);
      times.push(performance.now() - started);
      if (!res || res.status !== 204) times.failed = (times.failed ?? 0) + 1;
    }
    await flooder;
  } finally {
    watcher.destroy();
  }
  const refused = floods.map((f) => f.refused).filter(Boolean);
  return {
    seconds: FLOOD_SECONDS,
    floods: floods.length,
    updatesEach: FLOOD_UPDATES,
    refused: refused.length,
    refusal: refused[0] ?? null,
    health: summary(times, { max: round(Math.max(...times), 2), failed: times.failed ?? 0 }),
  };
}

async function oneProcess(log, target) {
  const db = sqliteDatabase('quire-bench-live');
  const env = {
    ...process.env,
    ...serverEnv(),
    NODE_ENV: 'production',
    ...db.env,
    AUTH_RATELIMIT_MAX: '1000000',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  // The live channel signs in admin sessions: the admin API stays on (the panel itself is not served).
  delete env.SERVE_ADMIN_PANEL;
  // Every client is one admin on one address: past the default caps (64 sockets, 32 open
  // documents per admin, each connection counted, the same article too), raise them.
  const most = Math.max(EDITORS, DOCS);
  if (most + 4 > 64) env.QUIRE_LIVE_SOCKETS_PER_ADDRESS = String(most + 8);
  if (most + 2 > 32) env.QUIRE_LIVE_DOCUMENTS_PER_ADMIN = String(most + 8);
  log(`Live canvas${target ? `, ${target.label}` : ''}: starting a server (SQLite, child process)...`);
  // BENCH_LIVE_PROFILE=<dir>: a CPU profile of this server (.cpuprofile, written when it stops).
  const server = await startServer(env, 'live', { profileDir: process.env.BENCH_LIVE_PROFILE, appDir: target?.dir }).catch(async (error) => {
    await db.remove();
    throw error;
  });
  const clients = [];
  try {
    const s = await setUp(server);
    const open = await s.article('Open');
    const closed = await s.article('Closed');
    const load = await s.article('Load', Math.max(20, EDITORS));

    // First, so "before" is the server as booted and seeded.
    log(`Live canvas: ${EDITORS} editors typing into one article for ${LOAD_SECONDS} s...`);
    const loadFigures = await typingLoad(server, s.token, load.article.id);

    const health = await healthFloor(server.baseUrl, 200);
    const a = await connect(server.liveUrl, open.article.id, s.token, 'Client A');
    const b = await connect(server.liveUrl, open.article.id, s.token, 'Client B');
    clients.push(a, b);
    const openSections = sectionsOf(a, open);
    log(`Live canvas: ${N} agent PATCHes -> a connected client, each beside one to an article nobody has open...`);
    const patch = await patchToClient({
      baseUrl: server.baseUrl,
      auth: s.auth,
      articleId: open.article.id,
      anchor: openSections[5].anchor,
      sectionId: openSections[5].id,
      observer: b,
      n: N,
      timeoutMs: 10_000,
      closed: { articleId: closed.article.id, anchor: closed.outline[5].anchor },
    });
    log(`Live canvas: ${KEYS} keystrokes of client A -> client B...`);
    const keystroke = await keystrokeToClient({ a, b, sectionId: openSections[8].id, n: KEYS, timeoutMs: 10_000, gapMs: 20 });
    for (const c of clients.splice(0)) c.destroy();

    let memory = null;
    if (DOCS >= 2) {
      log(`Live canvas: memory of ${DOCS} open documents against their encoded state...`);
      const docs = [];
      for (let i = 0; i < DOCS; i += 1) docs.push(await s.article(`Memory ${i + 1}`, 40));
      memory = await memoryPerDocument(server, s.token, docs);
    }
    let stores = null;
    if (STORE_ROUNDS > 0) {
      log(`Live canvas: ${STORE_ROUNDS} store rounds of one keystroke, articles of 10 and 200 sections...`);
      stores = (await storeRounds(server, s.token, await s.article('Store 10', 10), await s.article('Store 200', 200))) ?? { skipped: 'this code has no live state service to time' };
    }
    let flood = null;
    if (FLOOD_SECONDS > 0) {
      log(`Live canvas: /_health while one editor floods updates for ${FLOOD_SECONDS} s...`);
      flood = await healthUnderFlood(server, s.token, (await s.article('Flooded')).article.id);
    }
    return {
      health,
      agentPatchToClient: patch.arrivals,
      patchOpenLive: patch.openCost,
      patchNotOpen: patch.closedCost,
      openToNotOpenP50: round(patch.openCost.p50 / patch.closedCost.p50, 2),
      keystrokeToClient: keystroke,
      typing: loadFigures,
      memoryPerDocument: memory,
      storeRounds: stores,
      healthUnderFlood: flood,
    };
  } finally {
    for (const c of clients) c.destroy();
    await server.stop();
    await db.remove();
  }
}

/** Whether PostgreSQL and Redis answer; the reason when not. */
async function reachable(pgUrl, redisUrl) {
  const { Client } = require('pg');
  const pg = new Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await pg.connect();
    await pg.query('SELECT 1');
  } catch (error) {
    return `PostgreSQL not reachable at ${pgUrl.replace(/\/\/[^@/]*@/, '//')} (${error.message}); set BENCH_DATABASE_URL`;
  } finally {
    await pg.end().catch(() => undefined);
  }
  if (!(await redisAvailable(redisUrl))) return `Redis not reachable at ${redisUrl}; set BENCH_REDIS_URL`;
  return null;
}

/** Whether the compiled live channel shares documents through Redis (the Hocuspocus extension). */
function documentsShared(root = ROOT) {
  const dir = path.join(root, 'dist', 'src', 'plugins', 'quire', 'server', 'src', 'live');
  try {
    return fs.readdirSync(dir).some((f) => f.endsWith('.js') && fs.readFileSync(path.join(dir, f), 'utf8').includes('@hocuspocus/extension-redis'));
  } catch {
    return false;
  }
}

async function twoProcesses(log, target) {
  const pgBase = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.BENCH_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  if (process.env.BENCH_LIVE_CROSS === 'false') return { skipped: 'BENCH_LIVE_CROSS=false' };
  const reason = await reachable(pgBase, redisUrl);
  if (reason) return { skipped: reason };
  const Redis = require('ioredis');
  const tag = crypto.randomBytes(4).toString('hex');
  const prefix = `quire-bench-live-${tag}:`;
  const queue = `quire-bench-live-${tag}`;
  const db = await postgresDatabase(pgBase, 'quire_bench_live');
  // One environment for both, secrets included: an admin session signed in on one is valid on the other.
  const env = {
    ...process.env,
    ...serverEnv(),
    NODE_ENV: 'production',
    ...db.env,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    // A queue of its own: on a shared Redis these servers must not take anyone's trigger runs.
    TRIGGER_QUEUE: queue,
    AUTH_RATELIMIT_MAX: '1000000',
  };
  delete env.DATABASE_FILENAME;
  delete env.SERVE_ADMIN_PANEL;
  const servers = [];
  const clients = [];
  try {
    log('Live canvas: starting two servers on PostgreSQL + Redis...');
    // One after the other: the first creates the schema.
    servers.push(await startServer(env, 'live process 1', { appDir: target?.dir }));
    servers.push(await startServer(env, 'live process 2', { appDir: target?.dir }));
    const [one, two] = servers;
    const s = await setUp(one);
    const article = await s.article('Across');
    const a = await connect(one.liveUrl, article.article.id, s.token, 'Client A (process 1)');
    const b = await connect(two.liveUrl, article.article.id, s.token, 'Client B (process 2)');
    clients.push(a, b);
    const sections = sectionsOf(a, article);
    log(`Live canvas: ${CROSS_N} agent PATCHes to process 1 -> a client on process 2...`);
    const patch = await patchToClient({
      baseUrl: one.baseUrl,
      auth: s.auth,
      articleId: article.article.id,
      anchor: sections[5].anchor,
      sectionId: sections[5].id,
      observer: b,
      n: CROSS_N,
      timeoutMs: 10_000,
    });
    log(`Live canvas: ${CROSS_KEYS} keystrokes of a client on process 1 -> a client on process 2...`);
    const keystroke = await keystrokeToClient({ a, b, sectionId: sections[8].id, n: CROSS_KEYS, timeoutMs: 10_000, gapMs: 20 });
    const shared = documentsShared(target?.dir);
    return {
      documentsSharedThroughRedis: shared,
      via: shared ? 'live documents shared through Redis' : 'article events through Redis; keystrokes only through the stored write (1-2 s debounce)',
      agentPatchToClient: patch.arrivals,
      keystrokeToClient: keystroke,
    };
  } finally {
    for (const c of clients) c.destroy();
    for (const server of servers) await server.stop();
    await db.remove().catch((error) => log(`Live canvas: could not drop ${db.name}: ${error.message}`));
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      const keys = [];
      for (const match of [`${prefix}*`, `bull:${queue}*`]) {
        for await (const batch of redis.scanStream({ match, count: 500 })) keys.push(...batch);
      }
      for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    } catch {
      // nothing to clean
    } finally {
      redis.disconnect();
    }
  }
}

/** Every figure of the live canvas; `log` prints progress. */
async function liveBench({ log = console.log, target } = {}) {
  const started = Date.now();
  const one = await oneProcess(log, target);
  let two;
  try {
    two = await twoProcesses(log, target);
  } catch (error) {
    two = { skipped: `failed: ${error.message.split('\n')[0]}` };
  }
  return { label: target?.label, oneProcess: one, twoProcesses: two, seconds: Math.round((Date.now() - started) / 1000) };
}

const fmtMs = (v) => (v === null || v === undefined ? 'n/a' : `${v.toFixed(1)} ms`);
const lat = (x) => (x ? `p50 ${fmtMs(x.p50)}, p99 ${fmtMs(x.p99)} (${x.n} samples${x.missed ? `, ${x.missed} not arrived in 10 s` : ''})` : 'n/a');
/** "met" / "not met" against a ceiling, or '' when there is no figure. */
const verdict = (value, ceiling) => (value === null || value === undefined ? '' : value <= ceiling ? ' met' : ' NOT met');

/** The figures as printed lines, the targets of issues 31 and 32 beside them. */
function liveTable(live) {
  const o = live.oneProcess;
  const t = o.typing;
  const m = o.memoryPerDocument;
  const st = o.storeRounds;
  const f = o.healthUnderFlood;
  const lines = [
    `Live canvas (issues 22, 31, 32)${live.label ? `, ${live.label}` : ''}`,
    `  GET /_health one at a time (the floor):            ${lat(o.health)}`,
    '  One process:',
    `    agent PATCH -> change in a connected client:     ${lat(o.agentPatchToClient)}   [target p99 <= ${TARGETS.agentWriteP99Ms} ms:${verdict(o.agentPatchToClient.p99, TARGETS.agentWriteP99Ms)}]`,
    `    keystroke -> another client:                     ${lat(o.keystrokeToClient)}   [target p99 <= ${TARGETS.keystrokeP99OneMs} ms:${verdict(o.keystrokeToClient.p99, TARGETS.keystrokeP99OneMs)}]`,
    `    PATCH, article open live:                        ${lat(o.patchOpenLive)}`,
    `    PATCH, article not open:                         ${lat(o.patchNotOpen)}`,
    `    open / not open (p50):                           ${o.openToNotOpenP50}x (target within 1.5x)`,
    `  ${t.editors} editors typing into one article (own sections), ${t.seconds} s, ${t.keystrokes} keystrokes (${t.keystrokesPerSecond}/s):`,
    `    server CPU, % of one core:                       idle ${t.cpu.idlePct}%, mean ${t.cpu.meanPct}%, busiest second ${t.cpu.peakSecondPct}%` +
      (t.cpu.mainThreadWaitingPct === null ? '' : `; its main thread waited for a CPU ${t.cpu.mainThreadWaitingPct}% of the time`) +
      `   [target mean < ${TARGETS.editorsCpuPct}% (half a core) with 50 editors:${t.editors >= 50 ? verdict(t.cpu.meanPct, TARGETS.editorsCpuPct) : ` n/a with ${t.editors}`}]`,
    `    server RSS, MiB:                                 before ${t.rssMiB.before}, connected ${t.rssMiB.connected}, peak ${t.rssMiB.peak}, after ${t.rssMiB.after}`,
    `    server heap used, MiB (before/after after a GC): before ${t.heapMiB.before}, connected ${t.heapMiB.connected}, peak ${t.heapMiB.peak}, after ${t.heapMiB.after}`,
    `    keystroke -> another editor, under that load:    ${lat(t.keystrokeToClient)}`,
    `    server event loop delay meanwhile:               worst second's p99 ${fmtMs(t.eventLoopDelayMs.worstSecondP99)}, longest ${fmtMs(t.eventLoopDelayMs.max)}`,
    `    (the ${t.editors} clients' own process used ${t.benchProcessCpuPct}% of one core)`,
  ];
  if (m) {
    lines.push(
      `  memory per open document (${m.documents} of ${m.sectionsEach} sections): ${(m.perDocumentBytes / 1024).toFixed(0)} KiB held against ${(m.encodedStateBytes / 1024).toFixed(0)} KiB encoded state: ${m.ratio}x   [target <= ${TARGETS.memoryPerDocToEncoded}x:${verdict(m.ratio, TARGETS.memoryPerDocToEncoded)}]`,
    );
    if (m.bareRatio) lines.push(`    the floor, a bare Y.Doc of the same state (in the bench's process): ${(m.bareDocBytes / 1024).toFixed(0)} KiB, ${m.bareRatio}x its encoded state`);
  }
  if (st?.skipped) lines.push(`  store round of one keystroke: n/a (${st.skipped})`);
  else if (st) {
    lines.push(`  store round of one keystroke, ${st.small.sections} sections:          ${lat(st.small)}`);
    lines.push(`  store round of one keystroke, ${st.large.sections} sections:         ${lat(st.large)}; ${st.ratio}x the ${st.small.sections}-section one (it should grow with the change, not the article: near 1x)`);
  }
  if (f) {
    lines.push(
      `  GET /_health while one editor floods (${f.floods} floods of ${f.updatesEach} one-character updates in ${f.seconds} s, ${f.refused} refused${f.refusal ? `: "${String(f.refusal).slice(0, 80)}"` : ''}):`,
    );
    lines.push(`                                                     ${lat(f.health)}, longest ${fmtMs(f.health.max)}${f.health.failed ? `, ${f.health.failed} failed` : ''}   [target p99 < ${TARGETS.healthUnderFloodP99Ms} ms:${verdict(f.health.p99, TARGETS.healthUnderFloodP99Ms - 0.001)}]`);
  }
  const x = live.twoProcesses;
  if (x.skipped) lines.push(`  Two processes: skipped: ${x.skipped}`);
  else {
    lines.push(`  Two processes (PostgreSQL + Redis; ${x.via}):`);
    lines.push(`    agent PATCH to process 1 -> client on process 2: ${lat(x.agentPatchToClient)}   [target p99 <= ${TARGETS.agentWriteP99Ms} ms:${verdict(x.agentPatchToClient.p99, TARGETS.agentWriteP99Ms)}]`);
    lines.push(
      `    keystroke on process 1 -> client on process 2:   ${lat(x.keystrokeToClient)}${x.documentsSharedThroughRedis ? '' : '  <- via the store, until documents are shared through Redis'}   [target p99 <= ${TARGETS.keystrokeP99TwoMs} ms:${verdict(x.keystrokeToClient.p99, TARGETS.keystrokeP99TwoMs)}]`,
    );
  }
  lines.push(`  (${live.seconds} s)`);
  return lines.join('\n');
}

/** The headline figures of the after and before code side by side (BENCH_BEFORE), with the targets. */
function liveCompare(after, before) {
  const pick = (live) => {
    if (!live || live.error) return {};
    const o = live.oneProcess;
    const x = live.twoProcesses ?? {};
    return {
      health: o.health?.p99,
      agent1: o.agentPatchToClient?.p99,
      agent1p50: o.agentPatchToClient?.p50,
      agent2p50: x.agentPatchToClient?.p50,
      floor: o.memoryPerDocument?.bareRatio,
      key1: o.keystrokeToClient?.p99,
      agent2: x.agentPatchToClient?.p99,
      key2: x.keystrokeToClient?.p99,
      cpu: o.typing?.cpu?.meanPct,
      loop: o.typing?.eventLoopDelayMs?.worstSecondP99,
      heap: o.typing?.heapMiB?.peak,
      mem: o.memoryPerDocument?.ratio,
      store10: o.storeRounds?.small?.p50,
      store200: o.storeRounds?.large?.p50,
      flood: o.healthUnderFlood?.health?.p99,
    };
  };
  const a = pick(after);
  const b = pick(before);
  const n = (v, unit = '') => (v === null || v === undefined ? 'n/a' : `${Number(v).toFixed(1)}${unit}`);
  const editors = after.oneProcess?.typing?.editors;
  const rows = [
    ['figure', after.label ?? 'after', before?.label ?? 'before', 'target'],
    ['/_health one at a time, p99', n(a.health, ' ms'), n(b.health, ' ms'), ''],
    ['agent PATCH -> client, one process, p99', n(a.agent1, ' ms'), n(b.agent1, ' ms'), `<= ${TARGETS.agentWriteP99Ms} ms`],
    ['agent PATCH -> client, one process, p50', n(a.agent1p50, ' ms'), n(b.agent1p50, ' ms'), ''],
    ['keystroke -> client, one process, p99', n(a.key1, ' ms'), n(b.key1, ' ms'), `<= ${TARGETS.keystrokeP99OneMs} ms`],
    ['agent PATCH -> client, two processes, p99', n(a.agent2, ' ms'), n(b.agent2, ' ms'), `<= ${TARGETS.agentWriteP99Ms} ms`],
    ['agent PATCH -> client, two processes, p50', n(a.agent2p50, ' ms'), n(b.agent2p50, ' ms'), ''],
    ['keystroke -> client, two processes, p99', n(a.key2, ' ms'), n(b.key2, ' ms'), `<= ${TARGETS.keystrokeP99TwoMs} ms`],
    [`${editors} editors: server CPU, mean % of a core`, n(a.cpu, '%'), n(b.cpu, '%'), `< ${TARGETS.editorsCpuPct}% (50 editors)`],
    [`${editors} editors: event loop delay, worst second p99`, n(a.loop, ' ms'), n(b.loop, ' ms'), ''],
    [`${editors} editors: heap peak`, n(a.heap, ' MiB'), n(b.heap, ' MiB'), ''],
    ['memory per open document / encoded state', n(a.mem, 'x'), n(b.mem, 'x'), `<= ${TARGETS.memoryPerDocToEncoded}x`],
    ["the floor: a bare Y.Doc / encoded state", n(a.floor, 'x'), n(b.floor, 'x'), ''],
    ['store round, 10 sections, p50', n(a.store10, ' ms'), n(b.store10, ' ms'), ''],
    ['store round, 200 sections, p50', n(a.store200, ' ms'), n(b.store200, ' ms'), 'near the 10-section one'],
    ['/_health p99 while one editor floods', n(a.flood, ' ms'), n(b.flood, ' ms'), `< ${TARGETS.healthUnderFloodP99Ms} ms`],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  if (before?.error) lines.push(`(the before code's live part failed: ${before.error.slice(0, 200)})`);
  return ['Live canvas, after and before:', ...lines].join('\n');
}

module.exports = { liveBench, liveTable, liveCompare, twoProcesses };

if (require.main === module) {
  liveBench()
    .then((live) => {
      console.log('');
      console.log(liveTable(live));
      process.exit(0);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
