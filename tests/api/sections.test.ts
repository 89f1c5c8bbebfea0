import { client, missingId, newArticle, sectionsDoc, sharedPrefix, type Client, type OutlineEntry } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, withFailingWrite, type TestApp } from '../helpers/strapi';

let app: TestApp;
let a: Client;

beforeAll(async () => {
  app = await startApp();
  a = client(app, await createKey(app, await registerUser(app, 'alice')));
});
afterAll(() => app?.close());

const SECTION_KEYS = ['anchor', 'html', 'id', 'level', 'markdown', 'source', 'title', 'words'];
const titles = (outline: OutlineEntry[]) => outline.map((e) => e.title);

/** Rows of the article's sections as stored: rank, rev and ids, to see what a write touched. */
async function storedRows(articleId: string) {
  const article = await app.strapi.db.query('plugin::quire.article').findOne({ where: { uuid: articleId }, select: ['id'] });
  return app.strapi.db.query('plugin::quire.section').findMany({ where: { articleId: article.id }, select: ['uuid', 'rank', 'rev', 'updatedAt'] });
}

describe('POST /api/articles/{id}/sections', () => {
  it('appends a Markdown body, split into one section per top-level heading', async () => {
    const { article } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const res = await a.post(`/api/articles/${article.id}/sections`, { markdown: '## New one\n\nText.\n\n## New two\n\n> # quoted\n' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(['added', 'changeSet', 'outline']);
    expect(res.body.data.added.map((e) => [e.level, e.title, e.source])).toEqual([
      [2, 'New one', 'markdown'],
      [2, 'New two', 'markdown'],
    ]);
    expect(titles(res.body.data.outline)).toEqual(['S1', 'S2', 'New one', 'New two']);
    expect(res.body.data.outline.slice(2)).toEqual(res.body.data.added);
    const fresh = await a.get(`/api/articles/${article.id}/outline`);
    expect(fresh.body.data.outline).toEqual(res.body.data.outline);
  });

  it('inserts after or before an anchor, writing only the new rows (no renumbering)', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(4) });
    const before = await storedRows(article.id);
    const after = await a.post(`/api/articles/${article.id}/sections`, { markdown: '## X', after: outline[1].anchor });
    expect(after.status).toBe(201);
    expect(titles(after.body.data.outline)).toEqual(['S1', 'S2', 'X', 'S3', 'S4']);
    const first = await a.post(`/api/articles/${article.id}/sections`, { markdown: '## Y\n\n## Z', before: outline[0].anchor.toUpperCase() });
    expect(titles(first.body.data.outline)).toEqual(['Y', 'Z', 'S1', 'S2', 'X', 'S3', 'S4']);
    const last = await a.post(`/api/articles/${article.id}/sections`, { markdown: '## W', after: outline[3].anchor, before: null });
    expect(titles(last.body.data.outline)).toEqual(['Y', 'Z', 'S1', 'S2', 'X', 'S3', 'S4', 'W']);
    const now = await storedRows(article.id);
    for (const row of before) expect(now.find((r) => r.uuid === row.uuid)).toEqual(row);
  });

  it('replaces the empty placeholder of an article that had no content', async () => {
    const { article } = await newArticle(a, { title: 'Empty' });
    const res = await a.post(`/api/articles/${article.id}/sections`, { markdown: '# First\n\nWords here.' });
    expect(res.status).toBe(201);
    expect(titles(res.body.data.outline)).toEqual(['First']);
  });

  it('refuses empty or blank markdown, a wrong type, both after and before, and unknown fields', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const path = `/api/articles/${article.id}/sections`;
    const cases: [unknown, RegExp, RegExp][] = [
      [{}, /^markdown is required\.$/, /markdown/],
      [{ markdown: '' }, /^markdown must not be empty\.$/, /markdown/],
      [{ markdown: ' \n\t\n' }, /^markdown must not be empty\.$/, /markdown/],
      [{ markdown: 42 }, /^markdown must be a string\.$/, /"markdown"/],
      [{ markdown: ['# a'] }, /^markdown must be a string\.$/, /"markdown"/],
      [{ body: '# a' }, /^markdown is required\.$/, /"markdown"/],
      [{ markdown: '# a', after: outline[0].anchor, before: outline[1].anchor }, /after and before/, /"after" or "before"/],
      [{ markdown: '# a', after: 5 }, /^after must be a string\.$/, /anchor/],
      [{ markdown: '# a', before: '' }, /^before must not be empty\.$/, /anchor/],
      [['# a'], /^body must be an object\.$/, /markdown/],
    ];
    for (const [body, message, next] of cases) {
      const error = expectFailure(await a.post(path, body), 400, 'invalid-argument');
      expect([JSON.stringify(body), error.message]).toEqual([JSON.stringify(body), expect.stringMatching(message)]);
      expect(error.nextAction).toMatch(next);
    }
    expect((await a.get(`/api/articles/${article.id}/outline`)).body.data.outline).toEqual(outline);
  });

  it('refuses an ambiguous anchor with "Use a longer anchor." and an unknown one with 404 naming the outline route', async () => {
    const { article, outline } = await newArticle(a, { title: 'Many', markdown: sectionsDoc(17) });
    const path = `/api/articles/${article.id}/sections`;
    const prefix = sharedPrefix(outline.map((e) => e.anchor));
    for (const body of [{ markdown: '# a', after: prefix }, { markdown: '# a', before: prefix }]) {
      const error = expectFailure(await a.post(path, body), 400, 'invalid-argument');
      expect(error.nextAction).toBe('Use a longer anchor.');
    }
    for (const anchor of [missingId(), 'zzzzzz', outline[0].anchor + 'x']) {
      const error = expectFailure(await a.post(path, { markdown: '# a', after: anchor }), 404, 'not-found');
      expect(error.nextAction).toContain(`GET /api/articles/${article.id}/outline`);
    }
    expect((await a.get(`/api/articles/${article.id}/outline`)).body.data.outline).toHaveLength(17);
  });

  it('answers 404 for a missing article and 401 without a credential', async () => {
    const error = expectFailure(await a.post(`/api/articles/${missingId()}/sections`, { markdown: '# a' }), 404, 'not-found');
    expect(error.nextAction).toMatch(/GET \/api\/articles/);
    expectFailure(await a.post('/api/articles/not-an-id/sections', { markdown: '# a' }), 404, 'not-found');
    expectFailure(await app.http.post(`/api/articles/${missingId()}/sections`).send({ markdown: '# a' }), 401, 'unauthenticated');
  });
});

