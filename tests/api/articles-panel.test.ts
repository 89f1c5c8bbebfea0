/**
 * Articles from the panel (issue 23 points 4 to 6): editors create, rename and delete articles
 * (to a trash, restorable for 30 days, then purged), behind Quire's RBAC actions; a deleted
 * article is 404 on the content API until restored; "changed since published"; a preview of
 * the public page for admins only; the history names who accepted a suggestion; a person
 * through `quire login` is named as that person with the client.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { bearer, createKey, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let token: string;
let ada: TestUser;
let agentKey: string;

const admin = () => adminBearer(token);

/** An admin whose role holds exactly these Quire actions. */
async function adminWith(actions: string[], label: string): Promise<string> {
  const role = await app.strapi.service('admin::role').create({ name: `${label} ${Math.random()}`, description: label });
  await app.strapi.service('admin::role').assignPermissions(
    role.id,
    actions.map((action) => ({ action: `plugin::quire.${action}`, subject: null, conditions: [], properties: {} })),
  );
  const user = await createAdmin(app, 'strapi-author', label);
  await app.strapi.db.query('admin::user').update({ where: { id: user.id }, data: { roles: [role.id] } });
  return adminToken(app, user);
}

const create = (body: Record<string, unknown>, auth = admin()) => app.http.post('/quire/articles').set(auth).send(body);

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', PUBLIC_URL: 'http://127.0.0.1:1337' });
  token = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
  ada = await registerUser(app, 'ada');
  agentKey = await createKey(app, ada, 'agent');
});
afterAll(() => app?.close());

describe('creating and renaming', () => {
  it('creates an article for a user from a title and Markdown, written by the editor; the owner reads it through the API', async () => {
    const res = await create({ title: 'From the panel', markdown: '# One\n\nFirst.\n\n# Two\n\nSecond.', owner: ada.id });
    expect(res.status).toBe(201);
    const article = res.body.data;
    expect(article).toEqual(expect.objectContaining({ title: 'From the panel', status: 'draft', sections: 2, owner: expect.objectContaining({ id: ada.id }), changedSincePublished: false }));
    const seen = await app.http.get(`/api/articles/${article.id}`).set(bearer(agentKey));
    expect(seen.status).toBe(200);
    expect(seen.body.data.outline.map((s) => s.title)).toEqual(['One', 'Two']);
    const revisions = await app.http.get(`/api/articles/${article.id}/sections/${seen.body.data.outline[0].anchor}/revisions`).set(bearer(agentKey));
    expect(revisions.body.data.revisions[0].by).toEqual({ kind: 'editor', name: 'Chief Tester' });
  });

  it('creates with a title alone (one empty section), and refuses an empty title, an unknown owner, or none', async () => {
    const bare = await create({ title: 'Bare', owner: ada.id });
    expect(bare.status).toBe(201);
    expect(bare.body.data.sections).toBe(1);
    const empty = await create({ title: '   ', owner: ada.id });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/title/);
    const nobody = await create({ title: 'Orphan', owner: 999999 });
    expect(nobody.status).toBe(400);
    expect(nobody.body.error.message).toContain('no user with id 999999');
    expect((await create({ title: 'No owner' })).status).toBe(400);
  });

  it('renames; an empty title is 400 and an unknown article 404', async () => {
    const { body } = await create({ title: 'Old name', owner: ada.id });
    const renamed = await app.http.put(`/quire/articles/${body.data.id}`).set(admin()).send({ title: 'New name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.title).toBe('New name');
    expect((await app.http.get(`/api/articles/${body.data.id}`).set(bearer(agentKey))).body.data.article.title).toBe('New name');
    expect((await app.http.put(`/quire/articles/${body.data.id}`).set(admin()).send({ title: '' })).status).toBe(400);
    expect((await app.http.put('/quire/articles/00000000-0000-4000-8000-000000000000').set(admin()).send({ title: 'x' })).status).toBe(404);
  });

  it('lists the server\'s users for the owner picker', async () => {
    const res = await app.http.get('/quire/users?q=ad').set(admin());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expect.arrayContaining([{ id: ada.id, username: ada.username, email: ada.email }]));
  });
});

