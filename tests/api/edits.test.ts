/**
 * CONTRACT section 11: POST /api/articles/{id}/edits, all or nothing, `$N` references, dry runs
 * with unified diffs, errors naming ops[N]; and concurrency with another writer.
 */
import { client, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, withFailingWrite, type TestApp } from '../helpers/strapi';

let app: TestApp;
let a: Client;

beforeAll(async () => {
  app = await startApp();
  a = client(app, await createKey(app, await registerUser(app, 'alice'), 'writer bot'));
}, 180_000);
afterAll(() => app?.close());

const titles = (outline: { title: string }[]) => outline.map((e) => e.title);

/** Everything a reader can see of an article's sections: outline with revs and every section's content. */
async function snapshot(id: string) {
  const outline = (await a.get(`/api/articles/${id}/outline?include=rev`)).body.data.outline;
  const sections = await Promise.all(outline.map((e) => a.get(`/api/articles/${id}/sections/${e.anchor}`).then((r) => r.body.data.section)));
  const trash = (await a.get(`/api/articles/${id}/trash`)).body.data.sections;
  return { outline, sections, trash };
}

describe('POST /api/articles/{id}/edits', () => {
  it('applies insert, replace, move, delete and replaceText in order, with $N references, and answers results, outline and ETag', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(4) });
    const [s1, s2, s3, s4] = outline.map((e) => e.anchor);
    const res = await a.post(`/api/articles/${article.id}/edits`, {
      ops: [
        { op: 'insert', markdown: '## New A\n\nAlpha text.\n\n## New B', after: s1 },
        { op: 'replace', section: s2, markdown: '## S2 edited\n\nBody of S2.' },
        { op: 'move', section: '$0.1', before: s1 },
        { op: 'delete', section: s3 },
        { op: 'replaceText', find: 'Alpha', replace: 'Omega', section: '$0' },
        { op: 'replaceText', find: 'Body of', replace: 'Text of', count: 3 },
      ],
    });
    expect(res.status).toBe(200);
    const { results, outline: after } = res.body.data;
    expect(titles(after)).toEqual(['New B', 'S1', 'New A', 'S2 edited', 'S4']);
    expect(results.map((r) => r.op)).toEqual(['insert', 'replace', 'move', 'delete', 'replaceText', 'replaceText']);
    expect(titles(results[0].added)).toEqual(['New A', 'New B']);
    expect(titles(results[1].updated)).toEqual(['S2 edited']);
    expect(results[3].removed).toEqual([s3]);
    expect(results[4]).toMatchObject({ replaced: 1 });
    expect(results[5]).toMatchObject({ replaced: 3 });
    expect(results.every((r) => r.diff === undefined)).toBe(true);
    expect(res.headers.etag).toBe((await a.get(`/api/articles/${article.id}/outline`)).headers.etag);
    const newA = after.find((e) => e.title === 'New A').anchor;
    expect((await a.get(`/api/articles/${article.id}/sections/${newA}`)).body.data.section.markdown).toBe('## New A\n\nOmega text.');
    expect((await a.get(`/api/articles/${article.id}/sections/${s4}`)).body.data.section.markdown).toBe('## S4\n\nText of S4.');
    expect((await a.get(`/api/articles/${article.id}/sections/${s1}`)).body.data.section.markdown).toBe('## S1\n\nText of S1.');
  });

  it('writes each replaced section its own content, revision and history, also when a later op reads, changes or deletes it', async () => {
    // Replaced sections are written together (one UPDATE): each must still get its own values, and
    // a later op on one of them must see (and keep) what the earlier one wrote.
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(6) });
    const [s1, s2, s3, s4, s5, s6] = outline.map((e) => e.anchor);
    const res = await a.post(`/api/articles/${article.id}/edits`, {
      ops: [
        { op: 'replace', section: s1, markdown: '# One\n\nThe first body, in six words.' },
        { op: 'replace', section: s2, markdown: 'No heading here.' },
        { op: 'replace', section: s3, html: '<h3>Three</h3><p>From the canvas.</p>' },
        { op: 'replace', section: s4, markdown: '## Four\n\nOnce.' },
        { op: 'replace', section: s4, markdown: '## Four\n\nTwice, quokka.' },
        { op: 'replace', section: s5, markdown: '## Five\n\nReplaced, then deleted.' },
        { op: 'delete', section: s5 },
        { op: 'replace', section: s6, markdown: '## Six\n\nBefore the text change.' },
        { op: 'replaceText', section: s6, find: 'Before', replace: 'After' },
        { op: 'move', section: s1, after: s6 },
      ],
    });
    expect(res.status).toBe(200);
    expect(titles(res.body.data.outline)).toEqual(['', 'Three', 'Four', 'Six', 'One']);
    const read = async (anchor: string) => (await a.get(`/api/articles/${article.id}/sections/${anchor}`)).body.data.section;
    expect(await read(s1)).toMatchObject({ level: 1, title: 'One', words: 7, source: 'markdown', markdown: '# One\n\nThe first body, in six words.', html: '<h1>One</h1>\n<p>The first body, in six words.</p>' });
    expect(await read(s2)).toMatchObject({ level: 0, title: '', words: 3, source: 'markdown', markdown: 'No heading here.' });
    expect(await read(s3)).toMatchObject({ level: 3, title: 'Three', source: 'html', markdown: null, html: '<h3>Three</h3><p>From the canvas.</p>' });
    expect(await read(s4)).toMatchObject({ title: 'Four', markdown: '## Four\n\nTwice, quokka.' });
    expect(await read(s6)).toMatchObject({ title: 'Six', markdown: '## Six\n\nAfter the text change.' });
    const revs = Object.fromEntries((await a.get(`/api/articles/${article.id}/outline?include=rev`)).body.data.outline.map((e) => [e.anchor, e.rev]));
    expect([s1, s2, s3, s4, s6].map((s) => revs[s])).toEqual([2, 2, 2, 3, 3]);
    const history = (await a.get(`/api/articles/${article.id}/sections/${s4}/revisions`)).body.data.revisions;
    expect(history.map((r) => r.rev)).toEqual([3, 2, 1]);
    expect((await a.get(`/api/articles/${article.id}/sections/${s4}/revisions/2`)).body.data.revision.markdown).toBe('## Four\n\nOnce.');
    expect((await a.get(`/api/articles/${article.id}/sections/${s6}/revisions/2`)).body.data.revision.markdown).toBe('## Six\n\nBefore the text change.');
    const trash = (await a.get(`/api/articles/${article.id}/trash`)).body.data.sections;
    expect(trash.map((t) => t.title)).toEqual(['Five']);
    // The search index follows the rows' last content.
    const search = async (q: string) => (await a.get(`/api/articles/${article.id}/search?q=${q}`)).body.data.matches.map((m) => m.title);
    expect(await search('quokka')).toEqual(['Four']);
    expect(await search('Once')).toEqual([]);
    expect(await search('canvas')).toEqual(['Three']);
  });

  it('dryRun: the same answer with unified diffs, and nothing written', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    const before = await snapshot(article.id);
    const tag = (await a.get(`/api/articles/${article.id}/outline`)).headers.etag;
    const ops = [
      { op: 'replaceText', find: 'Body of S2', replace: 'Changed S2', section: outline[1].anchor },
      { op: 'insert', markdown: '## Added', after: outline[0].anchor },
      { op: 'delete', section: outline[2].anchor },
    ];
    const dry = await a.post(`/api/articles/${article.id}/edits`, { ops, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.headers.etag).toBe(tag);
    const [replaced, inserted, deleted] = dry.body.data.results;
    expect(replaced.diff).toContain(`--- a/${outline[1].anchor}`);
    expect(replaced.diff).toContain('-Body of S2.');
    expect(replaced.diff).toContain('+Changed S2.');
    expect(inserted.diff).toContain('+## Added');
    expect(deleted.diff).toContain('-## S3');
    expect(await snapshot(article.id)).toEqual(before);
    expect((await a.get(`/api/articles/${article.id}/outline`)).headers.etag).toBe(tag);

    const real = await a.post(`/api/articles/${article.id}/edits`, { ops });
    expect(titles(real.body.data.outline)).toEqual(titles(dry.body.data.outline));
    expect(real.body.data.results.map(({ diff, ...rest }) => rest).map((r) => r.op)).toEqual(['replaceText', 'insert', 'delete']);
  });

  it('a failure at op 57 of 60 leaves the article exactly as it was, and names ops[57]', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    const before = await snapshot(article.id);
    const ops: unknown[] = Array.from({ length: 60 }, (_, i) => ({ op: 'insert', markdown: `## Added ${i}`, after: outline[0].anchor }));
    ops[20] = { op: 'replace', section: outline[1].anchor, markdown: '## Replaced' };
    ops[30] = { op: 'delete', section: outline[2].anchor };
    ops[57] = { op: 'replace', section: 'ffffffff', markdown: '## Nowhere' };
    const error = expectFailure(await a.post(`/api/articles/${article.id}/edits`, { ops }), 404, 'not-found');
    expect(error.message).toMatch(/^ops\[57\] \(replace\): /);
    expect(error.nextAction).toContain(`GET /api/articles/${article.id}/outline`);
    expect(await snapshot(article.id)).toEqual(before);
  });

  it('rolls back a failure of the database itself midway (nothing half-written)', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    const before = await snapshot(article.id);
    await withFailingWrite(app, { table: 'quire_sections', event: 'INSERT', when: "NEW.title = 'Boom'" }, async () => {
      const res = await a.post(`/api/articles/${article.id}/edits`, {
        ops: [
          { op: 'replace', section: outline[0].anchor, markdown: '## First changed' },
          { op: 'delete', section: outline[1].anchor },
          { op: 'insert', markdown: '## Boom' },
        ],
      });
      expect(res.status).toBe(500);
    });
    expect(await snapshot(article.id)).toEqual(before);
  });

  it('checks ifMatch: the outline\'s in the body or header, a section\'s per op; 412 names the op and changes nothing', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const path = `/api/articles/${article.id}/edits`;
    const outlineTag = (await a.get(`/api/articles/${article.id}/outline`)).headers.etag;
    const s1Tag = (await a.get(`/api/articles/${article.id}/sections/${outline[0].anchor}`)).headers.etag;
    const ok = await a.post(path, { ifMatch: outlineTag, ops: [{ op: 'replace', section: outline[0].anchor, markdown: '## S1b', ifMatch: s1Tag }] });
    expect(ok.status).toBe(200);
    const stale = expectFailure(await a.post(path, { ifMatch: outlineTag, ops: [{ op: 'insert', markdown: '## X' }] }), 412, 'precondition-failed');
    expect(stale.nextAction).toContain(`GET /api/articles/${article.id}/outline`);
    expectFailure(await a.post(path, { ops: [{ op: 'insert', markdown: '## X' }] }).set('If-Match', outlineTag), 412, 'precondition-failed');
    const opStale = expectFailure(
      await a.post(path, { ops: [{ op: 'insert', markdown: '## X' }, { op: 'delete', section: outline[0].anchor, ifMatch: s1Tag }] }),
      412,
      'precondition-failed',
    );
    expect(opStale.message).toMatch(/^ops\[1\] \(delete\): /);
    expect(opStale.nextAction).toContain(`GET /api/articles/${article.id}/sections/${outline[0].anchor}`);
    const malformed = expectFailure(await a.post(path, { ops: [{ op: 'delete', section: outline[0].anchor, ifMatch: 'nope' }] }), 400, 'invalid-argument');
    expect(malformed.message).toMatch(/^ops\[0\] \(delete\): ifMatch/);
    expectFailure(await a.post(path, { ifMatch: 'nope', ops: [{ op: 'insert', markdown: '## X' }] }), 400, 'invalid-argument');
    expect(titles((await a.get(`/api/articles/${article.id}/outline`)).body.data.outline)).toEqual(['S1b', 'S2']);
  });
});

