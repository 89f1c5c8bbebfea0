'use strict';
/**
 * Change sets (issue 34), for bench/run.js: `npm run bench` runs it after the HTTP part;
 * `BENCH_ONLY=changes node bench/run.js` runs it alone (bench/results-changes.json).
 *
 * One client, requests one at a time (medians and p99 of BENCH_CHANGES_SAMPLES, default 200),
 * each loop interleaved with GET /_health so every figure is also read against the floor of
 * the same moment:
 *   - a write with change sets against the same write before them: the same PATCH of a section
 *     of a 200-section article (no reason: the same request on both) on this code and on the
 *     code before change sets, both servers up at once and the requests alternating between them
 *     (target: within 1.2x, /_health-normalised). The code before them is BENCH_BEFORE when that
 *     ref has no change sets, else BENCH_CHANGES_BEFORE (a git ref), else found with git: the
 *     parent, on the first-parent line of HEAD, of the first commit that has the change set
 *     content type. BENCH_CHANGES_BEFORE=false leaves this comparison out;
 *   - revert of one change set in a 200-section article: BENCH_CHANGES_REVERTS (default 50)
 *     times, a PATCH of a section (its change set) then POST .../changes/{anchor}/revert of it,
 *     after a dry run of the same revert;
 *   - listing the newest 50 change sets of an article with BENCH_CHANGES_ROWS (default 100,000)
 *     against one with 10, and the page after them (the cursor): the 10 are real writes, the
 *     100,000 are copies of a real write's rows inserted by SQL into the server's SQLite file
 *     in one transaction (not 100,000 requests).
 * A side whose code has no change sets prints n/a.
 */
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { request, expectStatus } = require('./http');
const { prepareBefore } = require('./before');

const SAMPLES = Number(process.env.BENCH_CHANGES_SAMPLES || 200);
const REVERTS = Number(process.env.BENCH_CHANGES_REVERTS || 50);
const ROWS = Number(process.env.BENCH_CHANGES_ROWS || 100_000);
const ROOT = path.join(__dirname, '..');
const CHANGE_SET_TYPE = 'src/plugins/quire/server/src/content-types/change-set/schema.json';