describe('the trash', () => {
  it('moves a deleted article to the trash: 404 on the API, off the list and its public page, back with everything on restore', async () => {
    const made = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Doomed but saved', markdown: '# A\n\nAlpha.\n\n# B\n\nBeta.' });
    const id = made.body.data.article.id;
    await app.http.post(`/api/articles/${id}/notes`).set(bearer(agentKey)).send({ kind: 'idea', title: 'Keep me' });
    const published = await app.http.post(`/api/articles/${id}/publish`).set(bearer(agentKey));
    const publicPath = new URL(published.body.data.url).pathname;
    expect((await app.http.get(publicPath)).status).toBe(200);

    const deleted = await app.http.delete(`/quire/articles/${id}`).set(admin());
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id });
    for (const path of [`/api/articles/${id}`, `/api/articles/${id}/outline`, `/api/articles/${id}/brief`]) {
      expect((await app.http.get(path).set(bearer(agentKey))).status).toBe(404);
    }
    expect((await app.http.patch(`/api/articles/${id}`).set(bearer(agentKey)).send({ title: 'x' })).status).toBe(404);
    expect((await app.http.get(`/api/articles?limit=100`).set(bearer(agentKey))).body.data.articles.map((a) => a.id)).not.toContain(id);
    expect((await app.http.get(`/api/search?q=Alpha`).set(bearer(agentKey))).body.data.results.map((r) => r.article.id)).not.toContain(id);
    expect((await app.http.get(publicPath)).status).toBe(404);
    expect((await app.http.get(`/quire/articles/${id}`).set(admin())).status).toBe(404);
    expect((await app.http.get('/quire/articles?pageSize=100').set(admin())).body.data.map((a) => a.id)).not.toContain(id);
    expect((await app.http.delete(`/quire/articles/${id}`).set(admin())).status).toBe(404);

    const trash = await app.http.get('/quire/trash').set(admin());
    expect(trash.status).toBe(200);
    const entry = trash.body.data.find((a) => a.id === id);
    expect(entry).toEqual(expect.objectContaining({ title: 'Doomed but saved', sections: 2, deletedBy: 'Chief Tester', owner: expect.objectContaining({ id: ada.id }) }));
    expect(Date.parse(entry.purgeAt) - Date.parse(entry.deletedAt)).toBe(30 * 24 * 60 * 60 * 1000);

    const restored = await app.http.post(`/quire/trash/${id}/restore`).set(admin());
    expect(restored.status).toBe(200);
    expect(restored.body.data).toEqual(expect.objectContaining({ id, status: 'draft', publicUrl: null }));
    const back = await app.http.get(`/api/articles/${id}`).set(bearer(agentKey));
    expect(back.status).toBe(200);
    expect(back.body.data.outline.map((s) => s.title)).toEqual(['A', 'B']);
    expect(back.body.data.brief.notes).toHaveLength(1);
    expect((await app.http.get('/quire/trash').set(admin())).body.data.map((a) => a.id)).not.toContain(id);
    expect((await app.http.post(`/quire/trash/${id}/restore`).set(admin())).status).toBe(404);
    // Republishing keeps its address.
    expect((await app.http.post(`/api/articles/${id}/publish`).set(bearer(agentKey))).body.data.url).toBe(published.body.data.url);
  });

  it('purges articles deleted more than 30 days ago, with their sections', async () => {
    const { body } = await create({ title: 'Old news', markdown: '# Gone\n\nSoon.', owner: ada.id });
    const id = body.data.id;
    expect((await app.http.delete(`/quire/articles/${id}`).set(admin())).status).toBe(200);
    const row = await app.strapi.db.query('plugin::quire.article').findOne({ where: { uuid: id }, select: ['id'] });
    // A sweep as of 29 days later keeps it; one as of 31 days later purges it.
    const day = 24 * 60 * 60 * 1000;
    const service = app.strapi.plugin('quire').service('adminArticles');
    await service.sweep(Date.now() + 29 * day);
    expect(await app.strapi.db.query('plugin::quire.article').count({ where: { id: row.id } })).toBe(1);
    expect(await service.sweep(Date.now() + 31 * day)).toBeGreaterThanOrEqual(1);
    expect(await app.strapi.db.query('plugin::quire.article').count({ where: { id: row.id } })).toBe(0);
    expect(await app.strapi.db.query('plugin::quire.section').count({ where: { articleId: row.id } })).toBe(0);
    expect((await app.http.post(`/quire/trash/${id}/restore`).set(admin())).status).toBe(404);
  });

  it('publishes article events after each change', async () => {
    const seen: Array<{ type: string; by: string }> = [];
    const events = app.strapi.plugin('quire').service('events');
    const stop = events.subscribe((event) => {
      for (const change of event.changes) if (change.type.startsWith('article.')) seen.push({ type: change.type, by: event.by.name });
    });
    try {
      const { body } = await create({ title: 'Eventful', owner: ada.id });
      await app.http.put(`/quire/articles/${body.data.id}`).set(admin()).send({ title: 'Eventful 2' });
      await app.http.delete(`/quire/articles/${body.data.id}`).set(admin());
      await app.http.post(`/quire/trash/${body.data.id}/restore`).set(admin());
      await events.settled();
    } finally {
      stop();
    }
    expect(seen).toEqual([
      { type: 'article.created', by: 'Chief Tester' },
      { type: 'article.updated', by: 'Chief Tester' },
      { type: 'article.deleted', by: 'Chief Tester' },
      { type: 'article.created', by: 'Chief Tester' },
    ]);
  });
});