describe('what bad input gets', () => {
  let id: string;
  let anchors: string[];
  beforeAll(async () => {
    const { article, outline } = await newArticle(a, { title: 'Bad', markdown: sectionsDoc(3) });
    id = article.id;
    anchors = outline.map((e) => e.anchor);
    await a.patch(`/api/articles/${id}/sections/${anchors[2]}`, { html: '<h2>Canvas</h2><p>Body of canvas.</p>' });
  });

  const post = (body: unknown) => a.post(`/api/articles/${id}/edits`, body);

  it('refuses an empty op list, over 100 ops, an unknown op or field, naming ops[N] and the field', async () => {
    const cases: [unknown, RegExp, RegExp][] = [
      [{}, /^ops is required\.$/, /ops/],
      [{ ops: [] }, /^ops must hold at least one operation\.$/, /1 to 100/],
      [{ ops: Array(101).fill({ op: 'insert', markdown: '## x' }) }, /^ops must hold at most 100 operations\.$/, /1 to 100/],
      [{ ops: [{ op: 'insert', markdown: '## x' }, { op: 'frobnicate' }] }, /^ops\[1\]: op "frobnicate" is not an operation\.$/, /insert, replace, move, delete, replaceText/],
      [{ ops: [{ markdown: '## x' }] }, /^ops\[0\]: no "op" is not an operation\.$/, /"op"/],
      [{ ops: [{ op: 'insert', markdown: '## x', colour: 'red' }] }, /^ops\[0\] \(insert\): Unknown field: colour\.$/, /insert takes/],
      [{ ops: [{ op: 'insert', markdown: '' }] }, /^ops\[0\] \(insert\): markdown must not be empty\.$/, /markdown/],
      [{ ops: [{ op: 'replace', section: anchors[0] }] }, /^ops\[0\] \(replace\): .*markdown or html is required/, /"markdown" or "html"/],
      [{ ops: [{ op: 'move', section: anchors[0] }] }, /^ops\[0\] \(move\): .*after or before is required/, /exactly one/],
      [{ ops: [{ op: 'replaceText', find: '', replace: 'x' }] }, /^ops\[0\] \(replaceText\): find must not be empty\.$/, /"find"/],
      [{ ops: [{ op: 'replaceText', find: 'a', replace: 'x', count: 0 }] }, /^ops\[0\] \(replaceText\): count must be at least 1\.$/, /count/],
      [{ ops: 'insert' }, /^ops must be an array\.$/, /ops/],
      [{ ops: [{ op: 'delete', section: anchors[0] }], dryRun: 'yes' }, /^dryRun must be a boolean\.$/, /dryRun/],
      [{ ops: [{ op: 'delete', section: anchors[0] }], extra: 1 }, /^Unknown field: extra\.$/, /.+/],
    ];
    for (const [body, message, next] of cases) {
      const error = expectFailure(await post(body), 400, 'invalid-argument');
      expect([JSON.stringify(body).slice(0, 80), error.message]).toEqual([JSON.stringify(body).slice(0, 80), expect.stringMatching(message)]);
      expect(error.nextAction).toMatch(next);
    }
  });

  it('refuses a $N that points forward, at itself, past what an op produced, or at an op that produced nothing', async () => {
    const cases: [unknown[], RegExp][] = [
      [[{ op: 'insert', markdown: '## x', after: '$1' }, { op: 'insert', markdown: '## y' }], /^ops\[0\] \(insert\): \$1 points at ops\[1\], which does not come before/],
      [[{ op: 'insert', markdown: '## x', after: '$0' }], /^ops\[0\] \(insert\): \$0 points at ops\[0\]/],
      [[{ op: 'delete', section: anchors[0] }, { op: 'insert', markdown: '## y', after: '$0' }], /^ops\[1\] \(insert\): \$0 points at ops\[0\], which produced no section/],
      [[{ op: 'insert', markdown: '## y' }, { op: 'delete', section: '$0.3' }], /^ops\[1\] \(delete\): \$0\.3 points past the 1 section/],
    ];
    for (const [ops, message] of cases) {
      const error = expectFailure(await post({ ops }), 400, 'invalid-argument');
      expect(error.message).toMatch(message);
      expect(error.nextAction).toMatch(/\$N/);
    }
  });

  it('refuses replaceText whose count does not match (saying how many there are), counting html sections\' text too', async () => {
    const none = expectFailure(await post({ ops: [{ op: 'replaceText', find: 'Nowhere', replace: 'x' }] }), 400, 'invalid-argument');
    expect(none.message).toMatch(/^ops\[0\] \(replaceText\): find occurs 0 times in the article's sections, not 1/);
    const many = expectFailure(await post({ ops: [{ op: 'replaceText', find: 'Body of', replace: 'x' }] }), 400, 'invalid-argument');
    expect(many.message).toMatch(/find occurs 3 times/);
    expect(many.nextAction).toMatch(/"count": 3/);
    const one = expectFailure(await post({ ops: [{ op: 'replaceText', find: 'Body', replace: 'x', section: anchors[0], count: 3 }] }), 400, 'invalid-argument');
    expect(one.message).toMatch(new RegExp(`find occurs 1 time in section ${anchors[0]}, not 3`));
    // An html section's text is edited (CONTRACT 20; tests/api/html-sections.test.ts), its diff is of its HTML.
    const html = await post({ ops: [{ op: 'replaceText', find: 'canvas', replace: 'x', section: anchors[2] }], dryRun: true });
    expect(html.status).toBe(200);
    expect(html.body.data.results[0].diff).toContain('-<h2>Canvas</h2><p>Body of canvas.</p>\n+<h2>Canvas</h2><p>Body of x.</p>');
  });

  it('answers 404 naming the op for an unknown anchor, and 400 for an ambiguous one', async () => {
    const missing = expectFailure(await post({ ops: [{ op: 'insert', markdown: '## x' }, { op: 'move', section: anchors[0], after: 'abcdef12' }] }), 404, 'not-found');
    expect(missing.message).toMatch(/^ops\[1\] \(move\): /);
    expectFailure(await a.post(`/api/articles/00000000-0000-4000-8000-000000000000/edits`, { ops: [{ op: 'insert', markdown: '## x' }] }), 404, 'not-found');
  });
});

describe('edits and a concurrent writer', () => {
  it('serialises with single-section writes: an edits request and PATCHes on other sections all land, none half-applied', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(8) });
    const base = `/api/articles/${article.id}`;
    const tags = await Promise.all(outline.map((e) => a.get(`${base}/sections/${e.anchor}`).then((r) => r.headers.etag)));
    const results = await Promise.all([
      a.post(`${base}/edits`, {
        ops: outline.slice(0, 4).map((e, i) => ({ op: 'replace', section: e.anchor, markdown: `## E${i}`, ifMatch: tags[i] })),
      }),
      ...outline.slice(4).map((e, i) => a.patch(`${base}/sections/${e.anchor}`, { markdown: `## P${i}` }).set('If-Match', tags[4 + i])),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(titles((await a.get(`${base}/outline`)).body.data.outline)).toEqual(['E0', 'E1', 'E2', 'E3', 'P0', 'P1', 'P2', 'P3']);
  });

  it('a racing PATCH on a section the edits touch: either the edits apply whole or fail whole with 412', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(4) });
    const base = `/api/articles/${article.id}`;
    const tag = (await a.get(`${base}/sections/${outline[3].anchor}`)).headers.etag;
    const ops = [
      ...outline.slice(0, 3).map((e, i) => ({ op: 'replace', section: e.anchor, markdown: `## E${i}` })),
      { op: 'replace', section: outline[3].anchor, markdown: '## E3', ifMatch: tag },
    ];
    const [edits, patch] = await Promise.all([a.post(`${base}/edits`, { ops }), a.patch(`${base}/sections/${outline[3].anchor}`, { markdown: '## P3' }).set('If-Match', tag)]);
    const now = titles((await a.get(`${base}/outline`)).body.data.outline);
    expect([edits.status, patch.status].sort()).toEqual([200, 412]);
    if (edits.status === 200) expect(now).toEqual(['E0', 'E1', 'E2', 'E3']);
    else expect(now).toEqual(['S1', 'S2', 'S3', 'P3']);
  });
});