const round = (v, digits = 2) => (Number.isFinite(v) ? Number(v.toFixed(digits)) : null);
const pct = (values, p) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
};
const stats = (values) => ({ medianMs: pct(values, 50), p99Ms: pct(values, 99), n: values.length });
const git = (args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const sectionsDoc = (n) => Array.from({ length: n }, (_, i) => `## Section ${i + 1}\n\nThe body of section ${i + 1}, a few words of prose to change and change back.`).join('\n\n');

/** Whether a commit has change sets (their content type). */
function hasChangeSets(commit) {
  try {
    git(['cat-file', '-e', `${commit}:${CHANGE_SET_TYPE}`]);
    return true;
  } catch {
    return false;
  }
}

/** The commit before change sets landed on HEAD's first-parent line, or null. */
function commitBeforeChangeSets() {
  const line = git(['rev-list', '--first-parent', 'HEAD']).split('\n');
  let oldestWith = null;
  for (const commit of line) {
    if (hasChangeSets(commit)) oldestWith = commit;
    else break;
  }
  if (!oldestWith) return null;
  try {
    return git(['rev-parse', `${oldestWith}^1`]);
  } catch {
    return null;
  }
}

/** A user with an API key, and an article of `sections` sections; its id, outline and the key. */
async function articleOn(baseUrl, auth, title, sections) {
  const res = await expectStatus(request(baseUrl, 'POST', '/api/articles', { headers: auth, body: { title, markdown: sectionsDoc(sections) } }), 201, `create ${title}`);
  const data = res.json().data;
  return { id: data.article.id, outline: data.outline };
}

const timed = async (fn) => {
  const started = process.hrtime.bigint();
  const res = await fn();
  return { res, ms: Number(process.hrtime.bigint() - started) / 1e6 };
};

/** The same PATCH on both servers, alternating with each one's /_health. */
async function writeComparison(sides) {
  const times = sides.map(() => ({ patch: [], health: [] }));
  let n = 0;
  for (let i = 0; i < SAMPLES + 20; i += 1) {
    for (const [k, side] of sides.entries()) {
      const sec = side.article.outline[1 + (i % 150)];
      const body = { markdown: `## ${sec.title ?? `Section ${2 + (i % 150)}`}\n\nRewritten by the benchmark, round ${i}: a few words of prose ${n++}.` };
      const patch = await timed(() => request(side.baseUrl, 'PATCH', `/api/articles/${side.article.id}/sections/${sec.anchor}`, { headers: side.auth, body }));
      if (patch.res.status !== 200) throw new Error(`PATCH on ${side.label}: ${patch.res.status} ${patch.res.text.slice(0, 200)}`);
      const health = await timed(() => request(side.baseUrl, 'GET', '/_health'));
      if (i >= 20) {
        times[k].patch.push(patch.ms);
        times[k].health.push(health.ms);
      }
    }
  }
  const out = sides.map((side, k) => ({ label: side.label, patch: stats(times[k].patch), health: stats(times[k].health) }));
  const [after, before] = out;
  const norm = (x) => x.patch.medianMs / x.health.medianMs;
  return { after, before, ratio: round(after.patch.medianMs / before.patch.medianMs), ratioToHealthNormalised: round(norm(after) / norm(before)), target: 1.2 };
}

/** PATCH a section, then revert that write's change set (a dry run first): REVERTS times. */
async function revertTimes(side) {
  const patches = [];
  const dry = [];
  const reverts = [];
  for (let i = 0; i < REVERTS + 5; i += 1) {
    const sec = side.article.outline[10 + (i % 180)];
    const title = sec.title ?? `Section ${11 + (i % 180)}`;
    const patch = await timed(() =>
      request(side.baseUrl, 'PATCH', `/api/articles/${side.article.id}/sections/${sec.anchor}`, {
        headers: side.auth,
        body: { markdown: `## ${title}\n\nAn agent's rewrite ${i}: these words replace the body, to be reverted.`, reason: 'bench: to revert' },
      }),
    );
    if (patch.res.status !== 200) throw new Error(`PATCH: ${patch.res.status} ${patch.res.text.slice(0, 200)}`);
    const answer = patch.res.json();
    const anchor = (answer.changeSet ?? answer.data?.changeSet)?.anchor;
    if (!anchor) return null;
    const url = `/api/articles/${side.article.id}/changes/${anchor}/revert`;
    const d = await timed(() => request(side.baseUrl, 'POST', url, { headers: side.auth, body: { dryRun: true } }));
    if (d.res.status !== 200) throw new Error(`revert dry run: ${d.res.status} ${d.res.text.slice(0, 200)}`);
    const r = await timed(() => request(side.baseUrl, 'POST', url, { headers: side.auth, body: { reason: 'bench: revert' } }));
    if (r.res.status !== 200) throw new Error(`revert: ${r.res.status} ${r.res.text.slice(0, 200)}`);
    if (i >= 5) {
      patches.push(patch.ms);
      dry.push(d.ms);
      reverts.push(r.ms);
    }
  }
  return { sections: side.article.outline.length, patch: stats(patches), dryRun: stats(dry), revert: stats(reverts), revertToPatch: round(pct(reverts, 50) / pct(patches, 50)) };
}

/**
 * ROWS copies of the newest change set of `articleId` (and of its sections' rows), inserted into
 * the server's SQLite file in one transaction, as if written one after another a millisecond apart.
 */
function seedChangeSets(dbFile, articleId, rows) {
  const Database = require('better-sqlite3');
  const db = new Database(dbFile);
  try {
    db.pragma('busy_timeout = 10000');
    const article = db.prepare('SELECT id FROM quire_articles WHERE uuid = ?').get(articleId);
    if (!article) throw new Error(`article ${articleId} not found in ${dbFile}`);
    const model = db.prepare('SELECT * FROM quire_change_sets WHERE article_id = ? ORDER BY id DESC LIMIT 1').get(article.id);
    if (!model) throw new Error('no change set to copy: the writes made none');
    const parts = db.prepare('SELECT * FROM quire_change_set_sections WHERE change_set_id = ? ORDER BY position').all(model.id);
    const setCols = Object.keys(model).filter((c) => c !== 'id' && c !== 'document_id');
    const partCols = Object.keys(parts[0] ?? {}).filter((c) => c !== 'id' && c !== 'document_id');
    const insertSet = db.prepare(`INSERT INTO quire_change_sets (${setCols.join(', ')}) VALUES (${setCols.map((c) => `@${c}`).join(', ')})`);
    const insertPart = partCols.length ? db.prepare(`INSERT INTO quire_change_set_sections (${partCols.join(', ')}) VALUES (${partCols.map((c) => `@${c}`).join(', ')})`) : null;
    // Dates as the server stored them: epoch milliseconds, or text.
    const base = typeof model.at === 'number' ? model.at - rows : Date.parse(model.at) - rows;
    const dateOf = (i) => (typeof model.at === 'number' ? base + i : new Date(base + i).toISOString());
    const started = performance.now();
    db.transaction(() => {
      for (let i = 0; i < rows; i += 1) {
        const at = dateOf(i);
        const info = insertSet.run({ ...model, uuid: crypto.randomUUID(), at, created_at: at, updated_at: at, reverted_by: null, status: 'applied' });
        for (const part of parts) insertPart.run({ ...part, change_set_id: info.lastInsertRowid });
      }
    })();
    // The seeded rows are older than the real ones but have higher ids: "newest" is by id, as the list reads.
    return { rows, sectionsPerRow: parts.length, seconds: round((performance.now() - started) / 1000, 1) };
  } finally {
    db.close();
  }
}

/** The newest 50 (and the page after) of an article with many change sets against one with 10, alternating. */
async function listing(side, dbFile) {
  const few = await articleOn(side.baseUrl, side.auth, 'Ten change sets', 10);
  const many = await articleOn(side.baseUrl, side.auth, `${ROWS} change sets`, 10);
  for (const a of [few, many]) {
    // 10 real writes each.
    for (let i = 0; i < 10; i += 1) {
      const sec = a.outline[i];
      await expectStatus(request(side.baseUrl, 'PATCH', `/api/articles/${a.id}/sections/${sec.anchor}`, { headers: side.auth, body: { markdown: `## Section ${i + 1}\n\nWritten ${i}.` } }), 200, 'write');
    }
  }
  const seeded = seedChangeSets(dbFile, many.id, ROWS);
  // The seeding held this event loop for seconds: let the keep-alive sockets the server closed meanwhile go first.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const count = async (a) => {
    const res = await expectStatus(request(side.baseUrl, 'GET', `/api/articles/${a.id}/changes?limit=50`, { headers: side.auth }), 200, 'list');
    const body = res.json();
    return body.data ?? body;
  };
  const firstMany = await count(many);
  const firstFew = await count(few);
  if (firstMany.changes?.length !== 50) throw new Error(`the article with ${ROWS} change sets listed ${firstMany.changes?.length}: ${JSON.stringify(firstMany).slice(0, 200)}`);
  const times = { few: [], many: [], manyNext: [], health: [] };
  for (let i = 0; i < SAMPLES + 20; i += 1) {
    const f = await timed(() => request(side.baseUrl, 'GET', `/api/articles/${few.id}/changes?limit=50`, { headers: side.auth }));
    const m = await timed(() => request(side.baseUrl, 'GET', `/api/articles/${many.id}/changes?limit=50`, { headers: side.auth }));
    const n = await timed(() => request(side.baseUrl, 'GET', `/api/articles/${many.id}/changes?limit=50&cursor=${encodeURIComponent(firstMany.nextCursor)}`, { headers: side.auth }));
    const h = await timed(() => request(side.baseUrl, 'GET', '/_health'));
    for (const x of [f, m, n]) if (x.res.status !== 200) throw new Error(`list: ${x.res.status} ${x.res.text.slice(0, 200)}`);
    if (i >= 20) {
      times.few.push(f.ms);
      times.many.push(m.ms);
      times.manyNext.push(n.ms);
      times.health.push(h.ms);
    }
  }
  return {
    seeded,
    few: { changeSets: firstFew.changes.length, ...stats(times.few) },
    many: { changeSets: ROWS + firstFew.changes.length, ...stats(times.many) },
    manyNextPage: stats(times.manyNext),
    health: stats(times.health),
    manyToFew: round(pct(times.many, 50) / pct(times.few, 50)),
  };
}