describe('text over the size limit (issue 23 point 8)', () => {
  it('says how long it is in words, and the nextAction says to split it, on every route that takes section text', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(1) });
    const base = `/api/articles/${article.id}`;
    const big = 'x'.repeat(2_000_001);
    const split = `Split the text at headings into parts of at most 2,000,000 characters and send each in its own request: this one with the first part, the others with POST /api/articles/${article.id}/sections, "after" the last section.`;
    const add = expectFailure(await a.post(`${base}/sections`, { markdown: big }), 400, 'invalid-argument');
    expect(add).toEqual({ code: 'invalid-argument', message: 'markdown: The Markdown is 2,000,001 characters long; one request takes at most 2,000,000.', nextAction: split });
    const patch = expectFailure(await a.patch(`${base}/sections/${outline[0].anchor}`, { markdown: big }), 400, 'invalid-argument');
    expect(patch.nextAction).toBe(split);
    const html = expectFailure(await a.patch(`${base}/sections/${outline[0].anchor}`, { html: `<p>${big}</p>` }), 400, 'invalid-argument');
    expect(html.message).toBe('html: The section is 2,000,008 characters long; one section holds at most 2,000,000.');
    expect(html.nextAction).toBe(split);
    const op = expectFailure(await a.post(`${base}/edits`, { ops: [{ op: 'insert', markdown: big }] }), 400, 'invalid-argument');
    expect(op.message).toBe('ops[0] (insert): markdown: The Markdown is 2,000,001 characters long; one request takes at most 2,000,000.');
    expect(op.nextAction).toMatch(/^Split the text at headings into parts of at most 2,000,000 characters/);
    // Other problems keep their own nextAction.
    expect(expectFailure(await a.post(`${base}/sections`, { markdown: ' ' }), 400, 'invalid-argument').nextAction).toBe(
      'Pass the section body as a non-empty Markdown string in "markdown".',
    );
  });
});

