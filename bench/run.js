#!/usr/bin/env node
'use strict';
/**
 * npm run bench: throughput of the article API against Strapi's own floor.
 *
 * Starts the compiled server (tests/helpers/strapi-process.js, no admin panel) on a fresh SQLite
 * database in a temporary folder, seeds a user, an API key and articles, then measures each scenario with
 * autocannon (20 connections, BENCH_DURATION seconds each, default 10):
 *   - GET /_health (Strapi's floor) and users-permissions' stock GET /api/users/me (JWT);
 *   - ours, with an API key: GET section by anchor (and the same read as the MCP tool
 *     get_section: a JSON-RPC tools/call POST, its ratio to the plain GET printed), GET outline (200 sections),
 *     POST section (insert in the middle of articles of about 200 sections), PATCH section with
 *     If-Match (each connection its own section, sending the ETag of its last answer), PATCH note;
 *   - extra scenarios exported by bench/triggers.js, when that file exists.
 * Then it times inserting one section into the middle of an article of 20 and of 2,000
 * sections (sequential requests, each insert undone by an untimed delete so the sizes stay).
 * The PATCH of a one-paragraph section is measured just under and just over
 * WORKER_INLINE_MAX_CHARS (parsed on the main thread, and in a worker thread). Last, the hostile
 * inputs of bench/event-loop.js are sent one at a time while another connection polls
 * /_health: it prints how each was answered and the event loop's longest stall meanwhile.
 * Then, in-process, the cost of validating an input against a 50-field inputSchema (bench/skills.js),
 * and a skill call over MCP against the same trigger over POST /webhook plus status wait
 * (bench/skills.js; BENCH_ONLY=skills runs that comparison alone).
 * Prints requests/s, p50/p99 latency and the ratio to /_health, and writes bench/results.json.
 * Searches: in the article of 200 sections, and across another user's 200 articles.
 * Then change sets (bench/changes.js, issue 34: the same write before and after them, a revert,
 * listing the newest 50 of 100,000), and last, with the main server stopped, the live canvas
 * (bench/live.js, issues 22, 31 and 32: its own servers as child processes, one on SQLite and
 * two on PostgreSQL + Redis): agent PATCH and keystroke -> another client, 50 editors typing
 * (server CPU, memory, event-loop delay), memory per open document, a store round against the
 * article's size, /_health while one editor floods, each beside its target.
 *
 * BENCH_BEFORE=<git ref>: the same in one run on that ref's code too (bench/before.js builds it in a
 * temporary git worktree): the throughput scenarios interleaved (after, then before, each
 * scenario), both tables side by side as ratios to each one's /_health; the live part on both,
 * its headline figures side by side. The one-client parts (inserts, threshold, revisions,
 * hostile inputs, skills) run on this code only. BENCH_BEFORE_KEEP=true keeps the build.
 *
 * Knobs: BENCH_DURATION (seconds per throughput scenario: 10, or 6 with BENCH_BEFORE),
 * BENCH_INSERT_SAMPLES (200), BENCH_SKIP=<inserts,revisions,hostile,skills,changes,live>,
 * BENCH_ONLY=live | changes | revisions | skills (that part alone; the first three write bench/results-<part>.json),
 * bench/changes.js's BENCH_CHANGES_* and bench/live.js's BENCH_LIVE_*.
 * BENCH_ROUNDS=<n> measures every throughput scenario n times, round after round, and keeps the medians.
 * BENCH_PROFILE=<dir> writes a CPU profile of the server and each scenario's time window (read it with bench/profile.js).
 * BENCH_ONLY=<regexp> measures only the scenarios it matches, beside /_health, then sends only
 * the hostile inputs it matches (e.g. BENCH_ONLY='10,000 lines|200 KB'), and stops there.
 *
 * Not part of the tests: numbers depend on the machine and on what else runs on it.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { serverEnv } = require('../tests/helpers/server-env');
const { request, expectStatus } = require('./http');
const { freePort, sqliteDatabase, startStrapiProcess, stopStrapiProcess } = require('../tests/helpers/processes');
const { hostileCases, hostileTable, thresholdBodies, INLINE_MAX } = require('./event-loop');
const { revisionCases, revisionTable } = require('./revisions');
const { validationBench, validationLine, skillCallBench, skillCallLine } = require('./skills');
const { liveBench, liveTable, liveCompare } = require('./live');
const { changesBench, changesTable } = require('./changes');
const { prepareBefore, current } = require('./before');

/** The code of this checkout; BENCH_BEFORE adds the before code (bench/before.js). */
const AFTER = current();

// With BENCH_BEFORE every scenario runs twice: 6 s each by default keeps the whole run near 15 minutes.
const DURATION = Number(process.env.BENCH_DURATION || (process.env.BENCH_BEFORE ? 6 : 10));
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 1));
const CONNECTIONS = 20;
const INSERT_SAMPLES = Number(process.env.BENCH_INSERT_SAMPLES || 200);
const POST_ARTICLES = 40; // inserts spread over this many articles of 200 sections