/**
 * Every figure above. `after`/`before` are bench/before.js targets (before may be null);
 * `startServer(env, target)` and `keyOn(baseUrl)` are bench/run.js's.
 */
async function changesBench({ after, before, startServer, keyOn, log = console.log }) {
  const started = Date.now();
  let pre = null;
  let built = null;
  const wanted = process.env.BENCH_CHANGES_BEFORE;
  if (wanted !== 'false') {
    if (wanted) built = await prepareBefore(wanted, log);
    else if (before && !hasChangeSets(before.commit)) pre = before;
    else {
      const commit = commitBeforeChangeSets();
      if (commit) built = await prepareBefore(commit, log);
    }
    pre ??= built;
  }
  const servers = [];
  try {
    log('Change sets: starting a server...');
    const a = await startServer({}, after);
    servers.push(a);
    const auth = await keyOn(a.baseUrl);
    const side = { label: after.label, baseUrl: a.baseUrl, auth, article: await articleOn(a.baseUrl, auth, 'Writes', 200) };
    const out = { samples: SAMPLES };
    if (pre) {
      log(`Change sets: starting a server of the code before them (${pre.label})...`);
      const b = await startServer({}, pre);
      servers.push(b);
      const bAuth = await keyOn(b.baseUrl);
      const other = { label: pre.label, baseUrl: b.baseUrl, auth: bAuth, article: await articleOn(b.baseUrl, bAuth, 'Writes', 200) };
      log(`Change sets: the same PATCH with and without change sets, alternating (${SAMPLES} each)...`);
      out.write = { beforeRef: pre.ref, beforeCommit: pre.commit, ...(await writeComparison([side, other])) };
      await b.stop();
    } else out.write = { skipped: wanted === 'false' ? 'BENCH_CHANGES_BEFORE=false' : 'no commit before change sets found' };
    const revertSide = { ...side, article: await articleOn(a.baseUrl, auth, 'Reverts', 200) };
    log(`Change sets: ${REVERTS} reverts of one change set in a 200-section article...`);
    out.revert = (await revertTimes(revertSide)) ?? { skipped: 'this code answers no changeSet' };
    log(`Change sets: seeding ${ROWS} change sets by SQL and listing the newest 50 (${SAMPLES} each)...`);
    out.listing = await listing(side, a.dbFile);
    out.seconds = Math.round((Date.now() - started) / 1000);
    return out;
  } finally {
    for (const s of servers) await s.stop();
    built?.remove();
  }
}