describe('GET /api/articles/{id}/sections/{sid}', () => {
  it('returns the full section by its anchor, any longer prefix, the full id, in any case', async () => {
    const markdown = '# Title *here*\n\nSome **bold** text.\n\n<script>alert(1)</script>';
    const { article, outline } = await newArticle(a, { title: 'T', markdown });
    const res = await a.get(`/api/articles/${article.id}/sections/${outline[0].anchor}`);
    expect(res.status).toBe(200);
    const { section } = res.body.data;
    expect(Object.keys(res.body.data)).toEqual(['section']);
    expect(Object.keys(section).sort()).toEqual(SECTION_KEYS);
    expect(section).toEqual({
      id: expect.stringMatching(new RegExp(`^${outline[0].anchor}`)),
      anchor: outline[0].anchor,
      level: 1,
      title: 'Title here',
      words: 5,
      source: 'markdown',
      markdown,
      html: '<h1>Title <em>here</em></h1>\n<p>Some <strong>bold</strong> text.</p>\n',
    });
    for (const anchor of [section.id, section.id.toUpperCase(), section.id.slice(0, 10), section.id.slice(0, 2)]) {
      const again = await a.get(`/api/articles/${article.id}/sections/${anchor}`);
      expect(again.body.data.section).toEqual(section);
    }
  });

  it('gives the anchor of the outline even when ids share a long prefix', async () => {
    const { article, outline } = await newArticle(a, { title: 'Many', markdown: sectionsDoc(40) });
    for (const entry of outline) {
      const res = await a.get(`/api/articles/${article.id}/sections/${entry.anchor}`);
      expect(res.body.data.section).toMatchObject({ anchor: entry.anchor, title: entry.title });
    }
  });

  it('answers 400 for an ambiguous anchor and 404 for no match or no article', async () => {
    const { article, outline } = await newArticle(a, { title: 'Many', markdown: sectionsDoc(17) });
    const prefix = sharedPrefix(outline.map((e) => e.anchor));
    const ambiguous = expectFailure(await a.get(`/api/articles/${article.id}/sections/${prefix}`), 400, 'invalid-argument');
    expect(ambiguous.nextAction).toBe('Use a longer anchor.');
    for (const anchor of ['ffffffff-ffff', 'not-hex', 'a'.repeat(40)]) {
      const error = expectFailure(await a.get(`/api/articles/${article.id}/sections/${anchor}`), 404, 'not-found');
      expect(error.nextAction).toBe(`Call GET /api/articles/${article.id}/outline for the current anchors.`);
    }
    // Characters no id has ('%', '.', '/') are refused by the path's schema first (issue 25 point 2).
    expect(expectFailure(await a.get(`/api/articles/${article.id}/sections/%25`), 400, 'invalid-argument').message).toBe('sid must be a section anchor: letters, digits and dashes only.');
    const noArticle = expectFailure(await a.get(`/api/articles/${missingId()}/sections/${outline[0].anchor}`), 404, 'not-found');
    expect(noArticle.nextAction).toMatch(/GET \/api\/articles/);
    expectFailure(await app.http.get(`/api/articles/${article.id}/sections/${outline[0].anchor}`), 401, 'unauthenticated');
  });
});

