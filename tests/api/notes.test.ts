import { client, missingId, newArticle, sharedPrefix, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let alice: TestUser;
let a: Client;
let aSession: Client;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app, 'alice');
  a = client(app, await createKey(app, alice));
  aSession = client(app, alice.jwt);
});
afterAll(() => app?.close());

const NOTE_KEYS = ['anchor', 'body', 'createdBy', 'html', 'kind', 'title', 'url'];
const MAP_KEYS = ['anchor', 'kind', 'title', 'url'];

async function withNotes(n: number) {
  const { article } = await newArticle(a, { title: 'Notes', markdown: '# A' });
  const notes: any[] = [];
  for (let i = 0; i < n; i += 1) {
    const res = await a.post(`/api/articles/${article.id}/notes`, { kind: 'idea', title: `N${i + 1}`, body: `Body **${i + 1}**` });
    notes.push(res.body.data.note);
  }
  return { id: article.id, notes };
}

describe('POST /api/articles/{id}/notes', () => {
  it('adds a note (createdBy agent with an API key, human with a session) and returns it with the notes map', async () => {
    const { article } = await newArticle(a, { title: 'T' });
    const res = await a.post(`/api/articles/${article.id}/notes`, {
      kind: 'source',
      title: 'Paper',
      body: 'Read *this*.\n\n<img src=x onerror=alert(1)>',
      url: 'https://example.com/paper',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(['changeSet', 'note', 'notes']);
    const { note } = res.body.data;
    expect(Object.keys(note).sort()).toEqual(NOTE_KEYS);
    expect(note).toEqual({
      anchor: expect.stringMatching(/^[0-9a-f]{6}$/),
      kind: 'source',
      title: 'Paper',
      body: 'Read *this*.\n\n<img src=x onerror=alert(1)>',
      url: 'https://example.com/paper',
      createdBy: 'agent',
      html: '<p>Read <em>this</em>.</p>\n<img src="x">',
    });
    expect(res.body.data.notes).toEqual([{ anchor: note.anchor, kind: 'source', title: 'Paper', url: 'https://example.com/paper' }]);

    const human = await aSession.post(`/api/articles/${article.id}/notes`, { kind: 'question', title: 'Why?' });
    expect(human.status).toBe(201);
    expect(human.body.data.note).toMatchObject({ createdBy: 'human', body: null, url: null, html: '' });
    expect(human.body.data.notes.map((n) => n.title)).toEqual(['Paper', 'Why?']);
  });

  it('refuses a missing or unknown kind, an empty title, wrong types and a non-http url', async () => {
    const { article } = await newArticle(a, { title: 'T' });
    const path = `/api/articles/${article.id}/notes`;
    const cases: [unknown, string][] = [
      [{ title: 'x' }, 'kind is required.'],
      [{ kind: 'rumour', title: 'x' }, 'kind must be one of source, decision, idea, question.'],
      [{ kind: 3, title: 'x' }, 'kind must be one of source, decision, idea, question.'],
      [{ kind: 'idea' }, 'title is required.'],
      [{ kind: 'idea', title: '' }, 'title must not be empty.'],
      [{ kind: 'idea', title: '  ' }, 'title must not be empty.'],
      [{ kind: 'idea', title: 5 }, 'title must be a string.'],
      [{ kind: 'idea', title: 'x', body: 5 }, 'body must be a string or null.'],
      [{ kind: 'idea', title: 'x', url: 'ftp://example.com/x' }, 'url: The link must be a full web address that starts with http:// or https://, such as https://example.com/page.'],
      [{ kind: 'idea', title: 'x', url: 'javascript:alert(1)' }, 'url: The link must be a full web address that starts with http:// or https://, such as https://example.com/page.'],
      [{ kind: 'idea', title: 'x', url: '/relative' }, 'url: The link must be a full web address that starts with http:// or https://, such as https://example.com/page.'],
      [{ kind: 'idea', title: 'x', createdBy: 'human' }, 'Unknown field: createdBy.'],
    ];
    for (const [body, message] of cases) {
      const error = expectFailure(await a.post(path, body), 400, 'invalid-argument');
      expect([JSON.stringify(body), error.message]).toEqual([JSON.stringify(body), message]);
      expect(error.nextAction).toBeTruthy();
    }
    expectFailure(await a.post(`/api/articles/${missingId()}/notes`, { kind: 'idea', title: 'x' }), 404, 'not-found');
    expectFailure(await app.http.post(path).send({ kind: 'idea', title: 'x' }), 401, 'unauthenticated');
  });
});

describe('GET /api/articles/{id}/notes', () => {
  it('lists the notes map in the order added, without bodies', async () => {
    const { id, notes } = await withNotes(3);
    const res = await a.get(`/api/articles/${id}/notes`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['notes']);
    expect(res.body.data.notes).toEqual(notes.map((n) => ({ anchor: n.anchor, kind: 'idea', title: n.title, url: null })));
    expect(res.body.data.notes.every((n) => Object.keys(n).sort().join() === MAP_KEYS.join())).toBe(true);
  });

  it('answers 404 for a missing article and 401 without a credential', async () => {
    expectFailure(await a.get(`/api/articles/${missingId()}/notes`), 404, 'not-found');
    expectFailure(await app.http.get(`/api/articles/${missingId()}/notes`), 401, 'unauthenticated');
  });
});

describe('GET /api/articles/{id}/notes/{nid}', () => {
  it('returns the full note by anchor, case-insensitively', async () => {
    const { id, notes } = await withNotes(2);
    const res = await a.get(`/api/articles/${id}/notes/${notes[1].anchor.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ note: notes[1] });
    expect(notes[1]).toMatchObject({ body: 'Body **2**', html: '<p>Body <strong>2</strong></p>', createdBy: 'agent' });
  });

  it('answers 400 for an ambiguous anchor and 404 naming GET notes when nothing matches', async () => {
    const { id, notes } = await withNotes(17);
    const prefix = sharedPrefix(notes.map((n) => n.anchor));
    expect(expectFailure(await a.get(`/api/articles/${id}/notes/${prefix}`), 400, 'invalid-argument').nextAction).toBe('Use a longer anchor.');
    for (const anchor of ['ffffffff-f', 'zz']) {
      const error = expectFailure(await a.get(`/api/articles/${id}/notes/${anchor}`), 404, 'not-found');
      expect(error.nextAction).toBe(`Call GET /api/articles/${id}/notes for the current anchors.`);
    }
    expectFailure(await a.get(`/api/articles/${missingId()}/notes/${notes[0].anchor}`), 404, 'not-found');
    expectFailure(await app.http.get(`/api/articles/${id}/notes/${notes[0].anchor}`), 401, 'unauthenticated');
  });
});

describe('PATCH /api/articles/{id}/notes/{nid}', () => {
  it('changes only the fields passed, and null clears body and url', async () => {
    const { article } = await newArticle(a, { title: 'T' });
    const created = (
      await a.post(`/api/articles/${article.id}/notes`, { kind: 'source', title: 'Old', body: 'old body', url: 'http://example.com/' })
    ).body.data.note;
    const path = `/api/articles/${article.id}/notes/${created.anchor}`;

    const kind = await a.patch(path, { kind: 'decision' });
    expect(kind.status).toBe(200);
    expect(Object.keys(kind.body.data).sort()).toEqual(['changeSet', 'note', 'notes']);
    expect(kind.body.data.note).toEqual({ ...created, kind: 'decision' });
    expect(kind.body.data.notes).toEqual([{ anchor: created.anchor, kind: 'decision', title: 'Old', url: 'http://example.com/' }]);

    const body = await a.patch(path, { body: 'new *body*', title: 'New' });
    expect(body.body.data.note).toEqual({ ...created, kind: 'decision', title: 'New', body: 'new *body*', html: '<p>new <em>body</em></p>' });

    const cleared = await a.patch(path, { body: null, url: null });
    expect(cleared.body.data.note).toEqual({ ...created, kind: 'decision', title: 'New', body: null, html: '', url: null });
    expect((await a.get(path)).body.data.note).toEqual(cleared.body.data.note);
    // createdBy stays what it was, whoever edits.
    expect((await aSession.patch(path, { title: 'By a human' })).body.data.note.createdBy).toBe('agent');
  });

  it('refuses nothing to change, an unknown kind, an empty title, wrong types and an ambiguous anchor', async () => {
    const { id, notes } = await withNotes(17);
    const path = `/api/articles/${id}/notes/${notes[0].anchor}`;
    const cases: [unknown, string | RegExp][] = [
      [{}, /^Nothing to change/],
      [{ kind: 'gossip' }, 'kind must be one of source, decision, idea, question.'],
      [{ title: '' }, 'title must not be empty.'],
      [{ title: null }, 'title must be a string.'],
      [{ body: 12 }, 'body must be a string or null.'],
      [{ url: false }, 'url must be a string or null.'],
      [{ url: 'mailto:a@example.com' }, 'url: The link must be a full web address that starts with http:// or https://, such as https://example.com/page.'],
      [{ anchor: 'x' }, 'Unknown field: anchor.'],
    ];
    for (const [body, message] of cases) {
      const error = expectFailure(await a.patch(path, body), 400, 'invalid-argument');
      expect([JSON.stringify(body), error.message]).toEqual([JSON.stringify(body), typeof message === 'string' ? message : expect.stringMatching(message)]);
    }
    const prefix = sharedPrefix(notes.map((n) => n.anchor));
    expect(expectFailure(await a.patch(`/api/articles/${id}/notes/${prefix}`, { title: 'x' }), 400, 'invalid-argument').nextAction).toBe(
      'Use a longer anchor.',
    );
    expect(expectFailure(await a.patch(`/api/articles/${id}/notes/0000000`, { title: 'x' }), 404, 'not-found').nextAction).toContain(
      `GET /api/articles/${id}/notes`,
    );
    expectFailure(await a.patch(`/api/articles/${missingId()}/notes/${notes[0].anchor}`, { title: 'x' }), 404, 'not-found');
    expectFailure(await app.http.patch(path).send({ title: 'x' }), 401, 'unauthenticated');
  });
});

describe('DELETE /api/articles/{id}/notes/{nid}', () => {
  it('deletes a note and returns the fresh notes map', async () => {
    const { id, notes } = await withNotes(3);
    const res = await a.del(`/api/articles/${id}/notes/${notes[1].anchor}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ notes: [notes[0], notes[2]].map((n) => ({ anchor: n.anchor, kind: n.kind, title: n.title, url: n.url })), changeSet: { id: expect.any(String), anchor: expect.any(String) } });
    expectFailure(await a.get(`/api/articles/${id}/notes/${notes[1].anchor}`), 404, 'not-found');
    expectFailure(await a.del(`/api/articles/${id}/notes/${notes[1].anchor}`), 404, 'not-found');
  });

  it('answers 400 for an ambiguous anchor, 404 for no match or no article, 401 without a credential', async () => {
    const { id, notes } = await withNotes(17);
    const prefix = sharedPrefix(notes.map((n) => n.anchor));
    expect(expectFailure(await a.del(`/api/articles/${id}/notes/${prefix}`), 400, 'invalid-argument').nextAction).toBe('Use a longer anchor.');
    expectFailure(await a.del(`/api/articles/${missingId()}/notes/${notes[0].anchor}`), 404, 'not-found');
    expectFailure(await app.http.delete(`/api/articles/${id}/notes/${notes[0].anchor}`), 401, 'unauthenticated');
    expect((await a.get(`/api/articles/${id}/notes`)).body.data.notes).toHaveLength(17);
  });
});

describe('the brief', () => {
  it('GET returns the premise and the full notes', async () => {
    const { id, notes } = await withNotes(2);
    await a.patch(`/api/articles/${id}/brief`, { premise: 'Everything follows from this.' });
    const res = await a.get(`/api/articles/${id}/brief`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ premise: 'Everything follows from this.', notes });
  });

  it('PATCH sets the premise; null or "" clears it to null', async () => {
    const { article } = await newArticle(a, { title: 'T', premise: 'First.' });
    const path = `/api/articles/${article.id}/brief`;
    expect((await a.get(path)).body.data).toEqual({ premise: 'First.', notes: [] });
    const set = await a.patch(path, { premise: 'Second.' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ success: true, data: { premise: 'Second.', changeSet: { id: expect.any(String), anchor: expect.any(String) } } });
    for (const premise of [null, '']) {
      expect((await a.patch(path, { premise })).body.data).toEqual({ premise: null, changeSet: { id: expect.any(String), anchor: expect.any(String) } });
      expect((await a.get(path)).body.data.premise).toBeNull();
      await a.patch(path, { premise: 'again' });
    }
    expect((await a.get(`/api/articles/${article.id}`)).body.data.brief.premise).toBe('again');
  });

  it('PATCH refuses a premise that is neither a string nor null, and notes', async () => {
    const { article } = await newArticle(a, { title: 'T' });
    const path = `/api/articles/${article.id}/brief`;
    for (const [body, message] of [
      [{ premise: 5 }, 'premise must be a string or null.'],
      [{ premise: ['a'] }, 'premise must be a string or null.'],
      [{}, 'premise is required.'],
      [{ premise: 'x', notes: [] }, 'Unknown field: notes.'],
    ] as const) {
      expect(expectFailure(await a.patch(path, body), 400, 'invalid-argument').message).toBe(message);
    }
    expectFailure(await a.patch(`/api/articles/${missingId()}/brief`, { premise: 'x' }), 404, 'not-found');
    expectFailure(await a.get(`/api/articles/${missingId()}/brief`), 404, 'not-found');
    expectFailure(await app.http.patch(path).send({ premise: 'x' }), 401, 'unauthenticated');
    expectFailure(await app.http.get(path), 401, 'unauthenticated');
  });
});
