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

describe('shortened article ids', () => {
  // Ids chosen by hand (written straight to the database) so prefixes collide on purpose.
  const ALICE_1 = 'a1ce0000-0000-4000-8000-000000000001';
  const ALICE_2 = 'a1ce1111-0000-4000-8000-000000000002';
  const BOB_1 = 'a1ce0000-0000-4000-8000-0000000000bb'; // shares 34 characters with ALICE_1
  const setId = async (from: string, to: string) => {
    expect(await app.strapi.db.connection('quire_articles').where({ uuid: from }).update({ uuid: to })).toBe(1);
  };

  beforeAll(async () => {
    await setId((await newArticle(alice, { title: 'First', markdown: sectionsDoc(3) })).article.id, ALICE_1);
    await setId((await newArticle(alice, { title: 'Second' })).article.id, ALICE_2);
    await setId((await newArticle(bobKey, { title: 'Bob\'s' })).article.id, BOB_1);
  });

  it('address an article on every /api/articles/{id} route, in any case, and answers with the full id', async () => {
    const short = 'A1CE0';
    const outline = (await alice.get(`/api/articles/${short}/outline`)).body.data.outline;
    const note = (await alice.post(`/api/articles/${short}/notes`, { kind: 'idea', title: 'An idea' })).body.data.note;
    const calls: [string, () => Promise<any>, number][] = [
      ['GET article', () => alice.get(`/api/articles/${short}`), 200],
      ['PATCH article', () => alice.patch(`/api/articles/${short}`, { title: 'First, renamed' }), 200],
      ['POST sections', () => alice.post(`/api/articles/${short}/sections`, { markdown: '## Added', after: outline[0].anchor }), 201],
      ['GET section', () => alice.get(`/api/articles/${short}/sections/${outline[0].anchor}`), 200],
      ['PATCH section', () => alice.patch(`/api/articles/${short}/sections/${outline[0].anchor}`, { markdown: '## S1 again' }), 200],
      ['move section', () => alice.post(`/api/articles/${short}/sections/${outline[1].anchor}/move`, { before: outline[0].anchor }), 200],
      ['DELETE section', () => alice.del(`/api/articles/${short}/sections/${outline[2].anchor}`), 200],
      ['PATCH brief', () => alice.patch(`/api/articles/${short}/brief`, { premise: 'Short ids.' }), 200],
      ['GET brief', () => alice.get(`/api/articles/${short}/brief`), 200],
      ['GET notes', () => alice.get(`/api/articles/${short}/notes`), 200],
      ['GET note', () => alice.get(`/api/articles/${short}/notes/${note.anchor}`), 200],
      ['PATCH note', () => alice.patch(`/api/articles/${short}/notes/${note.anchor}`, { title: 'A better idea' }), 200],
      ['DELETE note', () => alice.del(`/api/articles/${short}/notes/${note.anchor}`), 200],
      ['publish', () => alice.post(`/api/articles/${short}/publish`), 200],
      ['unpublish', () => alice.del(`/api/articles/${short}/publish`), 200],
    ];
    for (const [name, call, status] of calls) {
      const res = await call();
      expect([name, res.status]).toEqual([name, status]);
      if (res.body.data.article) expect([name, res.body.data.article.id]).toEqual([name, ALICE_1]);
    }
    const full = (await alice.get(`/api/articles/${ALICE_1}`)).body.data;
    expect(full.article.title).toBe('First, renamed');
    expect(full.brief.premise).toBe('Short ids.');
    // The full id and any longer prefix still work; DELETE too.
    expect((await alice.get(`/api/articles/${ALICE_1.slice(0, 13)}/outline`)).status).toBe(200);
  });

  it('answers 400 "Use a longer anchor." when a prefix matches several of the caller\'s articles', async () => {
    const error = expectFailure(await alice.get('/api/articles/a1ce'), 400, 'invalid-argument');
    expect(error).toEqual({ code: 'invalid-argument', message: 'The id "a1ce" matches more than one of your articles.', nextAction: 'Use a longer anchor.' });
    expectFailure(await alice.post('/api/articles/a1ce/sections', { markdown: '# x' }), 400, 'invalid-argument');
    expect((await alice.get('/api/articles/a1ce1/outline')).status).toBe(200);
  });

  it('answers 404 when no article of the caller\'s matches, or the prefix is shorter than 4 characters', async () => {
    for (const id of ['ffff', 'a1ce2', 'a1c']) {
      const error = expectFailure(await alice.get(`/api/articles/${id}`), 404, 'not-found');
      expect(error.nextAction).toBe('Call GET /api/articles for your articles.');
    }
    expect(expectFailure(await alice.get('/api/articles/a1c'), 404, 'not-found').message).toMatch(/at least 4 characters/);
  });

  it('never matches another user\'s article', async () => {
    // Bob's only article shares "a1ce0000-0000-4000-8000-0000000000" with Alice's first: each sees only their own.
    expect((await bobKey.get('/api/articles/a1ce')).body.data.article.id).toBe(BOB_1);
    expect((await bobSession.get('/api/articles/a1ce0000-0000-4000-8000-0000000000')).body.data.article.id).toBe(BOB_1);
    expect((await alice.get('/api/articles/a1ce0000-0000-4000-8000-0000000000')).body.data.article.id).toBe(ALICE_1);
    // Alice's second article is invisible to Bob, by prefix as by full id.
    for (const id of ['a1ce1', ALICE_2.slice(0, 20), ALICE_2]) {
      expectFailure(await bobKey.get(`/api/articles/${id}`), 404, 'not-found');
      expectFailure(await bobKey.patch(`/api/articles/${id}/brief`, { premise: 'Mine' }), 404, 'not-found');
      expectFailure(await bobKey.del(`/api/articles/${id}`), 404, 'not-found');
    }
    expect((await alice.get(`/api/articles/${ALICE_2}/brief`)).body.data.premise).toBeNull();
    // Deleting by prefix deletes the one article addressed.
    expect((await bobKey.del('/api/articles/a1ce0')).body.data.id).toBe(BOB_1);
    expect((await alice.get(`/api/articles/${ALICE_1}`)).status).toBe(200);
  });
});
