/**
 * CONTRACT section 10: revisions, ETags, If-Match (412), If-None-Match (304), ?include=rev, and
 * the check-and-write under the article's lock with real concurrency.
 */
import { client, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let a: Client;

beforeAll(async () => {
  app = await startApp();
  a = client(app, await createKey(app, await registerUser(app, 'alice')));
}, 180_000);
afterAll(() => app?.close());

const withHeaders = (req, headers: Record<string, string>) => {
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req;
};

describe('ETags and If-None-Match', () => {
  it('sends a strong ETag on section, note, outline and article GETs, and 304 with no body for a current If-None-Match', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const path = `/api/articles/${article.id}/sections/${outline[0].anchor}`;
    const first = await a.get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await withHeaders(a.get(path), { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await withHeaders(a.get(path), { 'If-None-Match': '"something-else"' })).status).toBe(200);
    expect((await withHeaders(a.get(path), { 'If-None-Match': `W/${etag}` })).status).toBe(304);

    const outlineRes = await a.get(`/api/articles/${article.id}/outline`);
    const articleRes = await a.get(`/api/articles/${article.id}`);
    expect(outlineRes.headers.etag).toMatch(/^"[^"]+"$/);
    expect(articleRes.headers.etag).toBe(outlineRes.headers.etag);
    expect((await withHeaders(a.get(`/api/articles/${article.id}/outline`), { 'If-None-Match': outlineRes.headers.etag })).status).toBe(304);
    expect((await withHeaders(a.get(`/api/articles/${article.id}`), { 'If-None-Match': outlineRes.headers.etag })).status).toBe(304);

    const note = (await a.post(`/api/articles/${article.id}/notes`, { kind: 'idea', title: 'N' })).body.data.note;
    const noteRes = await a.get(`/api/articles/${article.id}/notes/${note.anchor}`);
    expect(noteRes.headers.etag).toMatch(/^"[^"]+"$/);
    expect((await withHeaders(a.get(`/api/articles/${article.id}/notes/${note.anchor}`), { 'If-None-Match': noteRes.headers.etag })).status).toBe(304);
  });

  it('adds rev to outline entries only with ?include=rev', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const plain = (await a.get(`/api/articles/${article.id}/outline`)).body.data.outline;
    expect(Object.keys(plain[0]).sort()).toEqual(['anchor', 'level', 'source', 'title', 'words']);
    await a.patch(`/api/articles/${article.id}/sections/${outline[1].anchor}`, { markdown: '## S2\n\nNew.' });
    const withRev = (await a.get(`/api/articles/${article.id}/outline?include=rev`)).body.data.outline;
    expect(withRev.map((e) => [e.title, e.rev])).toEqual([
      ['S1', 1],
      ['S2', 2],
    ]);
    const full = (await a.get(`/api/articles/${article.id}?include=rev`)).body.data.outline;
    expect(full).toEqual(withRev);
    expectFailure(await a.get(`/api/articles/${article.id}/outline?include=everything`), 400, 'invalid-argument');
  });
});

