'use strict';
/**
 * Benchmark cases of issue 11 (item 3), for bench/run.js: inputs that used to keep the event
 * loop busy for seconds to minutes, at the sizes the issue reported. Each is sent while another
 * connection polls GET /_health every 10 ms; the longest wait for a health answer (or between
 * two answers) is the event loop's longest stall as any other client saw it. An idle baseline
 * is measured the same way.
 *
 *   const { hostileCases } = require('./event-loop');
 *   const rows = await hostileCases({ baseUrl, apiKey, request });
 *
 * Also times the one-paragraph section PATCH just under and just over WORKER_INLINE_MAX_CHARS
 * (parsed on the main thread, and in a worker), to show what the worker round trip costs.
 */
const { whilePolled } = require('../tests/helpers/poll-health');
const hostile = require('../tests/fixtures/hostile.js');

const INLINE_MAX = 1000; // WORKER_INLINE_MAX_CHARS's default
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const kb = (text) => `${Math.round(Buffer.byteLength(text) / 1024).toLocaleString('en')} KB`;

/**
 * `only` (a RegExp, from BENCH_ONLY) keeps the cases whose name it matches; `jwt` makes the
 * suggest key of the suggestion case.
 */
async function hostileCases({ baseUrl, apiKey, jwt, request, only }) {
  const auth = { authorization: `Bearer ${apiKey}` };
  const post = (path, body) => () => request(baseUrl, 'POST', path, { headers: auth, body });
  const wanted = (name) => !only || only.test(name);

  // Articles to publish: sections of 2,125 relative links each, added one at a time.
  async function linksArticle(sections) {
    const first = await request(baseUrl, 'POST', '/api/articles', { headers: auth, body: { title: 'Links', markdown: hostile.relativeLinks(2125) } });
    if (first.status !== 201) throw new Error(`links article: ${first.status} ${first.text.slice(0, 200)}`);
    const id = first.json().data.article.id;
    for (let i = 1; i < sections; i += 1) {
      const res = await request(baseUrl, 'POST', `/api/articles/${id}/sections`, { headers: auth, body: { markdown: hostile.relativeLinks(2125) } });
      if (res.status !== 201) throw new Error(`links section: ${res.status} ${res.text.slice(0, 200)}`);
    }
    return id;
  }
  const publishA = wanted('publish, 17,000 relative links') ? await linksArticle(8) : null; // 17,000 links, about 280 KB
  const publishB = wanted('publish, 25,500 relative links') ? await linksArticle(12) : null; // 25,500 links, about 430 KB

  // Issue 25, items 1 and 3: big diffs (dry run, suggestion) and replaceText past the limit.
  async function articleOf(markdown) {
    const res = await request(baseUrl, 'POST', '/api/articles', { headers: auth, body: { title: 'Edits', markdown } });
    if (res.status !== 201) throw new Error(`edits article: ${res.status} ${res.text.slice(0, 200)}`);
    return { id: res.json().data.article.id, anchor: res.json().data.outline[0].anchor };
  }
  const editCases = [];
  // 10,000 lines is the size; 5,000 also, as under load the 10,000-line Markdown split
  // itself (micromark is super-linear in the lines of one paragraph) may reach the worker deadline.
  for (const n of [10000, 5000]) {
    const count = n.toLocaleString('en');
    if (wanted(`dry run replacing ${count} lines`)) {
      const lines = await articleOf(hostile.manyLines(n));
      const body = { dryRun: true, ops: [{ op: 'replace', section: lines.anchor, markdown: hostile.manyLines(n, 'new') }] };
      editCases.push({ name: `dry run replacing ${count} lines`, size: kb(body.ops[0].markdown), send: post(`/api/articles/${lines.id}/edits`, body) });
    }
    if (wanted(`suggest key replaceText of ${count} lines (202)`) && jwt) {
      const lines = await articleOf(hostile.manyLines(n));
      const made = await request(baseUrl, 'POST', '/api/keys', { headers: { authorization: `Bearer ${jwt}` }, body: { name: 'bench suggester', scope: 'suggest' } });
      if (made.status !== 201) throw new Error(`suggest key: ${made.status} ${made.text.slice(0, 200)}`);
      const suggester = { authorization: `Bearer ${made.json().data.secret}` };
      const body = { ops: [{ op: 'replaceText', section: lines.anchor, find: '.', replace: '!', count: n }] };
      editCases.push({
        name: `suggest key replaceText of ${count} lines (202)`,
        size: kb(hostile.manyLines(n)),
        send: () => request(baseUrl, 'POST', `/api/articles/${lines.id}/edits`, { headers: suggester, body }),
      });
    }
  }
  for (const chars of [1000, 5000]) {
    const name = `replaceText of every "aa" in 200 KB of "a" by ${chars.toLocaleString('en')} characters`;
    if (!wanted(name)) continue;
    const letters = await articleOf(hostile.sameLetter(200_000));
    const body = { ops: [{ op: 'replaceText', section: letters.anchor, find: 'aa', replace: 'b'.repeat(chars), count: 100_000 }] };
    editCases.push({ name, size: '195 KB', send: post(`/api/articles/${letters.id}/edits`, body) });
  }

  const words = `## Prose\n\n${hostile.prose(200 * 1024)}`;
  const html = hostile.htmlPage(1.9 * 1024 * 1024);
  const images = hostile.nestedImages(2600);
  const emphasis = hostile.emphasisRun(140 * 1024);
  const footnotes = hostile.footnotes(5000);
  const table = hostile.table(20000);
  const definitions = hostile.headingsAndDefinitions(1100);
  const yaml = hostile.frontMatterKeys(30000);
  const svg40 = hostile.svgAttributes(40000);
  const svg200 = hostile.svgAttributes(200000);
  const cases = [
    { name: 'words: 200 KB of prose in one section', size: kb(words), send: post('/api/articles', { title: 'Words', markdown: words }) },
    { name: 'HTML import, 1.9 MB', size: kb(html), send: post('/api/articles/import', { html }) },
    { name: 'nested image labels', size: kb(images), send: post('/api/articles', { title: 'Images', markdown: images }) },
    { name: 'runs of emphasis', size: kb(emphasis), send: post('/api/articles', { title: 'Emphasis', markdown: emphasis }) },
    { name: '5,000 footnotes', size: kb(footnotes), send: post('/api/articles', { title: 'Footnotes', markdown: footnotes }) },
    { name: '20,000-row table', size: kb(table), send: post('/api/articles', { title: 'Table', markdown: table }) },
    { name: 'headings x link definitions', size: kb(definitions), send: post('/api/articles', { title: 'Definitions', markdown: definitions }) },
    { name: 'YAML front matter, 30,000 keys', size: kb(yaml), send: post('/api/articles/import', { markdown: yaml }) },
    {
      name: 'SVG, 40,000 attributes',
      size: kb(svg40),
      send: () => request(baseUrl, 'POST', '/api/upload', { headers: { ...auth, 'content-type': 'image/svg+xml', 'x-filename': 'a.svg' }, body: svg40 }),
    },
    {
      name: 'SVG, 200,000 attributes',
      size: kb(svg200),
      send: () => request(baseUrl, 'POST', '/api/upload', { headers: { ...auth, 'content-type': 'image/svg+xml', 'x-filename': 'b.svg' }, body: svg200 }),
    },
    { name: 'publish, 17,000 relative links', size: '280 KB', send: post(`/api/articles/${publishA}/publish`) },
    { name: 'publish, 25,500 relative links', size: '430 KB', send: post(`/api/articles/${publishB}/publish`) },
    ...editCases,
  ].filter((c) => wanted(c.name));

  const idle = await whilePolled(baseUrl, () => sleep(2000));
  const rows = [{ name: 'idle (baseline)', size: '', status: '', ms: 0, stallMs: idle.longestWaitMs }];
  for (const c of cases) {
    process.stdout.write(`Hostile input: ${c.name}... `);
    const started = performance.now();
    const { result: res, longestWaitMs } = await whilePolled(baseUrl, c.send);
    const r = { status: res.status, ms: performance.now() - started, stallMs: longestWaitMs };
    let outcome = String(r.status);
    if (r.status >= 400) {
      try {
        outcome += ` ${JSON.parse(res.text).error.code}`;
      } catch {
        // not our envelope
      }
    }
    rows.push({ name: c.name, size: c.size, status: outcome, ms: Math.round(r.ms), stallMs: r.stallMs });
    console.log(`${outcome} in ${Math.round(r.ms)} ms, longest stall ${Math.round(r.stallMs)} ms`);
  }
  return rows.map((r) => ({ ...r, stallMs: Math.round(r.stallMs) }));
}

/** Two PATCH bodies of one paragraph: just under the inline threshold, and just over it. */
function thresholdBodies() {
  const paragraph = (chars) => `## Paragraph\n\n${hostile.prose(chars - 15)}`;
  return { inline: paragraph(INLINE_MAX - 10), worker: paragraph(INLINE_MAX + 10) };
}

function hostileTable(rows) {
  const lines = [
    ['hostile input', 'size', 'answer', 'request ms', 'longest stall ms'],
    ...rows.map((r) => [r.name, r.size, r.status, r.ms ? String(r.ms) : '', String(r.stallMs)]),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines.map((l) => l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}

module.exports = { hostileCases, thresholdBodies, hostileTable, INLINE_MAX };
