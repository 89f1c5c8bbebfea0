import { client, missingId, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let alice: Client;
let bobKey: Client;
let bobSession: Client;

beforeAll(async () => {
  app = await startApp();
  const a = await registerUser(app, 'alice');
  const b = await registerUser(app, 'bob');
  alice = client(app, await createKey(app, a));
  bobKey = client(app, await createKey(app, b));
  bobSession = client(app, b.jwt);
});
afterAll(() => app?.close());

describe('per-user scoping', () => {
  it('gives a second user 404 for every route of the first user\'s article, with the body of a missing id', async () => {
    const { article, outline } = await newArticle(alice, { title: 'Private', markdown: sectionsDoc(3), premise: 'Secret premise.' });
    const note = (await alice.post(`/api/articles/${article.id}/notes`, { kind: 'idea', title: 'Secret' })).body.data.note;
    const id = article.id;
    const sid = outline[0].anchor;
    const nid = note.anchor;
    const routes: [string, (c: Client, articleId: string) => Promise<any>][] = [
      ['GET article', (c, x) => c.get(`/api/articles/${x}`)],
      ['PATCH article', (c, x) => c.patch(`/api/articles/${x}`, { title: 'Mine now' })],
      ['DELETE article', (c, x) => c.del(`/api/articles/${x}`)],
      ['GET outline', (c, x) => c.get(`/api/articles/${x}/outline`)],
      ['POST sections', (c, x) => c.post(`/api/articles/${x}/sections`, { markdown: '# Injected' })],
      ['POST sections after', (c, x) => c.post(`/api/articles/${x}/sections`, { markdown: '# Injected', after: sid })],
      ['GET section', (c, x) => c.get(`/api/articles/${x}/sections/${sid}`)],
      ['PATCH section', (c, x) => c.patch(`/api/articles/${x}/sections/${sid}`, { markdown: '# Hijack' })],
      ['PATCH section html', (c, x) => c.patch(`/api/articles/${x}/sections/${sid}`, { html: '<p>x</p>' })],
      ['DELETE section', (c, x) => c.del(`/api/articles/${x}/sections/${sid}`)],
      ['move section', (c, x) => c.post(`/api/articles/${x}/sections/${sid}/move`, { after: outline[2].anchor })],
      ['GET brief', (c, x) => c.get(`/api/articles/${x}/brief`)],
      ['PATCH brief', (c, x) => c.patch(`/api/articles/${x}/brief`, { premise: null })],
      ['GET notes', (c, x) => c.get(`/api/articles/${x}/notes`)],
      ['POST notes', (c, x) => c.post(`/api/articles/${x}/notes`, { kind: 'idea', title: 'Injected' })],
      ['GET note', (c, x) => c.get(`/api/articles/${x}/notes/${nid}`)],
      ['PATCH note', (c, x) => c.patch(`/api/articles/${x}/notes/${nid}`, { title: 'Hijack' })],
      ['DELETE note', (c, x) => c.del(`/api/articles/${x}/notes/${nid}`)],
    ];
    for (const [name, call] of routes) {
      for (const bob of [bobKey, bobSession]) {
        const other = missingId();
        const theirs = await call(bob, id);
        const missing = await call(bob, other);
        expectFailure(theirs, 404, 'not-found');
        expect([name, JSON.stringify(theirs.body).replaceAll(id, 'ID')]).toEqual([name, JSON.stringify(missing.body).replaceAll(other, 'ID')]);
      }
    }
    // Nothing changed for Alice.
    const res = await alice.get(`/api/articles/${id}`);
    expect(res.body.data.article.title).toBe('Private');
    expect(res.body.data.outline).toEqual(outline);
    expect(res.body.data.brief).toEqual({ premise: 'Secret premise.', notes: [{ anchor: nid, kind: 'idea', title: 'Secret', url: null }] });
    expect((await bobKey.get('/api/articles')).body.data.articles).toEqual([]);
  });
});