describe('PATCH /api/articles/{id}/sections/{sid}', () => {
  it('replaces a section by Markdown, which may split into several sections in its place', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    const old = (await a.get(`/api/articles/${article.id}/sections/${outline[1].anchor}`)).body.data.section;
    const res = await a.patch(`/api/articles/${article.id}/sections/${outline[1].anchor}`, { markdown: '## New\n\nOne.\n\n### Sub\n\nTwo.' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['changeSet', 'outline', 'updated']);
    expect(res.body.data.updated.map((e) => [e.level, e.title])).toEqual([
      [2, 'New'],
      [3, 'Sub'],
    ]);
    expect(titles(res.body.data.outline)).toEqual(['S1', 'New', 'Sub', 'S3']);
    // The first resulting section keeps the id, so the anchor still works.
    const now = (await a.get(`/api/articles/${article.id}/sections/${outline[1].anchor}`)).body.data.section;
    expect(now).toMatchObject({ id: old.id, title: 'New', markdown: '## New\n\nOne.', source: 'markdown' });
    const rows = await storedRows(article.id);
    expect(rows.find((r) => r.uuid === old.id).rev).toBe(2);
  });

  it('replaces a section by canvas HTML: one section, HTML canonical and sanitised, markdown null', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const html = '<h3>Canvas <b>heading</b></h3><p onclick="steal()">Edited <a href="javascript:x()">here</a>.</p><script>bad()</script><h2>Second</h2>';
    const res = await a.patch(`/api/articles/${article.id}/sections/${outline[0].anchor}`, { html });
    expect(res.status).toBe(200);
    expect(res.body.data.updated).toEqual([{ anchor: outline[0].anchor, level: 3, title: 'Canvas heading', words: 5, source: 'html' }]);
    expect(res.body.data.outline.map((e) => e.source)).toEqual(['html', 'markdown']);
    const section = (await a.get(`/api/articles/${article.id}/sections/${outline[0].anchor}`)).body.data.section;
    expect(section).toMatchObject({ source: 'html', markdown: null, level: 3, title: 'Canvas heading' });
    expect(section.html).toBe('<h3>Canvas <b>heading</b></h3><p>Edited <a>here</a>.</p><h2>Second</h2>');
  });

  it('refuses both or neither of markdown and html, empty markdown and wrong types', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const path = `/api/articles/${article.id}/sections/${outline[0].anchor}`;
    const cases: [unknown, RegExp][] = [
      [{ markdown: '# a', html: '<p>a</p>' }, /both/],
      [{}, /^markdown or html is required\.$/],
      [{ markdown: '' }, /^markdown must not be empty\.$/],
      [{ markdown: 1 }, /^markdown must be a string\.$/],
      [{ html: { p: 1 } }, /^html must be a string\.$/],
      [{ title: 'x' }, /^Unknown field: title\.$/],
    ];
    for (const [body, message] of cases) {
      expect(expectFailure(await a.patch(path, body), 400, 'invalid-argument').message).toMatch(message);
    }
  });

  it('answers 400 for an ambiguous anchor and 404 for no match or no article', async () => {
    const { article, outline } = await newArticle(a, { title: 'Many', markdown: sectionsDoc(17) });
    const prefix = sharedPrefix(outline.map((e) => e.anchor));
    expect(expectFailure(await a.patch(`/api/articles/${article.id}/sections/${prefix}`, { markdown: '# a' }), 400, 'invalid-argument').nextAction).toBe(
      'Use a longer anchor.',
    );
    expect(expectFailure(await a.patch(`/api/articles/${article.id}/sections/abcdef12-0`, { markdown: '# a' }), 404, 'not-found').nextAction).toContain(
      `GET /api/articles/${article.id}/outline`,
    );
    expectFailure(await a.patch(`/api/articles/${missingId()}/sections/${outline[0].anchor}`, { markdown: '# a' }), 404, 'not-found');
  });
});

