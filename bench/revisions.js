'use strict';
/**
 * Benchmark cases of issue 12 (item 8, search excepted), for bench/run.js: one client, sequential
 * requests, medians, each case interleaved with GET /_health so that the ratio to /_health is
 * measured under the same load (ratio = /_health's median / the case's median: 1 means as fast
 * as Strapi's floor, 0.25 four times slower).
 *
 *   - GET section with If-None-Match (304);
 *   - PATCH section with If-Match (history on), the ETag of each answer sent with the next;
 *   - POST edits of 10 replace ops, against one single-section PATCH;
 *   - PATCH of a section in an article of 2,000 sections, against one of 20;
 *   - PATCH of a section with 100 revisions, against one with none (a fresh section each time);
 *   - history off: the same If-Match PATCH on a second server started with QUIRE_HISTORY=false.
 *
 *   const { revisionCases, revisionTable } = require('./revisions');
 *   const r = await revisionCases({ baseUrl, auth, request, expectStatus, sectionsDoc, samples, historyOffUrl });
 */
const median = (xs) => Number([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(2));

async function timed(fn) {
  const started = process.hrtime.bigint();
  const res = await fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, res };
}

async function revisionCases({ baseUrl, auth, request, expectStatus, sectionsDoc, samples = 200, historyOff }) {
  const json = { ...auth };
  const create = async (sections, title, url = baseUrl, headers = json) => {
    const res = await expectStatus(request(url, 'POST', '/api/articles', { headers, body: { title, markdown: sectionsDoc(sections) } }), 201, 'create article');
    const data = res.json().data;
    return { id: data.article.id, outline: data.outline };
  };
  const small = await create(20, 'Revisions: small');
  const large = await create(2000, 'Revisions: large');
  const body = (i) => ({ markdown: `## Section\n\nRevision ${i} of a short section, a few words of prose to render.` });
  const etagOf = (res) => res.headers.etag;

  // A section with 100 revisions, and the health baseline measured in the same loops.
  const deep = small.outline[3].anchor;
  for (let i = 0; i < 100; i += 1) await expectStatus(request(baseUrl, 'PATCH', `/api/articles/${small.id}/sections/${deep}`, { headers: json, body: body(i) }), 200, 'seed revisions');

  const times = {};
  const push = (name, ms) => (times[name] ??= []).push(ms);
  const health = async () => push('health', (await timed(() => request(baseUrl, 'GET', '/_health'))).ms);

  const cond = small.outline[5].anchor;
  let etag = etagOf(await request(baseUrl, 'GET', `/api/articles/${small.id}/sections/${cond}`, { headers: json }));
  const getPath = `/api/articles/${small.id}/sections/${small.outline[7].anchor}`;
  const getTag = etagOf(await request(baseUrl, 'GET', getPath, { headers: json }));
  const single = small.outline[9].anchor;
  const editTargets = small.outline.slice(10, 20).map((e) => e.anchor);
  const bigTarget = large.outline[1000].anchor;
  const smallTarget = small.outline[11].anchor;

  for (let i = 0; i < samples + 20; i += 1) {
    const keep = i >= 20;
    const record = (name, ms) => keep && push(name, ms);
    await health();
    const notModified = await timed(() => request(baseUrl, 'GET', getPath, { headers: { ...json, 'if-none-match': getTag } }));
    if (notModified.res.status !== 304) throw new Error(`304 case: ${notModified.res.status}`);
    record('get304', notModified.ms);

    const conditional = await timed(() => request(baseUrl, 'PATCH', `/api/articles/${small.id}/sections/${cond}`, { headers: { ...json, 'if-match': etag }, body: body(i) }));
    if (conditional.res.status !== 200) throw new Error(`If-Match PATCH: ${conditional.res.status} ${conditional.res.text.slice(0, 200)}`);
    etag = etagOf(conditional.res);
    record('patchIfMatch', conditional.ms);

    const one = await timed(() => request(baseUrl, 'PATCH', `/api/articles/${small.id}/sections/${single}`, { headers: json, body: body(i) }));
    record('patchSingle', one.ms);
    const ten = await timed(() =>
      request(baseUrl, 'POST', `/api/articles/${small.id}/edits`, { headers: json, body: { ops: editTargets.map((section) => ({ op: 'replace', section, ...body(i) })) } }),
    );
    if (ten.res.status !== 200) throw new Error(`edits: ${ten.res.status} ${ten.res.text.slice(0, 200)}`);
    record('edits10', ten.ms);

    record('patchLarge', (await timed(() => request(baseUrl, 'PATCH', `/api/articles/${large.id}/sections/${bigTarget}`, { headers: json, body: body(i) }))).ms);
    record('patchSmall', (await timed(() => request(baseUrl, 'PATCH', `/api/articles/${small.id}/sections/${smallTarget}`, { headers: json, body: body(i) }))).ms);

    // 100 revisions (kept at 100 or more by retention) against a section with none: a new one each time.
    record('patchDeep', (await timed(() => request(baseUrl, 'PATCH', `/api/articles/${small.id}/sections/${deep}`, { headers: json, body: body(i) }))).ms);
    const added = await request(baseUrl, 'POST', `/api/articles/${small.id}/sections`, { headers: json, body: body(i) });
    const fresh = /"added":\[\{"anchor":"([0-9a-f-]+)"/.exec(added.text)[1];
    record('patchFresh', (await timed(() => request(baseUrl, 'PATCH', `/api/articles/${small.id}/sections/${fresh}`, { headers: json, body: body(i) }))).ms);
    await request(baseUrl, 'DELETE', `/api/articles/${small.id}/sections/${fresh}`, { headers: json });
  }

  let historyOffMs = null;
  let historyOnSameRunMs = null;
  if (historyOff) {
    // Same PATCH with If-Match on a server without history, interleaved with the one with it.
    const off = await create(20, 'Revisions: history off', historyOff.baseUrl, historyOff.auth);
    const offAnchor = off.outline[5].anchor;
    let offTag = etagOf(await request(historyOff.baseUrl, 'GET', `/api/articles/${off.id}/sections/${offAnchor}`, { headers: historyOff.auth }));
    const on = [];
    const offTimes = [];
    for (let i = 0; i < samples + 20; i += 1) {
      const a = await timed(() => request(historyOff.baseUrl, 'PATCH', `/api/articles/${off.id}/sections/${offAnchor}`, { headers: { ...historyOff.auth, 'if-match': offTag }, body: body(i) }));
      if (a.res.status !== 200) throw new Error(`history off PATCH: ${a.res.status}`);
      offTag = etagOf(a.res);
      const b = await timed(() => request(baseUrl, 'PATCH', `/api/articles/${small.id}/sections/${cond}`, { headers: { ...json, 'if-match': etag }, body: body(i) }));
      etag = etagOf(b.res);
      if (i >= 20) {
        offTimes.push(a.ms);
        on.push(b.ms);
      }
    }
    historyOffMs = median(offTimes);
    historyOnSameRunMs = median(on);
  }

  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const ratio = (ms) => Number((m.health / ms).toFixed(3));
  return {
    samples,
    medianMs: m,
    ratioToHealth: Object.fromEntries(Object.entries(m).map(([k, v]) => [k, ratio(v)])),
    editsTenOverSingle: Number((m.edits10 / m.patchSingle).toFixed(2)),
    largeOverSmall: Number((m.patchLarge / m.patchSmall).toFixed(2)),
    deepOverFresh: Number((m.patchDeep / m.patchFresh).toFixed(2)),
    history: historyOffMs === null ? null : { onMs: historyOnSameRunMs, offMs: historyOffMs, offOverOn: Number((historyOffMs / historyOnSameRunMs).toFixed(2)), onOverOff: Number((historyOnSameRunMs / historyOffMs).toFixed(2)) },
  };
}

function revisionTable(r) {
  const rows = [
    ['GET section, If-None-Match (304)', r.medianMs.get304, r.ratioToHealth.get304],
    ['PATCH section, If-Match (history on)', r.medianMs.patchIfMatch, r.ratioToHealth.patchIfMatch],
    ['PATCH section (no If-Match)', r.medianMs.patchSingle, r.ratioToHealth.patchSingle],
    ['POST edits, 10 replace ops', r.medianMs.edits10, r.ratioToHealth.edits10],
    ['PATCH in a 20-section article', r.medianMs.patchSmall, r.ratioToHealth.patchSmall],
    ['PATCH in a 2,000-section article', r.medianMs.patchLarge, r.ratioToHealth.patchLarge],
    ['PATCH of a section with no revisions', r.medianMs.patchFresh, r.ratioToHealth.patchFresh],
    ['PATCH of a section with 100 revisions', r.medianMs.patchDeep, r.ratioToHealth.patchDeep],
  ];
  const lines = [
    `One client, ${r.samples} samples each, medians; GET /_health ${r.medianMs.health} ms in the same loops`,
    ...rows.map(([name, ms, ratio]) => `${name.padEnd(40)} ${String(ms).padStart(8)} ms  x /_health ${ratio}`),
    `edits of 10 ops / one PATCH: ${r.editsTenOverSingle}x; 2,000 / 20 sections: ${r.largeOverSmall}x; 100 revisions / none: ${r.deepOverFresh}x`,
  ];
  if (r.history) lines.push(`PATCH with If-Match, history on ${r.history.onMs} ms, off ${r.history.offMs} ms: throughput with history ${r.history.offOverOn}x of without`);
  return lines.join('\n');
}

module.exports = { revisionCases, revisionTable };