const sectionsDoc = (n, prefix = 'Section') =>
  Array.from({ length: n }, (_, i) => `## ${prefix} ${i + 1}\n\nThe body of section ${i + 1}, a few words of prose to render.`).join('\n\n');

/** Server settings the optional scenario modules ask for (e.g. a trigger rate limit the load can pass). */
function extraServerEnv() {
  const triggersFile = path.join(__dirname, 'triggers.js');
  return fs.existsSync(triggersFile) ? (require(triggersFile).serverEnv ?? {}) : {};
}

/**
 * A server of `target`'s code (this checkout, or BENCH_BEFORE's build: bench/before.js) on a
 * fresh SQLite file; `dbFile` is that file, for seeding rows in bulk.
 */
async function startServer(extraEnv = {}, target = AFTER, { profileDir } = {}) {
  const db = sqliteDatabase('quire-bench');
  const env = {
    ...process.env,
    ...serverEnv(),
    NODE_ENV: 'production',
    ...db.env,
    SERVE_ADMIN_PANEL: 'false',
    AUTH_RATELIMIT_MAX: '1000000',
    ...extraServerEnv(),
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const server = await startStrapiProcess(env, { port: await freePort(), logs: false, label: `the bench server (${target.label})`, appDir: target.dir, nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] }).catch(async (error) => {
    await db.remove();
    throw error;
  });
  let stopped = false;
  return {
    baseUrl: server.origin,
    pid: server.pid,
    dbFile: db.name,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopStrapiProcess(server);
      await db.remove();
    },
  };
}

/** A user and an API key on a server: the Authorization header. */
async function keyOn(baseUrl) {
  const name = `bench${crypto.randomBytes(3).toString('hex')}`;
  const reg = await expectStatus(
    request(baseUrl, 'POST', '/api/auth/local/register', { body: { username: name, email: `${name}@example.test`, password: 'a long bench passphrase' } }),
    200,
    'register',
  );
  const key = await expectStatus(request(baseUrl, 'POST', '/api/keys', { headers: { authorization: `Bearer ${reg.json().jwt}` }, body: { name: 'bench' } }), 201, 'key');
  return { authorization: `Bearer ${key.json().data.secret}` };
}

/** Issue 12's cases (bench/revisions.js), with a second server without history for the comparison. */
async function revisionBench(baseUrl, auth) {
  console.log('Starting a second server with QUIRE_HISTORY=false...');
  const off = await startServer({ QUIRE_HISTORY: 'false' });
  try {
    console.log(`Timing conditional requests, edits and history (${INSERT_SAMPLES} samples each)...`);
    return await revisionCases({
      baseUrl,
      auth,
      request,
      expectStatus,
      sectionsDoc,
      samples: INSERT_SAMPLES,
      historyOff: { baseUrl: off.baseUrl, auth: await keyOn(off.baseUrl) },
    });
  } finally {
    await off.stop();
  }
}

async function seed(baseUrl) {
  const name = `bench${crypto.randomBytes(3).toString('hex')}`;
  const reg = await expectStatus(
    request(baseUrl, 'POST', '/api/auth/local/register', { body: { username: name, email: `${name}@example.test`, password: 'a long bench passphrase' } }),
    200,
    'register',
  );
  const jwt = reg.json().jwt;
  const keyRes = await expectStatus(request(baseUrl, 'POST', '/api/keys', { headers: { authorization: `Bearer ${jwt}` }, body: { name: 'bench' } }), 201, 'create key');
  const apiKey = keyRes.json().data.secret;
  const auth = { authorization: `Bearer ${apiKey}` };
  const create = async (sections, title) => {
    const res = await expectStatus(request(baseUrl, 'POST', '/api/articles', { headers: auth, body: { title, markdown: sectionsDoc(sections), premise: 'Why.' } }), 201, 'create article');
    const data = res.json().data;
    return { id: data.article.id, outline: data.outline, middle: data.outline[Math.floor(sections / 2)].anchor };
  };

  const main = await create(200, 'Main article');
  const notes = [];
  for (let i = 0; i < 20; i += 1) {
    const res = await expectStatus(
      request(baseUrl, 'POST', `/api/articles/${main.id}/notes`, {
        headers: auth,
        body: { kind: ['source', 'decision', 'idea', 'question'][i % 4], title: `Note ${i + 1}`, body: `Body of note ${i + 1}.`, url: `https://example.com/${i}` },
      }),
      201,
      'create note',
    );
    notes.push(res.json().data.note);
  }
  const postTargets = [];
  for (let i = 0; i < POST_ARTICLES; i += 1) postTargets.push(await create(200, `Insert target ${i + 1}`));
  // Sections PATCHed with If-Match: one per connection (each in its own article, so the writes
  // do not wait on one article's lock), and one more for the check before measuring.
  const ifMatch = [];
  for (const target of postTargets.slice(0, CONNECTIONS + 1)) {
    const path = `/api/articles/${target.id}/sections/${target.outline[10].anchor}`;
    ifMatch.push({ path, etag: (await expectStatus(request(baseUrl, 'GET', path, { headers: auth }), 200, 'etag')).headers.etag });
  }
  const small = await create(20, 'Small');
  const large = await create(2000, 'Large');
  const searcher = await seedSearcher(baseUrl);
  return { jwt, apiKey, auth, main, notes, postTargets, ifMatch, small, large, searcher };
}