describe('POST /api/articles/{id}/sections/{sid}/move', () => {
  it('moves a section after or before another, writing only the moved row', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(4) });
    const [s1, s2, s3, s4] = outline.map((e) => e.anchor);
    const before = await storedRows(article.id);
    const res = await a.post(`/api/articles/${article.id}/sections/${s1}/move`, { after: s3 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['outline', 'changeSet']);
    expect(titles(res.body.data.outline)).toEqual(['S2', 'S3', 'S1', 'S4']);
    const moved = (await a.get(`/api/articles/${article.id}/sections/${s1}`)).body.data.section.id;
    const now = await storedRows(article.id);
    for (const row of before.filter((r) => r.uuid !== moved)) expect(now.find((r) => r.uuid === row.uuid)).toEqual(row);
    // Moving is not a change of content (CONTRACT section 10): its rev stays.
    expect(now.find((r) => r.uuid === moved).rev).toBe(1);

    const back = await a.post(`/api/articles/${article.id}/sections/${s4}/move`, { before: s2 });
    expect(titles(back.body.data.outline)).toEqual(['S4', 'S2', 'S3', 'S1']);
    const noop = await a.post(`/api/articles/${article.id}/sections/${s4}/move`, { before: s2 });
    expect(titles(noop.body.data.outline)).toEqual(['S4', 'S2', 'S3', 'S1']);
    const end = await a.post(`/api/articles/${article.id}/sections/${s4}/move`, { after: s1 });
    expect(titles(end.body.data.outline)).toEqual(['S2', 'S3', 'S1', 'S4']);
    expect((await a.get(`/api/articles/${article.id}/outline`)).body.data.outline).toEqual(end.body.data.outline);
  });

  it('refuses not exactly one of after and before, moving relative to itself, and ambiguous anchors', async () => {
    const { article, outline } = await newArticle(a, { title: 'Many', markdown: sectionsDoc(17) });
    const [s1, s2] = outline.map((e) => e.anchor);
    const path = `/api/articles/${article.id}/sections/${s1}/move`;
    expect(expectFailure(await a.post(path, {}), 400, 'invalid-argument').message).toBe('after or before is required.');
    expect(expectFailure(await a.post(path, { after: null, before: null }), 400, 'invalid-argument').message).toBe('after or before is required.');
    expect(expectFailure(await a.post(path, { after: s2, before: s2 }), 400, 'invalid-argument').message).toMatch(/both/);
    expect(expectFailure(await a.post(path, { after: 3 }), 400, 'invalid-argument').message).toBe('after must be a string.');
    const self = expectFailure(await a.post(path, { after: s1.toUpperCase() }), 400, 'invalid-argument');
    expect(self.message).toMatch(/the section being moved/);
    expectFailure(await a.post(path, { before: outline[0].anchor + '' }), 400, 'invalid-argument');
    const prefix = sharedPrefix(outline.map((e) => e.anchor));
    expect(expectFailure(await a.post(path, { after: prefix }), 400, 'invalid-argument').nextAction).toBe('Use a longer anchor.');
    expect(expectFailure(await a.post(`/api/articles/${article.id}/sections/${prefix}/move`, { after: s2 }), 400, 'invalid-argument').nextAction).toBe(
      'Use a longer anchor.',
    );
  });

  it('answers 404 for no article or no matching section (moved or target)', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const [s1] = outline.map((e) => e.anchor);
    expect(expectFailure(await a.post(`/api/articles/${article.id}/sections/${s1}/move`, { after: 'eeeeeeee' }), 404, 'not-found').nextAction).toContain(
      `GET /api/articles/${article.id}/outline`,
    );
    expectFailure(await a.post(`/api/articles/${article.id}/sections/eeeeeeee/move`, { after: s1 }), 404, 'not-found');
    expectFailure(await a.post(`/api/articles/${missingId()}/sections/${s1}/move`, { after: s1 }), 404, 'not-found');
    expectFailure(await app.http.post(`/api/articles/${article.id}/sections/${s1}/move`).send({ after: s1 }), 401, 'unauthenticated');
  });
});