describe('If-Match on section writes', () => {
  it('PATCH with the current ETag writes and answers the new one; a stale one is 412 naming the GET, and nothing changes', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const path = `/api/articles/${article.id}/sections/${outline[0].anchor}`;
    const etag = (await a.get(path)).headers.etag;
    const ok = await withHeaders(a.patch(path, { markdown: '## S1\n\nFirst edit.' }), { 'If-Match': etag });
    expect(ok.status).toBe(200);
    const fresh = await a.get(path);
    expect(ok.headers.etag).toBe(fresh.headers.etag);
    expect(ok.headers.etag).not.toBe(etag);

    const stale = await withHeaders(a.patch(path, { markdown: '## S1\n\nLost edit.' }), { 'If-Match': etag });
    const error = expectFailure(stale, 412, 'precondition-failed');
    expect(error.nextAction).toContain(`GET /api/articles/${article.id}/sections/${outline[0].anchor}`);
    expect((await a.get(path)).body.data.section.markdown).toBe('## S1\n\nFirst edit.');

    // * matches any existing section; no If-Match behaves as before.
    expect((await withHeaders(a.patch(path, { markdown: '## S1\n\nStar.' }), { 'If-Match': '*' })).status).toBe(200);
    expect((await a.patch(path, { markdown: '## S1\n\nPlain.' })).status).toBe(200);
    // One of several tags matching is enough.
    const current = (await a.get(path)).headers.etag;
    expect((await withHeaders(a.patch(path, { markdown: '## S1\n\nList.' }), { 'If-Match': `"x", ${current}` })).status).toBe(200);
  });

  it('answers 400 for a malformed If-Match', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const path = `/api/articles/${article.id}/sections/${outline[0].anchor}`;
    for (const bad of ['abc', '"unterminated', '3', '"a" "b"', '']) {
      const error = expectFailure(await withHeaders(a.patch(path, { markdown: '## X' }), { 'If-Match': bad }), 400, 'invalid-argument');
      expect(error.message).toMatch(/If-Match/);
      expect(error.nextAction).toMatch(/ETag/);
    }
    expectFailure(await withHeaders(a.post(`/api/articles/${article.id}/sections`, { markdown: '## X' }), { 'If-Match': 'nope' }), 400, 'invalid-argument');
    expect((await a.get(`/api/articles/${article.id}/outline`)).body.data.outline).toEqual(outline);
  });

  it('DELETE and move take the section\'s ETag; moving keeps it; POST sections takes the outline\'s', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    const [s1, s2, s3] = outline.map((e) => e.anchor);
    const base = `/api/articles/${article.id}`;
    const tag1 = (await a.get(`${base}/sections/${s1}`)).headers.etag;
    const moved = await withHeaders(a.post(`${base}/sections/${s1}/move`, { after: s3 }), { 'If-Match': tag1 });
    expect(moved.status).toBe(200);
    expect((await a.get(`${base}/sections/${s1}`)).headers.etag).toBe(tag1);
    expect(moved.headers.etag).toBe((await a.get(`${base}/outline`)).headers.etag);

    await a.patch(`${base}/sections/${s2}`, { markdown: '## S2b' });
    const staleTag2 = '"s.00000000-0000-4000-8000-000000000000.1"';
    expectFailure(await withHeaders(a.del(`${base}/sections/${s2}`), { 'If-Match': staleTag2 }), 412, 'precondition-failed');
    expectFailure(await withHeaders(a.post(`${base}/sections/${s2}/move`, { before: s1 }), { 'If-Match': staleTag2 }), 412, 'precondition-failed');
    const tag2 = (await a.get(`${base}/sections/${s2}`)).headers.etag;
    const deleted = await withHeaders(a.del(`${base}/sections/${s2}`), { 'If-Match': tag2 });
    expect(deleted.status).toBe(200);

    const outlineTag = (await a.get(`${base}/outline`)).headers.etag;
    expect(deleted.headers.etag).toBe(outlineTag);
    const added = await withHeaders(a.post(`${base}/sections`, { markdown: '## New' }), { 'If-Match': outlineTag });
    expect(added.status).toBe(201);
    expect(added.headers.etag).toBe((await a.get(`${base}/outline`)).headers.etag);
    const stale = expectFailure(await withHeaders(a.post(`${base}/sections`, { markdown: '## Late' }), { 'If-Match': outlineTag }), 412, 'precondition-failed');
    expect(stale.nextAction).toContain(`GET /api/articles/${article.id}/outline`);
    expect((await a.get(`${base}/outline`)).body.data.outline.map((e) => e.title)).toEqual(['S3', 'S1', 'New']);
  });

  it('a PATCH that splits into several sections answers the outline\'s ETag', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(1) });
    const res = await a.patch(`/api/articles/${article.id}/sections/${outline[0].anchor}`, { markdown: '## A\n\n## B' });
    expect(res.headers.etag).toBe((await a.get(`/api/articles/${article.id}/outline`)).headers.etag);
  });
});

describe('If-Match on note writes', () => {
  it('PATCH and DELETE of a note check its ETag; writes answer the note\'s new ETag', async () => {
    const { article } = await newArticle(a, { title: 'T' });
    const created = await a.post(`/api/articles/${article.id}/notes`, { kind: 'idea', title: 'N' });
    const anchor = created.body.data.note.anchor;
    const path = `/api/articles/${article.id}/notes/${anchor}`;
    expect(created.headers.etag).toBe((await a.get(path)).headers.etag);
    const tag = created.headers.etag;
    const patched = await withHeaders(a.patch(path, { title: 'N2' }), { 'If-Match': tag });
    expect(patched.status).toBe(200);
    expect(patched.headers.etag).toBe((await a.get(path)).headers.etag);
    const error = expectFailure(await withHeaders(a.patch(path, { title: 'N3' }), { 'If-Match': tag }), 412, 'precondition-failed');
    expect(error.nextAction).toContain(`GET /api/articles/${article.id}/notes/${anchor}`);
    expectFailure(await withHeaders(a.del(path), { 'If-Match': tag }), 412, 'precondition-failed');
    expectFailure(await withHeaders(a.del(path), { 'If-Match': 'bad' }), 400, 'invalid-argument');
    expect((await a.get(path)).body.data.note.title).toBe('N2');
    expect((await withHeaders(a.del(path), { 'If-Match': patched.headers.etag })).status).toBe(200);
  });
});

