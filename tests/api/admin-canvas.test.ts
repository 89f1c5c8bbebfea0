/**
 * The canvas's admin routes (/quire/articles/{id}/...): an editor works on an article an agent
 * wrote, through the same services as the content API, with the article's owner kept; the
 * agent sees the editor's work (html sections, human notes); hostile HTML is sanitised.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { bearer, createKey, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let token: string;
let ada: TestUser;
let agentKey: string;
let articleId: string;
let anchors: string[];

const admin = () => adminBearer(token);
const base = () => `/quire/articles/${articleId}`;

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', PUBLIC_URL: 'http://127.0.0.1:1337' });
  token = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
  ada = await registerUser(app, 'ada');
  agentKey = await createKey(app, ada, 'agent');
  const res = await app.http
    .post('/api/articles')
    .set(bearer(agentKey))
    .send({ title: 'Engines', markdown: '# One\n\nThe engine weaves.\n\n# Two\n\nAs the loom.\n\n# Three\n\nFlowers.', premise: 'Why engines' });
  expect(res.status).toBe(201);
  articleId = res.body.data.article.id;
  anchors = res.body.data.outline.map((s) => s.anchor);
});
afterAll(() => app?.close());

it('reads every section with its content, and the outline with an ETag that answers 304 until a section changes', async () => {
  const sections = await app.http.get(`${base()}/sections`).set(admin());
  expect(sections.status).toBe(200);
  expect(sections.body.data.sections.map((s) => [s.title, s.source])).toEqual([['One', 'markdown'], ['Two', 'markdown'], ['Three', 'markdown']]);
  expect(sections.body.data.sections[0].html).toContain('The engine weaves.');

  const outline = await app.http.get(`${base()}/outline`).set(admin());
  expect(outline.status).toBe(200);
  const etag = outline.headers.etag;
  expect(etag).toMatch(/^"o\.[0-9a-f-]{36}\.\d+"$/);
  expect(sections.headers.etag).toBe(etag);
  const same = await app.http.get(`${base()}/outline`).set(admin()).set('If-None-Match', etag);
  expect(same.status).toBe(304);
  expect(same.text).toBe('');

  // An agent's change shows up as a new ETag.
  expect((await app.http.patch(`/api/articles/${articleId}/sections/${anchors[2]}`).set(bearer(agentKey)).send({ markdown: '# Three\n\nMore flowers.' })).status).toBe(200);
  const changed = await app.http.get(`${base()}/outline`).set(admin()).set('If-None-Match', etag);
  expect(changed.status).toBe(200);
  expect(changed.headers.etag).not.toBe(etag);
});

it('saves a section as HTML, sanitised, keeping link cards; the agent then reads an html section of the same owner', async () => {
  const hostile =
    '<h2>One, edited</h2><p onclick="steal()">Edited <strong>by hand</strong>.<script>alert(1)</script></p><img src="x" onerror="alert(1)">' +
    '<a href="javascript:alert(1)">click</a><iframe src="https://evil.example"></iframe>' +
    '<figure data-type="link-card" data-url="https://example.com/a" data-title="A page" data-image="javascript:alert(2)"><figcaption><a href="https://example.com/a">A page</a></figcaption></figure>';
  const saved = await app.http.put(`${base()}/sections/${anchors[0]}`).set(admin()).send({ html: hostile });
  expect(saved.status).toBe(200);
  expect(saved.body.data.updated).toEqual([expect.objectContaining({ anchor: anchors[0], title: 'One, edited', level: 2, source: 'html' })]);

  const seen = await app.http.get(`/api/articles/${articleId}/sections/${anchors[0]}`).set(bearer(agentKey));
  expect(seen.status).toBe(200);
  const { section } = seen.body.data;
  expect(section).toEqual(expect.objectContaining({ source: 'html', markdown: null, title: 'One, edited' }));
  expect(section.html).toContain('Edited <strong>by hand</strong>.');
  expect(section.html).toContain('<figure data-type="link-card" data-url="https://example.com/a" data-title="A page">');
  for (const bad of ['<script', 'onclick', 'onerror', 'javascript:', '<iframe', 'alert(']) expect(section.html).not.toContain(bad);
});

it('saves with If-Match: a section changed since the editor opened it is 412 and nothing is written', async () => {
  const opened = await app.http.get(`${base()}/sections/${anchors[1]}`).set(admin());
  expect(opened.status).toBe(200);
  const etag = opened.headers.etag;
  expect(etag).toMatch(/^"s\.[0-9a-f-]+\.\d+"$/);
  expect((await app.http.patch(`/api/articles/${articleId}/sections/${anchors[1]}`).set(bearer(agentKey)).send({ markdown: '# Two\n\nThe agent was here.' })).status).toBe(200);

  const refused = await app.http.put(`${base()}/sections/${anchors[1]}`).set(admin()).set('If-Match', etag).send({ html: '<h1>Two</h1><p>Mine.</p>' });
  expect(refused.status).toBe(412);
  expect(refused.body.error).toEqual(expect.objectContaining({ status: 412, name: 'PreconditionFailedError', details: expect.objectContaining({ code: 'precondition-failed' }) }));
  expect((await app.http.get(`/api/articles/${articleId}/sections/${anchors[1]}`).set(bearer(agentKey))).body.data.section.markdown).toContain('The agent was here.');

  const current = (await app.http.get(`${base()}/sections/${anchors[1]}`).set(admin())).headers.etag;
  expect(current).not.toBe(etag);
  const saved = await app.http.put(`${base()}/sections/${anchors[1]}`).set(admin()).set('If-Match', current).send({ html: '<h1>Two</h1><p>Mine, on purpose.</p>' });
  expect(saved.status).toBe(200);
  expect(saved.headers.etag).not.toBe(current);
});

it('adds, moves and deletes sections', async () => {
  const added = await app.http.post(`${base()}/sections`).set(admin()).send({ markdown: '## Four\n\nNew.', after: anchors[2] });
  expect(added.status).toBe(201);
  const four = added.body.data.added[0].anchor;
  const moved = await app.http.post(`${base()}/sections/${four}/move`).set(admin()).send({ before: anchors[0] });
  expect(moved.status).toBe(200);
  expect(moved.body.data.outline.map((s) => s.title)).toEqual(['Four', 'One, edited', 'Two', 'Three']);
  const removed = await app.http.delete(`${base()}/sections/${four}`).set(admin());
  expect(removed.status).toBe(200);
  expect(removed.body.data.outline.map((s) => s.title)).toEqual(['One, edited', 'Two', 'Three']);
  const invalid = await app.http.post(`${base()}/sections/${anchors[0]}/move`).set(admin()).send({});
  expect(invalid.status).toBe(400);
  expect(invalid.body.error).toEqual(expect.objectContaining({ status: 400, name: 'ValidationError', details: expect.objectContaining({ code: 'invalid-argument' }) }));
});

it('adds, moves and deletes sections only on the version the editor saw (If-Match): 412 otherwise, nothing written', async () => {
  const outlineEtag = (await app.http.get(`${base()}/outline`).set(admin())).headers.etag;
  const sectionEtag = (await app.http.get(`${base()}/sections/${anchors[2]}`).set(admin())).headers.etag;
  expect((await app.http.patch(`/api/articles/${articleId}/sections/${anchors[2]}`).set(bearer(agentKey)).send({ markdown: '# Three\n\nThe agent again.' })).status).toBe(200);
  const titles = async () => (await app.http.get(`${base()}/outline`).set(admin())).body.data.outline.map((s) => s.title);
  const before = await titles();

  const refusals = [
    app.http.post(`${base()}/sections`).set(admin()).set('If-Match', outlineEtag).send({ markdown: '## Five\n\nLate.' }),
    app.http.post(`${base()}/sections/${anchors[2]}/move`).set(admin()).set('If-Match', sectionEtag).send({ before: anchors[0] }),
    app.http.delete(`${base()}/sections/${anchors[2]}`).set(admin()).set('If-Match', sectionEtag),
  ];
  for (const refusal of refusals) {
    const res = await refusal;
    expect(res.status).toBe(412);
    expect(res.body.error.details).toEqual(expect.objectContaining({ code: 'precondition-failed' }));
  }
  expect(await titles()).toEqual(before);

  const current = await app.http.get(`${base()}/outline`).set(admin());
  const added = await app.http.post(`${base()}/sections`).set(admin()).set('If-Match', current.headers.etag).send({ markdown: '## Five\n\nOn time.' });
  expect(added.status).toBe(201);
  expect(added.headers.etag).not.toBe(current.headers.etag);
  const five = added.body.data.added[0].anchor;
  const fiveEtag = (await app.http.get(`${base()}/sections/${five}`).set(admin())).headers.etag;
  const removed = await app.http.delete(`${base()}/sections/${five}`).set(admin()).set('If-Match', fiveEtag);
  expect(removed.status).toBe(200);
  expect(removed.headers.etag).toMatch(/^"o\./);
  expect(await titles()).toEqual(before);
});

it('edits the Brief: premise and notes, written by a human', async () => {
  expect((await app.http.put(`${base()}/brief`).set(admin()).send({ premise: 'Why engines matter' })).body.data).toEqual({ premise: 'Why engines matter' });
  const note = await app.http.post(`${base()}/notes`).set(admin()).send({ kind: 'decision', title: 'Keep it short', body: 'Under *800* words.' });
  expect(note.status).toBe(201);
  expect(note.body.data.note).toEqual(expect.objectContaining({ kind: 'decision', createdBy: 'human', html: expect.stringContaining('<em>800</em>') }));
  const anchor = note.body.data.note.anchor;
  const edited = await app.http.put(`${base()}/notes/${anchor}`).set(admin()).send({ kind: 'idea', url: 'https://example.com/n' });
  expect(edited.body.data.note).toEqual(expect.objectContaining({ kind: 'idea', title: 'Keep it short', url: 'https://example.com/n' }));
  const brief = await app.http.get(`/api/articles/${articleId}/brief`).set(bearer(agentKey));
  expect(brief.body.data.premise).toBe('Why engines matter');
  expect(brief.body.data.notes).toEqual([expect.objectContaining({ title: 'Keep it short', createdBy: 'human' })]);
  expect((await app.http.delete(`${base()}/notes/${anchor}`).set(admin())).body.data).toEqual({ notes: [] });
});

it('reads a note with its ETag; a note an agent changed since is 412 to edit or delete, and nothing is written', async () => {
  const created = await app.http.post(`/api/articles/${articleId}/notes`).set(bearer(agentKey)).send({ kind: 'source', title: 'Menabrea', body: 'The memoir.' });
  expect(created.status).toBe(201);
  const anchor = created.body.data.note.anchor;
  const opened = await app.http.get(`${base()}/notes/${anchor}`).set(admin());
  expect(opened.status).toBe(200);
  expect(opened.body.data).toEqual({ note: expect.objectContaining({ anchor, title: 'Menabrea', body: 'The memoir.', createdBy: 'agent' }) });
  const etag = opened.headers.etag;
  // The same ETag as the content API's for that note.
  expect((await app.http.get(`/api/articles/${articleId}/notes/${anchor}`).set(bearer(agentKey))).headers.etag).toBe(etag);

  expect((await app.http.patch(`/api/articles/${articleId}/notes/${anchor}`).set(bearer(agentKey)).send({ body: 'The memoir, translated.' })).status).toBe(200);
  const refused = await app.http.put(`${base()}/notes/${anchor}`).set(admin()).set('If-Match', etag).send({ body: 'The editor\'s body.' });
  expect(refused.status).toBe(412);
  expect(refused.body.error).toEqual(expect.objectContaining({ status: 412, name: 'PreconditionFailedError', details: expect.objectContaining({ code: 'precondition-failed' }) }));
  const refusedDelete = await app.http.delete(`${base()}/notes/${anchor}`).set(admin()).set('If-Match', etag);
  expect(refusedDelete.status).toBe(412);
  expect((await app.http.get(`/api/articles/${articleId}/notes/${anchor}`).set(bearer(agentKey))).body.data.note.body).toBe('The memoir, translated.');

  const current = await app.http.get(`${base()}/notes/${anchor}`).set(admin());
  expect(current.headers.etag).not.toBe(etag);
  const saved = await app.http.put(`${base()}/notes/${anchor}`).set(admin()).set('If-Match', current.headers.etag).send({ body: 'The editor\'s body.' });
  expect(saved.status).toBe(200);
  expect(saved.headers.etag).not.toBe(current.headers.etag);
  expect((await app.http.delete(`${base()}/notes/${anchor}`).set(admin()).set('If-Match', saved.headers.etag)).status).toBe(200);
  const gone = await app.http.get(`${base()}/notes/${anchor}`).set(admin());
  expect(gone.status).toBe(404);
  expect(gone.body.error).toEqual(expect.objectContaining({ status: 404 }));
});

it('publishes and unpublishes, showing the public URL while published', async () => {
  const published = await app.http.post(`${base()}/publish`).set(admin());
  expect(published.status).toBe(200);
  expect(published.body.data.url).toMatch(/^http:\/\/127\.0\.0\.1:1337\/p\/engines/);
  expect((await app.http.get(base()).set(admin())).body.data).toEqual(expect.objectContaining({ status: 'published', publicUrl: published.body.data.url }));
  const page = await app.http.get(new URL(published.body.data.url).pathname);
  expect(page.status).toBe(200);
  expect(page.text).toContain('<figure data-type="link-card"');
  const down = await app.http.delete(`${base()}/publish`).set(admin());
  expect(down.body.data.article.status).toBe('draft');
  expect((await app.http.get(base()).set(admin())).body.data.publicUrl).toBeNull();
});

it('needs the actions: an Editor without Quire permissions gets 403 from every canvas route', async () => {
  const editorToken = await adminToken(app, await createAdmin(app, 'strapi-editor', 'editor'));
  const calls = [
    app.http.get(`${base()}/outline`),
    app.http.get(`${base()}/sections`),
    app.http.put(`${base()}/sections/${anchors[1]}`).send({ html: '<p>x</p>' }),
    app.http.post(`${base()}/notes`).send({ kind: 'idea', title: 'x' }),
    app.http.get(`${base()}/notes/n1`),
    app.http.post(`${base()}/publish`),
    app.http.delete(base()),
    app.http.get('/quire/unfurl?url=https://example.com'),
  ];
  for (const call of calls) {
    const res = await call.set(adminBearer(editorToken));
    expect(res.status).toBe(403);
  }
  expect((await app.http.get(`/api/articles/${articleId}/sections/${anchors[1]}`).set(bearer(agentKey))).body.data.section.html).toContain('Mine, on purpose.');
});

it('deletes an article for its owner, and 404s an unknown one', async () => {
  const other = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Doomed' });
  const id = other.body.data.article.id;
  expect((await app.http.delete(`/quire/articles/${id}`).set(admin())).body.data).toEqual({ id });
  expect((await app.http.get(`/api/articles/${id}`).set(bearer(agentKey))).status).toBe(404);
  const missing = await app.http.get(`/quire/articles/${id}/sections`).set(admin());
  expect(missing.status).toBe(404);
  expect(missing.body.error.details).toEqual(expect.objectContaining({ code: 'not-found' }));
});
