import { client, missingId, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, withFailingWrite, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let alice: TestUser;
let a: Client;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app, 'alice');
  a = client(app, await createKey(app, alice));
});
afterAll(() => app?.close());

const RECORD_KEYS = ['createdAt', 'id', 'publicUrl', 'publishedAt', 'sections', 'status', 'title', 'updatedAt', 'words'];
const ENTRY_KEYS = ['anchor', 'level', 'source', 'title', 'words'];

describe('POST /api/articles', () => {
  it('creates an article from a Markdown document, one section per top-level heading', async () => {
    const markdown = 'Opening line.\n\n# Part one\n\nAlpha beta.\n\n## Detail\n\nGamma.\n\n```\n# not a heading\n```\n\n# Part two\n\nDelta.\n';
    const res = await a.post('/api/articles', { title: 'My essay', markdown, premise: 'Why it matters.' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['success', 'data']);
    const { article, outline } = res.body.data;
    expect(Object.keys(res.body.data).sort()).toEqual(['article', 'outline']);
    expect(Object.keys(article).sort()).toEqual(RECORD_KEYS);
    expect(article).toMatchObject({ title: 'My essay', status: 'draft', publishedAt: null, sections: 4 });
    expect(article.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Date(article.createdAt).toISOString()).toBe(article.createdAt);
    expect(outline.map((e) => [e.level, e.title])).toEqual([
      [0, ''],
      [1, 'Part one'],
      [2, 'Detail'],
      [1, 'Part two'],
    ]);
    expect(outline.every((e) => Object.keys(e).sort().join() === ENTRY_KEYS.join() && e.source === 'markdown')).toBe(true);
    expect(article.words).toBe(outline.reduce((n, e) => n + e.words, 0));
    expect(outline[2].words).toBe(1 + 1 + 3); // "Detail", "Gamma", and "# not a heading" in code: 3 words
  });

  it('gives an article without markdown one empty section', async () => {
    for (const body of [{ title: 'Empty' }, { title: 'Empty', markdown: '' }, { title: 'Empty', markdown: null }]) {
      const { article, outline } = await newArticle(a, body);
      expect(outline).toEqual([{ anchor: expect.any(String), level: 0, title: '', words: 0, source: 'markdown' }]);
      expect(article).toMatchObject({ words: 0, sections: 1 });
      const section = await a.get(`/api/articles/${article.id}/sections/${outline[0].anchor}`);
      expect(section.body.data.section).toMatchObject({ markdown: '', html: '', words: 0, level: 0, title: '', source: 'markdown' });
    }
  });

  it('refuses a missing, empty or non-string title, a wrong markdown type and unknown fields', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /^title is required\.$/],
      [{ title: '' }, /^title must not be empty\.$/],
      [{ title: '   ' }, /^title must not be empty\.$/],
      [{ title: 7 }, /^title must be a string\.$/],
      [{ title: 'x'.repeat(301) }, /^title must be at most 300 characters\.$/],
      [{ title: 'T', markdown: 5 }, /^markdown must be a string\.$/],
      [{ title: 'T', premise: 5 }, /^premise must be a string or null\.$/],
      [{ title: 'T', sections: [] }, /^Unknown field: sections\.$/],
      [[1], /^body must be an object\.$/],
    ];
    for (const [body, message] of cases) {
      const error = expectFailure(await a.post('/api/articles', body), 400, 'invalid-argument');
      expect(error.message).toMatch(message);
    }
  });

  it('needs a credential', async () => {
    expectFailure(await app.http.post('/api/articles').send({ title: 'x' }), 401, 'unauthenticated');
  });
});