describe('concurrent conditional writes', () => {
  it('two agents on different sections never get 412; on the same section exactly one wins and the other succeeds after re-reading', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(6) });
    const base = `/api/articles/${article.id}/sections`;
    const tags = await Promise.all(outline.map((e) => a.get(`${base}/${e.anchor}`).then((r) => r.headers.etag)));
    const different = await Promise.all(
      outline.map((e, i) => withHeaders(a.patch(`${base}/${e.anchor}`, { markdown: `## S${i + 1}\n\nAgent ${i}.` }), { 'If-Match': tags[i] })),
    );
    expect(different.map((r) => r.status)).toEqual(Array(6).fill(200));

    const target = outline[0].anchor;
    const tag = (await a.get(`${base}/${target}`)).headers.etag;
    const racers = Array.from({ length: 5 }, (_, i) => `## S1\n\nRacer ${i}.`);
    const race = await Promise.all(racers.map((markdown) => withHeaders(a.patch(`${base}/${target}`, { markdown }), { 'If-Match': tag })));
    const statuses = race.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    const winner = racers[race.findIndex((r) => r.status === 200)];
    const now = await a.get(`${base}/${target}`);
    expect(now.body.data.section.markdown).toBe(winner);
    // A loser re-reads, merges and succeeds.
    const retry = await withHeaders(a.patch(`${base}/${target}`, { markdown: `${winner}\n\nMerged.` }), { 'If-Match': now.headers.etag });
    expect(retry.status).toBe(200);
  });

  it('two inserts holding the same outline ETag: exactly one lands', async () => {
    const { article } = await newArticle(a, { title: 'T', markdown: sectionsDoc(2) });
    const tag = (await a.get(`/api/articles/${article.id}/outline`)).headers.etag;
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) => withHeaders(a.post(`/api/articles/${article.id}/sections`, { markdown: `## N${i}` }), { 'If-Match': tag })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 412, 412, 412]);
    expect((await a.get(`/api/articles/${article.id}/outline`)).body.data.outline).toHaveLength(3);
  });
});


describe('a 412 carries the current version\'s ETag (CONTRACT section 20)', () => {
  it('section, note and outline preconditions, on the single routes and on edits', async () => {
    const { article, outline } = await newArticle(a, { title: 'T', markdown: sectionsDoc(3) });
    const base = `/api/articles/${article.id}`;
    const [s1, s2] = outline.map((e) => e.anchor);
    const old1 = (await a.get(`${base}/sections/${s1}`)).headers.etag;
    await a.patch(`${base}/sections/${s1}`, { markdown: '## S1\n\nChanged.' });
    const current1 = (await a.get(`${base}/sections/${s1}`)).headers.etag;
    expect(current1).not.toBe(old1);
    for (const req of [
      a.patch(`${base}/sections/${s1}`, { markdown: '## S1\n\nLate.' }),
      a.del(`${base}/sections/${s1}`),
      a.post(`${base}/sections/${s1}/move`, { after: s2 }),
    ]) {
      const res = await withHeaders(req, { 'If-Match': old1 });
      expectFailure(res, 412, 'precondition-failed');
      expect(res.headers.etag).toBe(current1);
    }
    // An edits op's ifMatch names the section; the request's names the outline.
    const opStale = await a.post(`${base}/edits`, { ops: [{ op: 'replace', section: s1, markdown: '## S1\n\nX.', ifMatch: old1 }] });
    expectFailure(opStale, 412, 'precondition-failed');
    expect(opStale.headers.etag).toBe(current1);
    const outlineNow = (await a.get(`${base}/outline`)).headers.etag;
    const oldOutline = '"o.00000000-0000-4000-8000-000000000000.1"';
    const outlineStale = await a.post(`${base}/edits`, { ops: [{ op: 'insert', markdown: '## N' }], ifMatch: oldOutline });
    expectFailure(outlineStale, 412, 'precondition-failed');
    expect(outlineStale.headers.etag).toBe(outlineNow);
    const insertStale = await withHeaders(a.post(`${base}/sections`, { markdown: '## N' }), { 'If-Match': oldOutline });
    expectFailure(insertStale, 412, 'precondition-failed');
    expect(insertStale.headers.etag).toBe(outlineNow);
    // The ETag names the version a GET returns now: sending it back succeeds.
    expect((await withHeaders(a.patch(`${base}/sections/${s1}`, { markdown: '## S1\n\nMerged.' }), { 'If-Match': current1 })).status).toBe(200);

    const note = await a.post(`${base}/notes`, { kind: 'idea', title: 'N' });
    const path = `${base}/notes/${note.body.data.note.anchor}`;
    await a.patch(path, { title: 'N2' });
    const noteNow = (await a.get(path)).headers.etag;
    for (const req of [a.patch(path, { title: 'N3' }), a.del(path)]) {
      const res = await withHeaders(req, { 'If-Match': note.headers.etag });
      expectFailure(res, 412, 'precondition-failed');
      expect(res.headers.etag).toBe(noteNow);
    }
  });
});
