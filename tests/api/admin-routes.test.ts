/**
 * The plugins' admin routes (/quire/..., /triggers/...): what the admin pages read, guarded by
 * the admin panel's RBAC actions, answering in Strapi's admin format.
 */
import { adminBearer, adminToken, createAdmin, type TestAdmin } from '../helpers/admin';
import { bearer, createKey, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createInstance, createOrganization, createOrganizationKey } from '../helpers/triggers';

const QUIRE_ACTIONS = ['plugin::quire.read', 'plugin::quire.edit', 'plugin::quire.publish', 'plugin::quire.delete'];
const TRIGGERS_ACTIONS = ['plugin::triggers.read', 'plugin::triggers.manage'];

let app: TestApp;
let superAdmin: TestAdmin;
let token: string;
let ada: TestUser;
let grace: TestUser;
const ids: Record<string, string> = {};

const asAdmin = (path: string, as = token) => app.http.get(path).set(adminBearer(as));

async function createArticle(user: TestUser, key: string, title: string, markdown?: string) {
  const res = await app.http.post('/api/articles').set(bearer(key)).send({ title, markdown });
  if (res.status !== 201) throw new Error(`article: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.article.id as string;
}

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', PUBLIC_URL: 'http://127.0.0.1:1337' });
  superAdmin = await createAdmin(app, 'strapi-super-admin', 'chief');
  token = await adminToken(app, superAdmin);
  ada = await registerUser(app, 'ada');
  grace = await registerUser(app, 'grace');
  const adaKey = await createKey(app, ada);
  const graceKey = await createKey(app, grace);
  // Oldest first: the list shows the most recently updated first.
  ids.notes = await createArticle(ada, adaKey, 'Notes on the Analytical Engine', '# One\n\nThe engine weaves algebraic patterns.\n\n# Two\n\nAs the loom weaves flowers.');
  ids.percent = await createArticle(ada, adaKey, '100% of a loom');
  ids.bug = await createArticle(grace, graceKey, 'The First Bug', 'A moth in relay 70.');
  const published = await app.http.post(`/api/articles/${ids.bug}/publish`).set(bearer(graceKey));
  if (published.status !== 200) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);

  const organization = await createOrganization(app, grace, 'Hopper Labs');
  await createInstance(app, grace, organization, 'compiler');
  await createInstance(app, grace, organization, 'debugger');
  await createOrganizationKey(app, grace, organization);
  ids.organization = organization;
  ids.empty = await createOrganization(app, ada, 'Babbage & Co');
});
afterAll(() => app?.close());

describe('GET /quire/articles', () => {
  it('lists every user\'s articles with owner, status, words, sections and last update, latest first', async () => {
    const res = await asAdmin('/quire/articles');
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 3 });
    expect(res.body.data.map((a) => a.title)).toEqual(['The First Bug', '100% of a loom', 'Notes on the Analytical Engine']);
    const [bug, , notes] = res.body.data;
    expect(bug).toEqual(
      expect.objectContaining({ id: ids.bug, status: 'published', owner: { id: grace.id, username: grace.username, email: grace.email } }),
    );
    expect(bug.publishedAt).toEqual(expect.any(String));
    expect(notes).toEqual(expect.objectContaining({ id: ids.notes, status: 'draft', sections: 2, publishedAt: null }));
    // The same totals as the owner sees through the content API.
    const own = await app.http.get(`/api/articles/${ids.notes}`).set(bearer(ada.jwt));
    expect(notes.words).toBe(own.body.data.article.words);
    expect(notes.words).toBeGreaterThan(0);
    expect(notes.owner.username).toBe(ada.username);
    expect(Date.parse(notes.updatedAt)).toBeLessThanOrEqual(Date.parse(bug.updatedAt));
  });

  it('pages', async () => {
    const second = await asAdmin('/quire/articles?page=2&pageSize=2');
    expect(second.body.meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 2, total: 3 });
    expect(second.body.data.map((a) => a.title)).toEqual(['Notes on the Analytical Engine']);
  });

  it('searches titles in any case, wildcards taken literally', async () => {
    const titles = async (q: string) => (await asAdmin(`/quire/articles?q=${encodeURIComponent(q)}`)).body.data.map((a) => a.title);
    expect(await titles('ANALYTICAL')).toEqual(['Notes on the Analytical Engine']);
    expect(await titles('%')).toEqual(['100% of a loom']);
    expect(await titles('_')).toEqual([]);
    expect(await titles('')).toHaveLength(3);
  });

  it('filters by owner and by status', async () => {
    const byOwner = await asAdmin(`/quire/articles?owner=${ada.id}`);
    expect(byOwner.body.data.map((a) => a.title).sort()).toEqual(['100% of a loom', 'Notes on the Analytical Engine']);
    const published = await asAdmin('/quire/articles?status=published');
    expect(published.body.data.map((a) => a.id)).toEqual([ids.bug]);
    const both = await asAdmin(`/quire/articles?owner=${ada.id}&status=published`);
    expect(both.body).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 10, pageCount: 0, total: 0 } } });
  });

  it('refuses a bad query in Strapi\'s error format, naming the parameter', async () => {
    for (const [query, name] of [
      ['status=archived', 'status'],
      ['owner=ada', 'owner'],
      ['page=0', 'page'],
      ['pageSize=500', 'pageSize'],
    ]) {
      const res = await asAdmin(`/quire/articles?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ data: null, error: expect.objectContaining({ status: 400, name: 'ValidationError' }) });
      expect(res.body.error.message).toContain(`Query parameter ${name}:`);
      expect(res.body.error.details.errors[0].path).toEqual([name]);
    }
  });
});