describe('GET /api/articles', () => {
  let bea: Client;
  const ids: string[] = [];

  beforeAll(async () => {
    const user = await registerUser(app, 'lister');
    bea = client(app, await createKey(app, user));
    for (let i = 0; i < 5; i += 1) ids.push((await newArticle(bea, { title: `A${i}`, markdown: `# H${i}\n\none two` })).article.id);
  });

  it('lists the caller\'s articles, most recently updated first, with derived words and sections', async () => {
    // Touch the oldest: it becomes the most recently updated.
    await bea.patch(`/api/articles/${ids[0]}`, { title: 'A0 renamed' });
    const res = await bea.get('/api/articles');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['articles', 'nextCursor']);
    expect(res.body.data.articles.map((x) => x.id)).toEqual([ids[0], ids[4], ids[3], ids[2], ids[1]]);
    expect(res.body.data.articles[0]).toMatchObject({ title: 'A0 renamed', words: 3, sections: 1, status: 'draft' });
    expect(Object.keys(res.body.data.articles[0]).sort()).toEqual(RECORD_KEYS);
    expect(res.body.data.nextCursor).toBeNull();
  });

  it('pages with limit and an opaque cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await bea.get(`/api/articles?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.articles.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.articles.map((x) => x.id));
      cursor = res.body.data.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('refuses a bad limit or cursor', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5']) {
      expect(expectFailure(await bea.get(`/api/articles?${q}`), 400, 'invalid-argument').message).toMatch(/^limit must be an integer from 1 to 100\.$/);
    }
    expect(expectFailure(await bea.get('/api/articles?cursor=nonsense'), 400, 'invalid-argument').message).toMatch(/cursor/);
  });

  it('shows nobody else\'s articles', async () => {
    const res = await a.get('/api/articles?limit=100');
    expect(res.body.data.articles.some((x) => ids.includes(x.id))).toBe(false);
  });
});

