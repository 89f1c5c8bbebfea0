import { client, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let a: Client;

beforeAll(async () => {
  app = await startApp();
  a = client(app, await createKey(app, await registerUser(app, 'alice')));
});
afterAll(() => app?.close());

describe('concurrent writes to one article', () => {
  it('lands twenty concurrent inserts, in a valid order, with distinct anchors and ranks', async () => {
    const { article, outline } = await newArticle(a, { title: 'Busy', markdown: sectionsDoc(3) });
    const [first, , last] = outline.map((e) => e.anchor);
    // Ten after the first section, five before the last, five appended.
    const bodies = Array.from({ length: 20 }, (_, i) =>
      i < 10 ? { markdown: `## After${i}`, after: first } : i < 15 ? { markdown: `## Before${i}`, before: last } : { markdown: `## End${i}` },
    );
    const results = await Promise.all(bodies.map((body) => a.post(`/api/articles/${article.id}/sections`, body)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));

    const final = (await a.get(`/api/articles/${article.id}/outline`)).body.data.outline;
    const titles: string[] = final.map((e) => e.title);
    expect(titles).toHaveLength(23);
    expect(new Set(final.map((e) => e.anchor)).size).toBe(23);
    const at = (t: string) => titles.indexOf(t);
    expect(at('S1')).toBe(0);
    for (let i = 0; i < 10; i += 1) expect(at(`After${i}`)).toBeGreaterThan(at('S1'));
    for (let i = 0; i < 10; i += 1) expect(at(`After${i}`)).toBeLessThan(at('S2'));
    for (let i = 10; i < 15; i += 1) expect([at(`Before${i}`) > at('S2'), at(`Before${i}`) < at('S3')]).toEqual([true, true]);
    for (let i = 15; i < 20; i += 1) expect(at(`End${i}`)).toBeGreaterThan(at('S3'));

    const row = await app.strapi.db.query('plugin::quire.article').findOne({ where: { uuid: article.id }, select: ['id'] });
    const ranks = (await app.strapi.db.query('plugin::quire.section').findMany({ where: { articleId: row.id }, select: ['rank'] })).map((r) => r.rank);
    expect(new Set(ranks).size).toBe(23);
    // Every answer's outline was a consistent snapshot: each one contains its own insert.
    for (const [i, res] of results.entries()) {
      expect(res.body.data.outline.map((e) => e.title)).toContain(bodies[i].markdown.slice(3));
    }
  });

  it('loses no update of a note under concurrent PATCHes of different fields', async () => {
    const { article } = await newArticle(a, { title: 'Notes' });
    const note = (await a.post(`/api/articles/${article.id}/notes`, { kind: 'idea', title: 'T0', body: 'B0', url: 'https://example.com/0' })).body.data
      .note;
    const path = `/api/articles/${article.id}/notes/${note.anchor}`;
    const kinds = ['source', 'decision', 'question', 'idea'];
    for (let round = 1; round <= 5; round += 1) {
      const results = await Promise.all([
        a.patch(path, { title: `T${round}` }),
        a.patch(path, { body: `B${round}` }),
        a.patch(path, { url: `https://example.com/${round}` }),
        a.patch(path, { kind: kinds[round % 4] }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const now = (await a.get(path)).body.data.note;
      expect(now).toMatchObject({ title: `T${round}`, body: `B${round}`, html: `<p>B${round}</p>`, url: `https://example.com/${round}`, kind: kinds[round % 4] });
    }
    const stored = await app.strapi.db.query('plugin::quire.note').findOne({ where: { uuid: { $startsWith: note.anchor } }, select: ['rev'] });
    expect(stored.rev).toBe(1 + 5 * 4);
  });

  it('keeps moves, deletes and replacements consistent when they race with inserts', async () => {
    // The operations commute, so the result does not depend on which runs first.
    const { article, outline } = await newArticle(a, { title: 'Race', markdown: sectionsDoc(6) });
    const anchors = outline.map((e) => e.anchor);
    const results = await Promise.all([
      a.post(`/api/articles/${article.id}/sections/${anchors[0]}/move`, { after: anchors[5] }),
      a.del(`/api/articles/${article.id}/sections/${anchors[2]}`),
      a.post(`/api/articles/${article.id}/sections`, { markdown: '## New', before: anchors[4] }),
      a.patch(`/api/articles/${article.id}/sections/${anchors[3]}`, { markdown: '## S4b\n\n## S4c' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 201, 200]);
    const titles = (await a.get(`/api/articles/${article.id}/outline`)).body.data.outline.map((e) => e.title);
    expect(titles).toEqual(['S2', 'S4b', 'S4c', 'New', 'S5', 'S6', 'S1']);
  });
});