function changesTable(c) {
  const ms = (x) => (x ? `median ${x.medianMs} ms, p99 ${x.p99Ms} ms` : 'n/a');
  const lines = ['Change sets (issue 34), one client, requests one at a time:'];
  if (c.error) return `${lines[0]} failed: ${c.error}`;
  const w = c.write;
  if (w.skipped) lines.push(`  the same PATCH before change sets: n/a (${w.skipped})`);
  else {
    lines.push(`  PATCH of a section, 200 sections, with change sets (${w.after.label}):   ${ms(w.after.patch)}; /_health ${ms(w.after.health)}`);
    lines.push(`  the same PATCH before them (${w.before.label}):${' '.repeat(Math.max(1, w.after.label.length - w.before.label.length + 20))}${ms(w.before.patch)}; /_health ${ms(w.before.health)}`);
    lines.push(`  with / without change sets: ${w.ratio}x (against each /_health: ${w.ratioToHealthNormalised}x; target within ${w.target}x)`);
  }
  const r = c.revert;
  if (r.skipped) lines.push(`  revert of one change set: n/a (${r.skipped})`);
  else {
    lines.push(`  revert of one change set in a ${r.sections}-section article: ${ms(r.revert)} (dry run ${ms(r.dryRun)}); the PATCH it reverts ${ms(r.patch)}: ${r.revertToPatch}x`);
  }
  const l = c.listing;
  lines.push(`  newest 50 change sets, article with ${l.few.changeSets}:      ${ms(l.few)}`);
  lines.push(`  newest 50 change sets, article with ${l.many.changeSets}: ${ms(l.many)}; ${l.manyToFew}x the one with ${l.few.changeSets} (target: as fast)`);
  lines.push(`  the next 50 (cursor), article with ${l.many.changeSets}:  ${ms(l.manyNextPage)}; /_health ${ms(l.health)}`);
  lines.push(`  (${l.seeded.rows} rows seeded by SQL in ${l.seeded.seconds} s; ${c.seconds} s in all)`);
  return lines.join('\n');
}

module.exports = { changesBench, changesTable };