describe('GET /api/articles/{id}', () => {
  it('returns the record, the outline and the brief (premise and notes map)', async () => {
    const { article } = await newArticle(a, { title: 'Full', markdown: sectionsDoc(3), premise: 'The premise.' });
    await a.post(`/api/articles/${article.id}/notes`, { kind: 'source', title: 'A source', body: 'Long body', url: 'https://example.com/a' });
    const res = await a.get(`/api/articles/${article.id.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['article', 'brief', 'outline']);
    expect(res.body.data.article).toMatchObject({ id: article.id, title: 'Full', sections: 3 });
    expect(res.body.data.outline.map((e) => e.title)).toEqual(['S1', 'S2', 'S3']);
    expect(res.body.data.brief).toEqual({
      premise: 'The premise.',
      notes: [{ anchor: expect.any(String), kind: 'source', title: 'A source', url: 'https://example.com/a' }],
    });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [missingId(), 'nope', '123']) {
      const error = expectFailure(await a.get(`/api/articles/${id}`), 404, 'not-found');
      expect(error.nextAction).toMatch(/GET \/api\/articles/);
    }
  });
});

describe('PATCH /api/articles/{id}', () => {
  it('changes the title and the updatedAt', async () => {
    const { article } = await newArticle(a, { title: 'Before' });
    await new Promise((r) => setTimeout(r, 5));
    const res = await a.patch(`/api/articles/${article.id}`, { title: ' After ' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['article']);
    expect(res.body.data.article).toMatchObject({ id: article.id, title: 'After', sections: 1 });
    expect(res.body.data.article.updatedAt > (article as any).updatedAt).toBe(true);
  });

  it('refuses a bad title and answers 404 for a missing article', async () => {
    const { article } = await newArticle(a);
    expect(expectFailure(await a.patch(`/api/articles/${article.id}`, {}), 400, 'invalid-argument').message).toBe('title is required.');
    expect(expectFailure(await a.patch(`/api/articles/${article.id}`, { title: '' }), 400, 'invalid-argument').message).toBe('title must not be empty.');
    expect(expectFailure(await a.patch(`/api/articles/${article.id}`, { title: 'x', status: 'published' }), 400, 'invalid-argument').message).toBe('Unknown field: status.');
    expectFailure(await a.patch(`/api/articles/${missingId()}`, { title: 'x' }), 404, 'not-found');
  });
});

describe('DELETE /api/articles/{id}', () => {
  it('deletes the article with its sections and notes, permanently', async () => {
    const { article } = await newArticle(a, { title: 'Doomed', markdown: sectionsDoc(4) });
    await a.post(`/api/articles/${article.id}/notes`, { kind: 'idea', title: 'N' });
    const row = await app.strapi.db.query('plugin::quire.article').findOne({ where: { uuid: article.id }, select: ['id'] });
    const count = async () => ({
      sections: await app.strapi.db.query('plugin::quire.section').count({ where: { articleId: row.id } }),
      notes: await app.strapi.db.query('plugin::quire.note').count({ where: { articleId: row.id } }),
    });
    expect(await count()).toEqual({ sections: 4, notes: 1 });

    const res = await a.del(`/api/articles/${article.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: article.id } });
    expect(await count()).toEqual({ sections: 0, notes: 0 });
    expectFailure(await a.get(`/api/articles/${article.id}`), 404, 'not-found');
    expectFailure(await a.del(`/api/articles/${article.id}`), 404, 'not-found');
  });

  it('keeps everything when the deletion fails half-way (one transaction)', async () => {
    const { article } = await newArticle(a, { title: 'Survivor', markdown: sectionsDoc(2) });
    await a.post(`/api/articles/${article.id}/notes`, { kind: 'idea', title: 'N' });
    // Make deleting the article row itself fail after its sections and notes went.
    await withFailingWrite(app, { table: 'quire_articles', event: 'DELETE' }, async () => {
      expectFailure(await a.del(`/api/articles/${article.id}`), 500, 'internal');
    });
    const res = await a.get(`/api/articles/${article.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.outline).toHaveLength(2);
    expect(res.body.data.brief.notes).toHaveLength(1);
  });
});

describe('GET /api/articles/{id}/outline', () => {
  it('returns the ordered outline entries', async () => {
    const { article, outline } = await newArticle(a, { title: 'O', markdown: sectionsDoc(5) });
    const res = await a.get(`/api/articles/${article.id}/outline`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { outline } });
    expect(outline.map((e) => e.title)).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
    expect(new Set(outline.map((e) => e.anchor)).size).toBe(5);
    expect(outline.every((e) => e.anchor.length >= 6)).toBe(true);
  });

  it('answers 404 for a missing article and 401 without a credential', async () => {
    expectFailure(await a.get(`/api/articles/${missingId()}/outline`), 404, 'not-found');
    expectFailure(await app.http.get(`/api/articles/${missingId()}/outline`), 401, 'unauthenticated');
  });
});

describe('indexes', () => {
  it('exist for the anchor and owner lookups', async () => {
    const knex = app.strapi.db.connection;
    const names =
      app.strapi.db.dialect.client === 'postgres'
        ? (await knex.raw("SELECT indexname AS name FROM pg_indexes WHERE tablename LIKE 'quire_%'")).rows.map((r) => r.name)
        : (await knex.raw("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'quire_%'")).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'quire_articles_uuid_uq',
        'quire_articles_user_id_updated_at_idx',
        'quire_sections_article_id_uuid_uq',
        'quire_notes_article_id_uuid_uq',
      ]),
    );
  });
});

describe('walkthrough: a client written from the spec', () => {
  it('creates an article from Markdown and edits it by anchor, then manages the brief', async () => {
    const doc = '# Draft\n\nIntro.\n\n## Background\n\nHistory.\n\n## Method\n\nSteps.\n\n## Results\n\nNumbers.\n';
    const created = await a.post('/api/articles', { title: 'Study', markdown: doc });
    expect(created.status).toBe(201);
    const id = created.body.data.article.id;

    const outline = (await a.get(`/api/articles/${id}/outline`)).body.data.outline;
    expect(outline.map((e) => e.title)).toEqual(['Draft', 'Background', 'Method', 'Results']);
    const [draft, background, method, results] = outline.map((e) => e.anchor);

    const section = (await a.get(`/api/articles/${id}/sections/${method}`)).body.data.section;
    expect(section).toMatchObject({ anchor: method, level: 2, title: 'Method', markdown: '## Method\n\nSteps.', html: '<h2>Method</h2>\n<p>Steps.</p>' });

    expect((await a.patch(`/api/articles/${id}/sections/${method}`, { markdown: '## Method\n\nBetter steps.' })).status).toBe(200);
    const canvas = await a.patch(`/api/articles/${id}/sections/${background}`, { html: '<h2>Background</h2><p>Edited by a human.</p>' });
    expect(canvas.body.data.updated[0]).toMatchObject({ anchor: background, source: 'html' });

    const moved = await a.post(`/api/articles/${id}/sections/${results}/move`, { after: draft });
    expect(moved.body.data.outline.map((e) => e.title)).toEqual(['Draft', 'Results', 'Background', 'Method']);
    const deleted = await a.del(`/api/articles/${id}/sections/${background}`);
    expect(deleted.body.data.outline.map((e) => e.title)).toEqual(['Draft', 'Results', 'Method']);

    expect((await a.patch(`/api/articles/${id}/brief`, { premise: 'Methods matter.' })).body.data).toEqual({ premise: 'Methods matter.', changeSet: { id: expect.any(String), anchor: expect.any(String) } });
    const note = (await a.post(`/api/articles/${id}/notes`, { kind: 'decision', title: 'Use SI units' })).body.data.note;
    await a.patch(`/api/articles/${id}/notes/${note.anchor}`, { body: 'Everywhere.' });
    const brief = (await a.get(`/api/articles/${id}/brief`)).body.data;
    expect(brief).toEqual({
      premise: 'Methods matter.',
      notes: [{ anchor: note.anchor, kind: 'decision', title: 'Use SI units', body: 'Everywhere.', url: null, createdBy: 'agent', html: '<p>Everywhere.</p>' }],
    });
    expect((await a.del(`/api/articles/${id}/notes/${note.anchor}`)).body.data).toEqual({ notes: [], changeSet: { id: expect.any(String), anchor: expect.any(String) } });

    const full = (await a.get(`/api/articles/${id}`)).body.data;
    expect(full.article).toMatchObject({ id, title: 'Study', sections: 3, words: 2 + 2 + 3 });
    expect((await a.del(`/api/articles/${id}`)).body).toEqual({ success: true, data: { id } });
  });
});

describe('the articles service, for publish and import', () => {
  it('creates an article with notes in one call and lists its sections in order with content', async () => {
    const service = app.strapi.plugin('quire').service('articles');
    const { article, outline } = await service.createArticle(alice.id, {
      title: 'Imported',
      markdown: '# One\n\nFirst.\n\n# Two\n\nSecond.',
      premise: 'Imported premise.',
      notes: [
        { kind: 'source', title: 'Origin', url: 'https://example.com/origin' },
        { kind: 'idea', title: 'Later', body: 'Expand *this*.' },
      ],
    });
    expect(outline.map((e) => e.title)).toEqual(['One', 'Two']);
    const brief = (await a.get(`/api/articles/${article.id}/brief`)).body.data;
    expect(brief.premise).toBe('Imported premise.');
    expect(brief.notes.map((n) => [n.title, n.createdBy, n.html])).toEqual([
      ['Origin', 'agent', ''],
      ['Later', 'agent', '<p>Expand <em>this</em>.</p>'],
    ]);
    const row = await service.findRow(alice.id, article.id);
    expect(row).toMatchObject({ uuid: article.id, userId: alice.id, title: 'Imported', status: 'draft', premise: 'Imported premise.', publishedAt: null });
    const sections = await service.listSections(row.id);
    expect(sections.map((s) => [s.title, s.markdown, s.html])).toEqual([
      ['One', '# One\n\nFirst.', '<h1>One</h1>\n<p>First.</p>'],
      ['Two', '# Two\n\nSecond.', '<h1>Two</h1>\n<p>Second.</p>'],
    ]);
    expect(sections.map((s) => s.anchor)).toEqual(outline.map((e) => e.anchor));
    await expect(service.findRow(alice.id + 1000, article.id)).rejects.toMatchObject({ code: 'not-found' });
  });
});