describe('DELETE /api/articles/{id}/sections/{sid}', () => {
  it('deletes a section and returns the fresh outline', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    const res = await a.del(`/api/articles/${article.id}/sections/${outline[1].anchor}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['outline', 'changeSet']);
    expect(titles(res.body.data.outline)).toEqual(['S1', 'S3']);
    expectFailure(await a.get(`/api/articles/${article.id}/sections/${outline[1].anchor}`), 404, 'not-found');
  });

  it('leaves a single empty section when the last one is deleted', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: '# Only\n\nText.' });
    const res = await a.del(`/api/articles/${article.id}/sections/${outline[0].anchor}`);
    expect(res.status).toBe(200);
    expect(res.body.data.outline).toEqual([{ anchor: expect.any(String), level: 0, title: '', words: 0, source: 'markdown' }]);
    const empty = (await a.get(`/api/articles/${article.id}/sections/${res.body.data.outline[0].anchor}`)).body.data.section;
    expect(empty).toMatchObject({ level: 0, title: '', markdown: '', html: '', words: 0, source: 'markdown' });
    const again = await a.del(`/api/articles/${article.id}/sections/${res.body.data.outline[0].anchor}`);
    expect(again.body.data.outline).toHaveLength(1);
  });

  it('answers 400 for an ambiguous anchor and 404 for no match or no article', async () => {
    const { article, outline } = await newArticle(a, { title: 'Many', markdown: sectionsDoc(17) });
    const prefix = sharedPrefix(outline.map((e) => e.anchor));
    expect(expectFailure(await a.del(`/api/articles/${article.id}/sections/${prefix}`), 400, 'invalid-argument').nextAction).toBe('Use a longer anchor.');
    expectFailure(await a.del(`/api/articles/${article.id}/sections/${missingId()}`), 404, 'not-found');
    expectFailure(await a.del(`/api/articles/${missingId()}/sections/${outline[0].anchor}`), 404, 'not-found');
    expectFailure(await app.http.delete(`/api/articles/${article.id}/sections/${outline[0].anchor}`), 401, 'unauthenticated');
    expect((await a.get(`/api/articles/${article.id}/outline`)).body.data.outline).toHaveLength(17);
  });
});

describe('outline cache', () => {
  const outlines = () => app.strapi.plugin('quire').service('outlines');
  const fresh = async (id: string) => {
    outlines().clear();
    return (await a.get(`/api/articles/${id}/outline`)).body.data.outline;
  };

  it('always answers what the database holds, after any sequence of writes', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(6) });
    const id = article.id;
    const anchors = outline.map((e) => e.anchor);
    await a.post(`/api/articles/${id}/sections`, { markdown: '## A\n\n## B', after: anchors[2] });
    await a.post(`/api/articles/${id}/sections/${anchors[0]}/move`, { before: anchors[5] });
    await a.patch(`/api/articles/${id}/sections/${anchors[3]}`, { markdown: '## C\n\ntext\n\n## D' });
    await a.patch(`/api/articles/${id}/sections/${anchors[4]}`, { html: '<h4>E</h4>' });
    await a.del(`/api/articles/${id}/sections/${anchors[1]}`);
    const cached = (await a.get(`/api/articles/${id}/outline`)).body.data.outline;
    const article2 = (await a.get(`/api/articles/${id}`)).body.data;
    expect(await fresh(id)).toEqual(cached);
    expect(article2.outline).toEqual(cached);
    expect(cached.map((e) => e.title)).toEqual(['S3', 'A', 'B', 'C', 'D', 'E', 'S1', 'S6']);
  });

  it('sees a change another process made (it bumps the outline revision)', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    await a.get(`/api/articles/${article.id}/outline`); // cached now
    const row = await app.strapi.db.query('plugin::quire.article').findOne({ where: { uuid: article.id }, select: ['id', 'outlineRev'] });
    const section = (await a.get(`/api/articles/${article.id}/sections/${outline[1].anchor}`)).body.data.section;
    await app.strapi.db.query('plugin::quire.section').update({ where: { uuid: section.id }, data: { title: 'Changed elsewhere' } });
    await app.strapi.db.query('plugin::quire.article').update({ where: { id: row.id }, data: { outlineRev: row.outlineRev + 1 } });
    const res = await a.get(`/api/articles/${article.id}/outline`);
    expect(res.body.data.outline.map((e) => e.title)).toEqual(['S1', 'Changed elsewhere', 'S3']);
    const added = await a.post(`/api/articles/${article.id}/sections`, { markdown: '## S4' });
    expect(added.body.data.outline.map((e) => e.title)).toEqual(['S1', 'Changed elsewhere', 'S3', 'S4']);
  });

  it('keeps nothing of a write that rolled back', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    await withFailingWrite(app, { table: 'quire_sections', event: 'INSERT', when: "NEW.title = 'Boom'" }, async () => {
      expectFailure(await a.post(`/api/articles/${article.id}/sections`, { markdown: '## Fine\n\n## Boom', after: outline[0].anchor }), 500, 'internal');
      expectFailure(await a.patch(`/api/articles/${article.id}/sections/${outline[1].anchor}`, { markdown: '## Renamed\n\n## Boom' }), 500, 'internal');
    });
    expect((await a.get(`/api/articles/${article.id}/outline`)).body.data.outline).toEqual(outline);
    const added = await a.post(`/api/articles/${article.id}/sections`, { markdown: '## After' });
    expect(added.body.data.outline.map((e) => e.title)).toEqual(['S1', 'S2', 'S3', 'After']);
    expect(await fresh(article.id)).toEqual(added.body.data.outline);
  });
});

describe('pathological Markdown', () => {
  it('answers 400 naming the nesting for a body nested too deeply, on every Markdown route', async () => {
    const deep = '>'.repeat(10_000) + ' deep';
    const created = await a.post('/api/articles', { title: 'Deep', markdown: deep });
    expect(expectFailure(created, 400, 'invalid-argument').message).toMatch(/nested too deeply at line 1/);
    const { article, outline } = await newArticle(a, { title: 'Shallow', markdown: sectionsDoc(1) });
    const added = await a.post(`/api/articles/${article.id}/sections`, { markdown: deep });
    expect(expectFailure(added, 400, 'invalid-argument').message).toMatch(/nested too deeply/);
    const replaced = await a.patch(`/api/articles/${article.id}/sections/${outline[0].anchor}`, { markdown: `# x\n\n${deep}` });
    expect(expectFailure(replaced, 400, 'invalid-argument').message).toMatch(/nested too deeply at line 3/);
  });
});