/** Another user with SEARCH_ARTICLES articles of 10 sections each, for the search across articles. */
const SEARCH_ARTICLES = 200;
async function seedSearcher(baseUrl) {
  const name = `search${crypto.randomBytes(3).toString('hex')}`;
  const reg = await expectStatus(
    request(baseUrl, 'POST', '/api/auth/local/register', { body: { username: name, email: `${name}@example.test`, password: 'a long bench passphrase' } }),
    200,
    'register searcher',
  );
  const auth = { authorization: `Bearer ${reg.json().jwt}` };
  for (let i = 0; i < SEARCH_ARTICLES; i += 1) {
    await expectStatus(request(baseUrl, 'POST', '/api/articles', { headers: auth, body: { title: `Searched ${i + 1}`, markdown: sectionsDoc(10) } }), 201, 'create searched article');
  }
  const key = await expectStatus(request(baseUrl, 'POST', '/api/keys', { headers: auth, body: { name: 'search bench' } }), 201, 'create key');
  return { auth: { authorization: `Bearer ${key.json().data.secret}` } };
}

/**
 * CPU seconds a process has used (user + system, all its threads: /proc/<pid>/stat), or null
 * where there is no /proc. Per request, it holds on a shared machine where req/s do not: the
 * other sessions' load delays a request but adds no CPU to it.
 */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux

async function measure(baseUrl, scenario, pid) {
  const cpuBefore = pid ? cpuSeconds(pid) : null;
  const opts = {
    url: baseUrl,
    connections: CONNECTIONS,
    duration: DURATION,
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
  };
  if (scenario.path) opts.url = new URL(scenario.path, baseUrl).toString();
  if (scenario.requests) opts.requests = scenario.requests;
  if (scenario.prepare) await scenario.prepare();
  const result = await autocannon(opts);
  const cpuAfter = cpuBefore === null ? null : cpuSeconds(pid);
  return {
    // The server's CPU per request (ms): its ratio to /_health's is what req/s would show on an idle machine.
    cpuMsPerRequest: cpuAfter === null || !result.requests.total ? null : Number(((1000 * (cpuAfter - cpuBefore)) / result.requests.total).toFixed(3)),
    name: scenario.name,
    method: scenario.method,
    path: scenario.label ?? scenario.path,
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count])),
  };
}