describe('permissions', () => {
  it('needs edit to create and rename, delete to delete and restore, read to list the trash and preview', async () => {
    const { body } = await create({ title: 'Guarded', owner: ada.id });
    const id = body.data.id;
    const reader = adminBearer(await adminWith(['read'], 'reader'));
    const editor = adminBearer(await adminWith(['read', 'edit'], 'writer'));
    const deleter = adminBearer(await adminWith(['read', 'delete'], 'remover'));
    const none = adminBearer(await adminToken(app, await createAdmin(app, 'strapi-editor', 'outsider')));

    expect((await create({ title: 'x', owner: ada.id }, reader)).status).toBe(403);
    expect((await app.http.put(`/quire/articles/${id}`).set(reader).send({ title: 'x' })).status).toBe(403);
    expect((await app.http.get('/quire/users').set(reader)).status).toBe(403);
    expect((await app.http.delete(`/quire/articles/${id}`).set(editor)).status).toBe(403);
    expect((await app.http.get('/quire/trash').set(reader)).status).toBe(200);
    expect((await app.http.get(`/quire/articles/${id}/preview`).set(reader)).status).toBe(200);
    for (const call of [app.http.get('/quire/trash'), app.http.get(`/quire/articles/${id}/preview`), app.http.post(`/quire/trash/${id}/restore`)]) {
      expect((await call.set(none)).status).toBe(403);
    }

    expect((await create({ title: 'By a writer', owner: ada.id }, editor)).status).toBe(201);
    expect((await app.http.put(`/quire/articles/${id}`).set(editor).send({ title: 'Guarded, renamed' })).status).toBe(200);
    expect((await app.http.delete(`/quire/articles/${id}`).set(deleter)).status).toBe(200);
    expect((await app.http.post(`/quire/trash/${id}/restore`).set(editor)).status).toBe(403);
    expect((await app.http.post(`/quire/trash/${id}/restore`).set(deleter)).status).toBe(200);
  });

  it('answers 401 without an admin token, and never to a users-permissions credential', async () => {
    expect((await app.http.get('/quire/trash')).status).toBe(401);
    expect((await app.http.get('/quire/trash').set(bearer(agentKey))).status).toBe(401);
    expect((await app.http.post('/quire/articles').set(bearer(agentKey)).send({ title: 'x', owner: ada.id })).status).toBe(401);
  });
});

describe('publishing state', () => {
  it('flags a published article whose sections or title changed since, until it is republished', async () => {
    const made = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Fresh', markdown: '# Fresh\n\nNew.' });
    const id = made.body.data.article.id;
    const anchor = made.body.data.outline[0].anchor;
    const flag = async () => (await app.http.get(`/quire/articles/${id}`).set(admin())).body.data.changedSincePublished;
    const listed = async () => (await app.http.get('/quire/articles?q=Fresh').set(admin())).body.data.find((a) => a.id === id).changedSincePublished;
    expect(await flag()).toBe(false);
    await app.http.post(`/api/articles/${id}/publish`).set(bearer(agentKey));
    expect(await flag()).toBe(false);
    // A note is not on the public page: no change there.
    await app.http.post(`/api/articles/${id}/notes`).set(bearer(agentKey)).send({ kind: 'idea', title: 'Private' });
    expect(await flag()).toBe(false);
    await app.http.patch(`/api/articles/${id}/sections/${anchor}`).set(bearer(agentKey)).send({ markdown: '# Fresh\n\nChanged.' });
    expect(await flag()).toBe(true);
    expect(await listed()).toBe(true);
    await app.http.post(`/api/articles/${id}/publish`).set(bearer(agentKey));
    expect(await flag()).toBe(false);
    await app.http.put(`/quire/articles/${id}`).set(admin()).send({ title: 'Fresh, renamed' });
    expect(await flag()).toBe(true);
    await app.http.delete(`/api/articles/${id}/publish`).set(bearer(agentKey));
    expect(await flag()).toBe(false);
  });

  it('previews the public page of the current content: the public template, noindex, not cached, nothing published', async () => {
    const made = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Preview me', markdown: '# Intro\n\nThe <em>current</em> text.' });
    const id = made.body.data.article.id;
    const res = await app.http.get(`/quire/articles/${id}/preview`).set(admin());
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    const { html, url } = res.body.data;
    expect(url).toBe('http://127.0.0.1:1337/p/preview-me');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<h1>Preview me</h1>');
    expect(html).toContain('The <em>current</em> text.');
    expect((await app.http.get('/p/preview-me')).status).toBe(404);
    expect((await app.http.get(`/api/articles/${id}`).set(bearer(agentKey))).body.data.article.status).toBe('draft');
    expect((await app.http.get(`/quire/articles/${id}/preview`)).status).toBe(401);
    expect((await app.http.get(`/quire/articles/${id}/preview`).set(bearer(agentKey))).status).toBe(401);
  });
});