describe('GET /quire/articles/:id and /quire/owners', () => {
  it('returns one article of any user', async () => {
    const res = await asAdmin(`/quire/articles/${ids.notes}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expect.objectContaining({ id: ids.notes, title: 'Notes on the Analytical Engine', sections: 2 }));
  });

  it('answers 404 for an unknown article, with our error code in details', async () => {
    const res = await asAdmin('/quire/articles/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual(expect.objectContaining({ status: 404, name: 'NotFoundError', details: expect.objectContaining({ code: 'not-found' }) }));
  });

  it('lists the users who own articles, most articles first, searchable', async () => {
    const all = await asAdmin('/quire/owners');
    expect(all.body.data).toEqual([
      { id: ada.id, username: ada.username, email: ada.email, articles: 2 },
      { id: grace.id, username: grace.username, email: grace.email, articles: 1 },
    ]);
    const found = await asAdmin(`/quire/owners?q=${encodeURIComponent(grace.email.toUpperCase())}`);
    expect(found.body.data.map((o) => o.id)).toEqual([grace.id]);
  });
});

describe('GET /triggers/organizations', () => {
  it('lists every user\'s organizations with owner and counts of instances and keys', async () => {
    const res = await asAdmin('/triggers/organizations');
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination.total).toBe(2);
    expect(res.body.data).toEqual([
      expect.objectContaining({ id: ids.organization, name: 'Hopper Labs', owner: { id: grace.id, username: grace.username, email: grace.email }, instances: 2, keys: 1 }),
      expect.objectContaining({ id: ids.empty, name: 'Babbage & Co', instances: 0, keys: 0 }),
    ]);
    const searched = await asAdmin('/triggers/organizations?q=babbage');
    expect(searched.body.data.map((o) => o.name)).toEqual(['Babbage & Co']);
  });
});

describe('permissions', () => {
  let editor: TestAdmin;
  let editorToken: string;

  beforeAll(async () => {
    editor = await createAdmin(app, 'strapi-editor', 'editor');
    editorToken = await adminToken(app, editor);
  });

  it('a Super Admin holds every action of both plugins', async () => {
    const res = await asAdmin('/admin/users/me/permissions');
    const actions = res.body.data.map((p) => p.action);
    expect(actions).toEqual(expect.arrayContaining([...QUIRE_ACTIONS, ...TRIGGERS_ACTIONS]));
  });

  it('an Editor holds none of them and gets 403 from every admin route of ours', async () => {
    const res = await asAdmin('/admin/users/me/permissions', editorToken);
    const actions = res.body.data.map((p) => p.action);
    expect(actions.filter((a) => a.startsWith('plugin::quire.') || a.startsWith('plugin::triggers.'))).toEqual([]);
    for (const path of ['/quire/articles', `/quire/articles/${ids.notes}`, '/quire/owners', '/triggers/organizations']) {
      const denied = await asAdmin(path, editorToken);
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ data: null, error: expect.objectContaining({ status: 403 }) });
    }
  });

  it('a granted action opens its routes, and only those', async () => {
    const { id: editorRole } = await app.strapi.db.query('admin::role').findOne({ where: { code: 'strapi-editor' } });
    const current = await asAdmin(`/admin/roles/${editorRole}/permissions`);
    const permissions = current.body.data.map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
    const granted = await app.http
      .put(`/admin/roles/${editorRole}/permissions`)
      .set(adminBearer(token))
      .send({ permissions: [...permissions, { action: 'plugin::quire.read', subject: null, properties: {}, conditions: [] }] });
    expect(granted.status).toBe(200);

    expect((await asAdmin('/quire/articles', editorToken)).status).toBe(200);
    expect((await asAdmin('/triggers/organizations', editorToken)).status).toBe(403);
  });

  it('needs a signed-in admin: no token, a bad token or a content-API key get 401', async () => {
    const key = await createKey(app, ada);
    for (const headers of [{}, adminBearer('not-a-token'), bearer(key), bearer(ada.jwt)]) {
      const res = await app.http.get('/quire/articles').set(headers);
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual(expect.objectContaining({ status: 401, name: 'UnauthorizedError' }));
    }
  });
});

it('leaves the content API as it was: a user lists only their own articles', async () => {
  const key = await createKey(app, grace);
  const res = await app.http.get('/api/articles').set(bearer(key));
  expect(res.body.data.articles.map((a) => a.id)).toEqual([ids.bug]);
});

it("keeps our tables out of the Content Manager: the Super Admin sees no Quire or Triggers type there (issue 13)", async () => {
  const res = await asAdmin('/content-manager/content-types');
  expect(res.status).toBe(200);
  const ours = res.body.data.filter((type) => /^plugin::(quire|triggers)\./.test(type.uid));
  // The check has something to check: every one of our content types is known to the Content Manager...
  const registered = Object.keys(app.strapi.contentTypes).filter((uid) => /^plugin::(quire|triggers)\./.test(uid));
  expect(registered).toEqual(expect.arrayContaining(['plugin::quire.article', 'plugin::quire.section', 'plugin::triggers.workflow', 'plugin::triggers.execution']));
  expect(ours.map((type) => type.uid).sort()).toEqual([...registered].sort());
  // ...and none is displayed in its menu.
  expect(ours.filter((type) => type.isDisplayed).map((type) => type.uid)).toEqual([]);
  // Its own user type stays there, so the filter above is not hiding everything.
  expect(res.body.data.find((type) => type.uid === 'plugin::users-permissions.user')?.isDisplayed).toBe(true);
});