/** Median time (ms) of inserting into the middle of an article, each insert undone by a delete. */
async function timeInserts(baseUrl, auth, articles) {
  const times = new Map(articles.map((a) => [a.id, []]));
  const body = { markdown: '## Inserted\n\nA short section inserted in the middle.' };
  for (let i = 0; i < INSERT_SAMPLES + 20; i += 1) {
    // Interleaved, so a change of load on the machine affects both sizes alike.
    for (const article of articles) {
      const started = process.hrtime.bigint();
      const res = await request(baseUrl, 'POST', `/api/articles/${article.id}/sections`, { headers: auth, body: { ...body, after: article.middle } });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (res.status !== 201) throw new Error(`insert: ${res.status} ${res.text.slice(0, 200)}`);
      if (i >= 20) times.get(article.id).push(ms);
      const anchor = /"added":\[\{"anchor":"([0-9a-f-]+)"/.exec(res.text)[1];
      await expectStatus(request(baseUrl, 'DELETE', `/api/articles/${article.id}/sections/${anchor}`, { headers: auth }), 200, 'delete');
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return articles.map((a) => ({ sections: a.outline.length, medianMs: Number(median(times.get(a.id)).toFixed(2)) }));
}

/**
 * Median time (ms) of sequential PATCHes of one section with a paragraph just under the inline
 * threshold (parsed on the main thread) and just over it (in a worker): one client, no
 * contention, so the difference is the worker round trip.
 */
async function timeThreshold(baseUrl, auth, article, bodies) {
  const anchor = article.outline[6].anchor;
  const times = { inline: [], worker: [] };
  for (let i = 0; i < INSERT_SAMPLES + 20; i += 1) {
    for (const kind of ['inline', 'worker']) {
      const started = process.hrtime.bigint();
      const res = await request(baseUrl, 'PATCH', `/api/articles/${article.id}/sections/${anchor}`, { headers: auth, body: { markdown: bodies[kind] } });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (res.status !== 200) throw new Error(`patch: ${res.status} ${res.text.slice(0, 200)}`);
      if (i >= 20) times[kind].push(ms);
    }
  }
  const median = (xs) => Number([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(2));
  return { inlineMs: median(times.inline), workerMs: median(times.worker) };
}

/** Median latencies of two scenarios' requests sent one at a time, alternating; ratio = a's median / b's (b's speed relative to a). */
async function alternate(baseUrl, a, b) {
  const times = { a: [], b: [] };
  for (let i = 0; i < INSERT_SAMPLES; i += 1) {
    for (const [which, sc] of [['a', a], ['b', b]]) {
      const started = process.hrtime.bigint();
      const res = await request(baseUrl, sc.method, sc.path, { headers: sc.headers, body: sc.body });
      times[which].push(Number(process.hrtime.bigint() - started) / 1e6);
      if (res.status !== 200) throw new Error(`${sc.name}: ${res.status}`);
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const plainMs = median(times.a);
  const mcpMs = median(times.b);
  return { plainMs: Number(plainMs.toFixed(2)), mcpMs: Number(mcpMs.toFixed(2)), ratio: Number((plainMs / mcpMs).toFixed(3)) };
}

/** One scenario's rounds as one: the run of median req/s, with the median CPU per request of all rounds. */
function medianRun(rounds) {
  const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rps = mid(rounds.map((r) => r.requestsPerSec));
  const cpus = rounds.map((r) => r.cpuMsPerRequest).filter((v) => v !== null);
  const run = rounds.find((r) => r.requestsPerSec === rps);
  return { ...run, cpuMsPerRequest: cpus.length ? mid(cpus) : null, rounds: rounds.length };
}

const fmt = (v, digits = 3) => (v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(digits));

/**
 * The throughput table: each scenario's figures, and with BENCH_BEFORE the same on the before
 * code beside them. "CPU x" is /_health's CPU per request over the scenario's: the ratio req/s
 * would show on an idle machine, steadier than "x /_health" when other work shares the cores.
 */
function table(rows, health, before) {
  const healthCpu = rows[0].cpuMsPerRequest;
  const cpuRatio = (r, floor) => (r && !r.na && r.cpuMsPerRequest && floor ? floor / r.cpuMsPerRequest : null);
  const head = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'x /_health', 'CPU ms/req', 'CPU x', 'non-2xx'];
  if (before) head.push('before req/s', 'before x /_health', 'after / before', 'before CPU ms/req', 'before CPU x', 'CPU after / before');
  const lines = [
    head,
    ...rows.map((r) => {
      const line = [r.name, String(r.requestsPerSec), String(r.p50Ms), String(r.p99Ms), (r.requestsPerSec / health).toFixed(3), fmt(r.cpuMsPerRequest), fmt(cpuRatio(r, healthCpu)), String(r.non2xx + r.errors)];
      if (before) {
        const b = before.results.find((x) => x.name === r.name);
        const bRatio = b && !b.na ? b.requestsPerSec / before.health : null;
        line.push(b && !b.na ? String(b.requestsPerSec) : 'n/a', fmt(bRatio), bRatio ? `${fmt(r.requestsPerSec / health / bRatio, 2)}x` : 'n/a');
        const bCpu = cpuRatio(b, before.results[0].cpuMsPerRequest);
        const aCpu = cpuRatio(r, healthCpu);
        line.push(fmt(b && !b.na ? b.cpuMsPerRequest : null), fmt(bCpu), aCpu && bCpu ? `${fmt(aCpu / bCpu, 2)}x` : 'n/a');
      }
      return line;
    }),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines.map((l) => l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}

/** The throughput scenarios on one seeded server (`s`: seed()'s answer), each with the state its requests keep. */
async function scenariosFor(baseUrl, s, { optionalExtras = false } = {}) {
  const jwtAuth = { authorization: `Bearer ${s.jwt}` };
  const json = { ...s.auth, 'content-type': 'application/json' };
  let next = 0;
  let nextSlot = 0;
  const freeSlots = s.ifMatch.slice(0, CONNECTIONS);
  let edits = 0;
  const threshold = thresholdBodies();
  const insertBody = JSON.stringify({ markdown: '## Inserted\n\nA short section inserted in the middle.' });
  const scenarios = [
    { name: 'GET /_health (Strapi floor)', method: 'GET', path: '/_health', headers: {} },
    { name: 'GET /api/users/me (stock, JWT)', method: 'GET', path: '/api/users/me', headers: jwtAuth },
    { name: 'GET section by anchor', method: 'GET', path: `/api/articles/${s.main.id}/sections/${s.main.middle}`, headers: s.auth },
    {
      // The same read as an agent makes it: one JSON-RPC tools/call per POST (the route runs in-process).
      name: 'MCP get_section (tools/call)',
      method: 'POST',
      path: '/api/mcp',
      label: '/api/mcp tools/call get_section',
      headers: { ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_section', arguments: { id: s.main.id, sid: s.main.middle } } }),
      // 200 even for a tool error: the result must be the section.
      check: (res) => Boolean(res.json().result?.structuredContent?.section),
    },
    { name: 'GET outline (200 sections)', method: 'GET', path: `/api/articles/${s.main.id}/outline`, headers: s.auth },
    {
      name: 'POST section (insert in the middle)',
      method: 'POST',
      label: `/api/articles/{id}/sections (${POST_ARTICLES} articles of 200+)`,
      headers: json,
      requests: [
        {
          method: 'POST',
          headers: json,
          setupRequest(req) {
            const target = s.postTargets[next++ % s.postTargets.length];
            req.path = `/api/articles/${target.id}/sections`;
            req.body = JSON.stringify({ markdown: '## Inserted\n\nA short section inserted in the middle.', after: target.middle });
            return req;
          },
        },
      ],
      body: insertBody,
      path: `/api/articles/${s.postTargets[0].id}/sections`,
    },
    {
      // Each connection PATCHes its own section, sending the ETag of its previous answer.
      name: 'PATCH section with If-Match',
      method: 'PATCH',
      label: `/api/articles/{id}/sections/{anchor} + If-Match (${CONNECTIONS} articles of 200)`,
      // Before each run (BENCH_ROUNDS measures it again): the requests cut off at the end of the last one may have
      // written their section, unseen, so each section's ETag is read again and every section is free.
      async prepare() {
        for (const slot of s.ifMatch.slice(0, CONNECTIONS)) slot.etag = (await expectStatus(request(baseUrl, 'GET', slot.path, { headers: s.auth }), 200, 'etag')).headers.etag;
        freeSlots.splice(0, freeSlots.length, ...s.ifMatch.slice(0, CONNECTIONS));
      },
      path: s.ifMatch[CONNECTIONS].path,
      headers: { ...json, 'if-match': s.ifMatch[CONNECTIONS].etag },
      body: JSON.stringify({ markdown: '## Section 11\n\nEdited with If-Match by the benchmark.' }),
      requests: [
        {
          method: 'PATCH',
          headers: json,
          setupRequest(req, context) {
            // autocannon's context lasts one request: a section is taken while its PATCH is in flight.
            context.slot = freeSlots.shift() ?? s.ifMatch[nextSlot++ % CONNECTIONS];
            req.path = context.slot.path;
            req.headers = { ...json, 'if-match': context.slot.etag };
            req.body = JSON.stringify({ markdown: `## Section 11\n\nEdited with If-Match by the benchmark (${++edits}).` });
            return req;
          },
          onResponse(status, _body, context, headers) {
            const etag = headers.etag ?? headers.ETag ?? headers.Etag;
            if (status === 200 && etag) context.slot.etag = etag;
            freeSlots.push(context.slot);
          },
        },
      ],
    },
    {
      name: `PATCH section, ${INLINE_MAX - 10} chars (main thread)`,
      method: 'PATCH',
      path: `/api/articles/${s.small.id}/sections/${s.small.outline[2].anchor}`,
      headers: json,
      body: JSON.stringify({ markdown: threshold.inline }),
    },
    {
      name: `PATCH section, ${INLINE_MAX + 10} chars (worker)`,
      method: 'PATCH',
      path: `/api/articles/${s.small.id}/sections/${s.small.outline[4].anchor}`,
      headers: json,
      body: JSON.stringify({ markdown: threshold.worker }),
    },
    {
      // A phrase in one section (heading and body: count 2), found among 200 by the index.
      name: 'Search in an article (200 sections)',
      method: 'GET',
      path: `/api/articles/${s.main.id}/search?q=${encodeURIComponent('section 117')}`,
      headers: s.auth,
    },
    {
      // A phrase every one of the 200 articles has (in one of its 10 sections): a page of 20 articles.
      name: `Search across ${SEARCH_ARTICLES} articles (page of 20)`,
      method: 'GET',
      path: `/api/search?q=${encodeURIComponent('section 7,')}`,
      headers: s.searcher.auth,
    },
    {
      name: 'PATCH note',
      method: 'PATCH',
      path: `/api/articles/${s.main.id}/notes/${s.notes[10].anchor}`,
      headers: json,
      body: JSON.stringify({ title: 'Renamed by the benchmark' }),
    },
  ];
  const triggersFile = path.join(__dirname, 'triggers.js');
  if (fs.existsSync(triggersFile)) {
    // On the before code, extra scenarios it cannot set up are n/a rather than the end of the run.
    const extra = await require(triggersFile)
      .scenarios({ baseUrl, jwt: s.jwt, apiKey: s.apiKey })
      .catch((error) => {
        if (!optionalExtras) throw error;
        console.log(`The trigger scenarios could not be set up on the before code: ${error.message.slice(0, 200)}`);
        return [];
      });
    for (const x of extra) {
      // Signed triggers need fresh headers (a new webhook-id) per request: `headers` is then a function.
      const fresh = typeof x.headers === 'function' ? x.headers : undefined;
      scenarios.push({
        name: x.name,
        method: x.method,
        path: x.path,
        headers: fresh ? fresh() : (x.headers ?? {}),
        fresh,
        body: x.body,
        ...(x.setupRequest && { requests: [{ method: x.method, path: x.path, body: x.body, setupRequest: x.setupRequest }] }),
      });
    }
  }
  return scenarios;
}

/** Why a scenario cannot be measured on a server (its check request failed), or null. */
async function checkScenario(baseUrl, sc) {
  const res = await request(baseUrl, sc.method, sc.path, { headers: sc.fresh ? sc.fresh() : sc.headers, body: sc.body });
  if (res.status < 200 || res.status >= 300 || (sc.check && !sc.check(res))) return `${res.status} ${res.text.slice(0, 300)}`;
  return null;
}

/** Where the run's time went: mark(part) when a part starts; the seconds of each are printed at the end. */
const marks = [];
const mark = (part) => marks.push({ part, at: Date.now() });
const partSeconds = () => marks.map((m, i) => `${m.part} ${Math.round(((marks[i + 1]?.at ?? Date.now()) - m.at) / 1000)} s`).join(', ');

const writeJson = (file, data) => {
  fs.writeFileSync(path.join(__dirname, file), JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAverageAtEnd: os.loadavg(), ...data }, null, 2) + '\n');
  console.log(`Written to bench/${file}`);
};

/** The live canvas on each side: the after code, then (BENCH_BEFORE) the before code. */
async function liveSides(before) {
  const live = await liveBench({ target: AFTER });
  console.log('');
  console.log(liveTable(live));
  if (!before) return live;
  try {
    live.before = { ref: before.ref, commit: before.commit, ...(await liveBench({ target: before })) };
    console.log('');
    console.log(liveTable(live.before));
  } catch (error) {
    live.before = { ref: before.ref, error: error.message };
  }
  console.log('');
  console.log(liveCompare(live, live.before));
  return live;
}

/** The change sets part (bench/changes.js): on the after code, against the code before change sets. */
async function changeSetSides(after, before) {
  try {
    const out = await changesBench({ after, before, startServer, keyOn, log: console.log });
    console.log('');
    console.log(changesTable(out));
    return out;
  } catch (error) {
    console.log(`Change sets: failed: ${error.stack}`);
    return { error: error.message };
  }
}

async function main() {
  const started = Date.now();
  const targets = [AFTER];
  let before = null;
  const cleanups = [];
  process.on('SIGINT', () => {
    for (const c of cleanups) c();
    process.exit(130);
  });
  if (process.env.BENCH_BEFORE) {
    mark('before build');
    before = await prepareBefore(process.env.BENCH_BEFORE);
    for (const w of before.warnings) console.log(`Before: ${w}`);
    cleanups.push(() => before.remove());
    targets.push(before);
  }
  try {
    await runParts(before, targets);
  } finally {
    for (const c of cleanups) c();
    console.log(`The bench took ${Math.round((Date.now() - started) / 1000)} s in all (after the compile)${marks.length ? `: ${partSeconds()}` : ''}.`);
  }
}

async function runParts(before, targets) {
  const only = process.env.BENCH_ONLY;
  if (only === 'live') {
    mark('live');
    // The live canvas alone (it starts its own servers): BENCH_ONLY=live node bench/run.js
    writeJson('results-live.json', { before: before && { ref: before.ref, commit: before.commit }, live: await liveSides(before) });
    return;
  }
  if (only === 'changes') {
    mark('change sets');
    // Change sets alone (issue 34): BENCH_ONLY=changes node bench/run.js
    writeJson('results-changes.json', { changes: await changeSetSides(AFTER, before) });
    return;
  }
  mark('servers and seeding');
  console.log(`Starting the server (SQLite, ${os.cpus().length} CPUs, load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')})...`);
  // BENCH_PROFILE=<dir>: a CPU profile of this server (written when it stops) and each scenario's time window, for bench/profile.js.
  const profileDir = process.env.BENCH_PROFILE;
  const server = await startServer({}, AFTER, { profileDir });
  if (only === 'revisions') {
    // Issue 12's cases alone (quick runs): BENCH_ONLY=revisions node bench/run.js
    try {
      const revisions = await revisionBench(server.baseUrl, await keyOn(server.baseUrl));
      console.log('');
      console.log(revisionTable(revisions));
      writeJson('results-revisions.json', { revisions });
    } finally {
      await server.stop();
    }
    return;
  }
  if (only === 'skills') {
    // Issue 24's comparison alone (quick runs): BENCH_ONLY=skills node bench/run.js
    try {
      console.log('');
      console.log(skillCallLine(await skillCallBench({ baseUrl: server.baseUrl, auth: await keyOn(server.baseUrl) })));
    } finally {
      await server.stop();
    }
    return;
  }
  const servers = [server];
  try {
    const { baseUrl } = server;
    console.log('Seeding...');
    const s = await seed(baseUrl);
    const scenarios = await scenariosFor(baseUrl, s);
    // BENCH_BEFORE: the same seed and scenarios on a server of the before code.
    let other = null;
    if (before) {
      console.log(`Starting a server of the ${before.label} code and seeding it alike...`);
      const beforeServer = await startServer({}, before);
      servers.push(beforeServer);
      const bs = await seed(beforeServer.baseUrl);
      other = { server: beforeServer, scenarios: await scenariosFor(beforeServer.baseUrl, bs, { optionalExtras: true }) };
    }

    // BENCH_ONLY=<regexp>: only the scenarios whose name matches (and /_health, the floor), nothing else.
    const onlyRe = only ? new RegExp(only, 'i') : null;
    const keep = (list) => (onlyRe ? list.filter((sc, i) => i === 0 || onlyRe.test(sc.name)) : list);
    scenarios.splice(0, scenarios.length, ...keep(scenarios));

    // Each scenario must work before it is measured (on the before code, one that does not is n/a).
    for (const sc of scenarios) {
      const why = await checkScenario(baseUrl, sc);
      if (why) throw new Error(`${sc.name}: ${why}`);
    }
    const beforeOf = new Map();
    if (other) {
      for (const sc of scenarios) {
        const b = other.scenarios.find((x) => x.name === sc.name);
        const why = b ? await checkScenario(other.server.baseUrl, b) : 'no such scenario';
        if (why) console.log(`${before.label}: ${sc.name}: n/a (${why.slice(0, 120)})`);
        else beforeOf.set(sc.name, b);
      }
    }

    // Interleaved: each scenario on the after code, then on the before code, so both see the same load.
    mark('throughput');
    const windows = [];
    // BENCH_ROUNDS: every scenario measured that many times, round after round (after, then before,
    // each scenario), and each figure's median kept: one busy moment on a shared machine moves one round.
    const runs = new Map(scenarios.map((sc) => [sc.name, { after: [], before: [] }]));
    for (let round = 1; round <= ROUNDS; round += 1) {
      if (ROUNDS > 1) console.log(`Round ${round} of ${ROUNDS}:`);
      for (const sc of scenarios) {
        process.stdout.write(`Measuring ${sc.name} for ${DURATION} s... `);
        // Microseconds of the monotonic clock, the clock of the server's .cpuprofile.
        const from = Number(process.hrtime.bigint() / 1000n);
        const r = await measure(baseUrl, sc, server.pid);
        if (profileDir) windows.push({ name: sc.name, from, to: Number(process.hrtime.bigint() / 1000n) });
        runs.get(sc.name).after.push(r);
        const odd = Object.entries(r.statusCodes).filter(([code]) => !code.startsWith('2'));
        let line = `${r.requestsPerSec} req/s${odd.length ? ` (${odd.map(([code, n]) => `${n} answered ${code}`).join(', ')})` : ''}`;
        if (other) {
          const b = beforeOf.get(sc.name);
          if (b) {
            const br = await measure(other.server.baseUrl, b, other.server.pid);
            runs.get(sc.name).before.push(br);
            line += `; before: ${br.requestsPerSec} req/s`;
          }
        }
        console.log(line);
      }
    }
    const results = scenarios.map((sc) => medianRun(runs.get(sc.name).after));
    const beforeResults = scenarios.map((sc) => (runs.get(sc.name).before.length ? medianRun(runs.get(sc.name).before) : { name: sc.name, na: true }));
    if (profileDir) fs.writeFileSync(path.join(profileDir, 'windows.json'), JSON.stringify(windows, null, 2) + '\n');
    const health = results[0].requestsPerSec;
    for (const r of results) r.ratioToHealth = Number((r.requestsPerSec / health).toFixed(3));
    const beforeSide = other && { results: beforeResults, health: beforeResults[0].requestsPerSec };
    if (beforeSide) for (const r of beforeResults) if (!r.na) r.ratioToHealth = Number((r.requestsPerSec / beforeSide.health).toFixed(3));
    // Issue 21's MCP target is relative to the same read over plain HTTP (>= 0.8x).
    const plainSection = results.find((r) => r.name === 'GET section by anchor');
    const mcpSection = results.find((r) => r.name === 'MCP get_section (tools/call)');
    const mcpToPlain = plainSection && mcpSection ? Number((mcpSection.requestsPerSec / plainSection.requestsPerSec).toFixed(3)) : undefined;
    // On a shared machine the two autocannon runs see different loads: also time them alternately, one request at a time.
    const mcpSequential = plainSection && mcpSection ? await alternate(baseUrl, scenarios.find((sc) => sc.name === plainSection.name), scenarios.find((sc) => sc.name === mcpSection.name)) : undefined;
    const mcpLine = () =>
      mcpToPlain !== undefined &&
      console.log(
        `MCP get_section / GET section: ${mcpToPlain}x in throughput; one at a time, alternating (${INSERT_SAMPLES} each): ` +
          `${mcpSequential.plainMs} ms vs ${mcpSequential.mcpMs} ms median, ${mcpSequential.ratio}x`,
      );
    const throughputHeader = () => {
      console.log('');
      if (before) console.log(`Throughput, ${AFTER.label} and ${before.label}, each against its own /_health (after / before: the ratio of the two ratios):`);
    };
    if (onlyRe) {
      throughputHeader();
      console.log(table(results, health, beforeSide));
      mcpLine();
      // The hostile inputs whose name it matches too (BENCH_ONLY='10,000 lines|200 KB').
      const hostile = await hostileCases({ baseUrl, apiKey: s.apiKey, jwt: s.jwt, request, only: onlyRe });
      if (hostile.length > 1) {
        console.log('');
        console.log(hostileTable(hostile));
      }
      return;
    }
    // The before server is not needed past the throughput: the rest of the HTTP part is the after code's alone.
    if (other) await other.server.stop();

    const parts = skipped();
    let insertScaling;
    let inlineThreshold;
    let revisions;
    let hostile = [];
    mark('one-client parts');
    if (!parts.has('inserts')) {
      console.log(`Timing inserts into articles of 20 and 2,000 sections (${INSERT_SAMPLES} each)...`);
      const [small, large] = await timeInserts(baseUrl, s.auth, [s.small, s.large]);
      insertScaling = { small, large, ratio: Number((large.medianMs / small.medianMs).toFixed(2)) };
      console.log(`Timing one-paragraph PATCHes just under and over ${INLINE_MAX} characters (${INSERT_SAMPLES} each)...`);
      inlineThreshold = await timeThreshold(baseUrl, s.auth, s.small, thresholdBodies());
    }
    if (!parts.has('revisions')) revisions = await revisionBench(baseUrl, s.auth);
    if (!parts.has('hostile')) {
      console.log('Sending hostile inputs (issue 11) while polling /_health...');
      // On a loaded machine the hostile set-up itself can miss its render deadline: the figures above are still printed and written.
      hostile = await hostileCases({ baseUrl, apiKey: s.apiKey, jwt: s.jwt, request }).catch((error) => {
        console.log(`The hostile inputs could not be sent: ${error.message.slice(0, 200)}`);
        return [];
      });
    }

    throughputHeader();
    console.log(table(results, health, beforeSide));
    mcpLine();
    if (insertScaling) {
      console.log('');
      console.log(
        `Insert into ${insertScaling.small.sections} sections: ${insertScaling.small.medianMs} ms median; into ${insertScaling.large.sections}: ${insertScaling.large.medianMs} ms; ratio ${insertScaling.ratio}`,
      );
      console.log(
        `One client, PATCH of one paragraph: ${INLINE_MAX - 10} chars on the main thread ${inlineThreshold.inlineMs} ms median; ${INLINE_MAX + 10} chars in a worker ${inlineThreshold.workerMs} ms`,
      );
    }
    if (revisions) {
      console.log('');
      console.log(revisionTable(revisions));
    }
    if (hostile.length) {
      console.log('');
      console.log(hostileTable(hostile));
    }
    let inputValidation;
    let skillCall;
    if (!parts.has('skills')) {
      // In-process: what checking an input against a workflow's inputSchema costs (issue 24).
      inputValidation = validationBench();
      console.log('');
      console.log(validationLine(inputValidation));
      skillCall = await skillCallBench({ baseUrl, auth: s.auth });
      console.log(skillCallLine(skillCall));
    }
    const out = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverageAtEnd: os.loadavg(),
      durationSec: DURATION,
      connections: CONNECTIONS,
      after: AFTER.label,
      scenarios: results,
      before: before && { ref: before.ref, commit: before.commit, label: before.label, scenarios: beforeResults },
      mcpToPlainSection: { throughput: mcpToPlain, sequential: mcpSequential },
      insertScaling,
      inlineThreshold,
      revisions,
      hostile,
      inputValidation,
      skillCall,
    };
    // The other parts start servers of their own: this one stops first, so it does not share the machine.
    for (const x of servers) await x.stop();
    if (!parts.has('changes')) {
      mark('change sets');
      out.changes = await changeSetSides(AFTER, before);
    }
    if (!parts.has('live')) {
      mark('live');
      try {
        out.live = await liveSides(before);
      } catch (error) {
        // The figures above are still written.
        out.live = { error: error.message };
        console.log(`Live canvas: failed: ${error.stack}`);
      }
    }
    out.loadAverageAtEnd = os.loadavg();
    out.partSeconds = Object.fromEntries(marks.map((m, i) => [m.part, Math.round(((marks[i + 1]?.at ?? Date.now()) - m.at) / 1000)]));
    writeJson('results.json', out);
  } finally {
    for (const x of servers) await x.stop();
  }
}

/** BENCH_SKIP=<part,part>: parts of the full run left out (inserts, revisions, hostile, skills, changes, live). */
function skipped() {
  return new Set(
    (process.env.BENCH_SKIP || '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