describe('history a person can read', () => {
  it('names the editor who accepted a suggestion beside the agent who made it (panel history; the API\'s revisions keep their shape)', async () => {
    const made = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Reviewed', markdown: '# Part\n\nA plain sentence.' });
    const id = made.body.data.article.id;
    const anchor = made.body.data.outline[0].anchor;
    const suggested = await app.http
      .post(`/api/articles/${id}/suggestions`)
      .set(bearer(agentKey))
      .send({ ops: [{ op: 'replaceText', section: anchor, find: 'plain', replace: 'clear' }] });
    expect(suggested.status).toBe(201);
    expect((await app.http.post(`/quire/articles/${id}/suggestions/${suggested.body.data.suggestion.anchor}/accept`).set(admin())).status).toBe(200);
    const revisions = await app.http.get(`/quire/articles/${id}/sections/${anchor}/revisions`).set(admin());
    expect(revisions.body.data.revisions.map((r) => [r.rev, r.by])).toEqual([
      [2, { kind: 'agent', name: 'agent' }],
      [1, { kind: 'agent', name: 'agent' }],
    ]);
    const accepted = await app.http.get(`/quire/articles/${id}/sections/${anchor}/accepted`).set(admin());
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual({ accepted: [{ rev: 2, acceptedBy: { kind: 'editor', name: 'Chief Tester' } }] });
    // A rejected one, or a version written directly, is not listed.
    await app.http.patch(`/api/articles/${id}/sections/${anchor}`).set(bearer(agentKey)).send({ markdown: '# Part\n\nDirect.' });
    const other = await app.http.post(`/api/articles/${id}/suggestions`).set(bearer(agentKey)).send({ ops: [{ op: 'replaceText', section: anchor, find: 'Direct', replace: 'Indirect' }] });
    await app.http.post(`/quire/articles/${id}/suggestions/${other.body.data.suggestion.anchor}/reject`).set(admin()).send({});
    expect((await app.http.get(`/quire/articles/${id}/sections/${anchor}/accepted`).set(admin())).body.data.accepted.map((a) => a.rev)).toEqual([2]);
    expect((await app.http.get(`/quire/articles/${id}/sections/${anchor}/accepted`).set(adminBearer(await adminToken(app, await createAdmin(app, 'strapi-editor', 'nosy'))))).status).toBe(403);
  });

  it('names a person working through `quire login` as that person with the client, an ordinary key as the agent', async () => {
    const issued = await app.strapi.plugin('quire').service('keys').create(ada.id, { name: 'quire CLI on laptop', origin: 'login' });
    const made = await app.http.post('/api/articles').set(bearer(issued.secret)).send({ title: 'By hand', markdown: '# Mine\n\nWritten at the terminal.' });
    const id = made.body.data.article.id;
    const anchor = made.body.data.outline[0].anchor;
    await app.http.patch(`/api/articles/${id}/sections/${anchor}`).set(bearer(agentKey)).send({ markdown: '# Mine\n\nTouched by the agent.' });
    const revisions = await app.http.get(`/api/articles/${id}/sections/${anchor}/revisions`).set(bearer(agentKey));
    expect(revisions.body.data.revisions.map((r) => r.by)).toEqual([
      { kind: 'agent', name: 'agent' },
      { kind: 'human', name: `${ada.username} (quire CLI on laptop)` },
    ]);
  });
});
