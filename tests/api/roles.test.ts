/**
 * Roles decide (issue 10 item 7): every content-api route of ours is a users-permissions action
 * on the role page; the Authenticated role has them all by default; an operator who unchecks
 * some for a role gets 403 permission-denied for that role's users on those routes, whatever
 * credential acts as the user (API key, JWT, session cookie, and an organization key of theirs).
 * Driven through the users-permissions role service, as the admin panel's role page does.
 */
import path from 'node:path';
import { signIn } from '../helpers/cli-login';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createOrganizationKey, setup } from '../helpers/triggers';

let app: TestApp;
let ada: TestUser;
let key: string;
let orgKey: string;
let session: Awaited<ReturnType<typeof signIn>>;

const roles = () => app.strapi.plugin('users-permissions').service('role');
const { grantByDefault } = require(path.join(__dirname, '..', '..', 'dist', 'src', 'kernel', 'permissions'));

async function authenticatedRoleId(): Promise<number> {
  const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  return role.id;
}

/** The role page's tree for a role, with `change` applied, saved the way the admin panel saves it. */
async function editRole(roleId: number, change: (permissions: any) => void) {
  const role = await roles().findOne(roleId);
  change(role.permissions);
  await roles().updateRole(roleId, { name: role.name, description: role.description, permissions: role.permissions });
}

const setAll = (tree: any, plugin: string, enabled: boolean) => {
  for (const controller of Object.values(tree[plugin].controllers) as any[]) for (const action of Object.values(controller) as any[]) action.enabled = enabled;
};

beforeAll(async () => {
  app = await startApp();
  ada = await registerUser(app, 'ada');
  key = await createKey(app, ada);
  const s = await setup(app, ada);
  orgKey = (await createOrganizationKey(app, ada, s.organizationId)).secret;
  session = await signIn(app, ada);
});
afterAll(() => app?.close());

it('lists our routes as actions on the role page, under Quire and Triggers, and only the routes that take a user (presence: CONTRACT 19)', async () => {
  const role = await roles().findOne(await authenticatedRoleId());
  expect(Object.keys(role.permissions['plugin::quire'].controllers).sort()).toEqual(['articles', 'changes', 'edits', 'history', 'keys', 'mcp', 'notes', 'oauthGrants', 'presence', 'publications', 'search', 'sections', 'suggestions', 'threads', 'unfurl', 'upload']);
  expect(Object.keys(role.permissions['plugin::quire'].controllers.articles).sort()).toEqual(['create', 'get', 'list', 'outline', 'remove', 'update']);
  expect(Object.keys(role.permissions['plugin::triggers'].controllers).sort()).toEqual(['instances', 'organizations', 'skills']);
});

it('gives the Authenticated role every action of ours on a fresh install', async () => {
  const role = await roles().findOne(await authenticatedRoleId());
  for (const plugin of ['plugin::quire', 'plugin::triggers']) {
    for (const [controller, actions] of Object.entries(role.permissions[plugin].controllers) as any[]) {
      for (const [action, state] of Object.entries(actions) as any[]) expect([plugin, controller, action, state.enabled]).toEqual([plugin, controller, action, true]);
    }
  }
});

it('refuses the triggers routes with 403 permission-denied once they are unchecked, through every credential of the user', async () => {
  const roleId = await authenticatedRoleId();
  await editRole(roleId, (tree) => setAll(tree, 'plugin::triggers', false));
  try {
    const calls = [
      app.http.get('/api/organizations').set(bearer(ada.jwt)),
      app.http.get('/api/organizations').set(bearer(key)),
      session.get('/api/organizations'),
      app.http.post('/api/organizations').set(bearer(key)).send({ name: 'Beta' }),
      app.http.get('/api/process-instances').set(bearer(ada.jwt)),
      app.http.get('/api/process-instances').set('X-Process-Manager-Key', orgKey),
    ];
    for (const res of await Promise.all(calls)) {
      const error = expectFailure(res, 403, 'permission-denied');
      expect(error.message).toMatch(/^Your role \(Authenticated\) does not allow plugin::triggers\.(organizations|instances)\.(list|create)\.$/);
      expect(error.nextAction).toMatch(/Users & Permissions/);
    }
    // The article service is untouched.
    expect((await app.http.get('/api/articles').set(bearer(key))).status).toBe(200);
    expect((await session.get('/api/auth/me')).status).toBe(200);
    // No credential is still 401, not 403.
    expectFailure(await app.http.get('/api/organizations'), 401, 'unauthenticated');
  } finally {
    await editRole(roleId, (tree) => setAll(tree, 'plugin::triggers', true));
  }
  expect((await app.http.get('/api/organizations').set(bearer(key))).status).toBe(200);
});

it('refuses one action and allows the others of a role made without it', async () => {
  const reader = await registerUser(app, 'reader');
  const readerKey = await createKey(app, reader);
  const tree = (await roles().findOne(await authenticatedRoleId())).permissions;
  tree['plugin::quire'].controllers.articles.create.enabled = false;
  await roles().createRole({ name: 'Readers', description: 'May not create articles', permissions: tree });
  const readers = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { name: 'Readers' } });
  await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: reader.id }, data: { role: readers.id } });

  const error = expectFailure(await app.http.post('/api/articles').set(bearer(readerKey)).send({ title: 'No' }), 403, 'permission-denied');
  expect(error.message).toBe('Your role (Readers) does not allow plugin::quire.articles.create.');
  expect((await app.http.get('/api/articles').set(bearer(readerKey))).status).toBe(200);
  // Ada's role still may.
  expect((await app.http.post('/api/articles').set(bearer(key)).send({ title: 'Yes' })).status).toBe(201);
});

it('grants each action by default once: an action an operator unchecked stays unchecked, a new one is granted', async () => {
  const roleId = await authenticatedRoleId();
  const actions = ['plugin::quire.articles.list', 'plugin::quire.articles.get'];
  await editRole(roleId, (tree) => {
    tree['plugin::quire'].controllers.articles.list.enabled = false;
  });
  try {
    // A restart: nothing is granted again.
    expect(await grantByDefault(app.strapi, 'quire', actions)).toEqual([]);
    expectFailure(await app.http.get('/api/articles').set(bearer(key)), 403, 'permission-denied');

    // A database from before the actions existed (nothing granted by default yet) gets them.
    await app.strapi.store({ type: 'plugin', name: 'quire', key: 'authenticated-role-defaults' }).delete({});
    expect(await grantByDefault(app.strapi, 'quire', actions)).toEqual(['plugin::quire.articles.list']);
    expect((await app.http.get('/api/articles').set(bearer(key))).status).toBe(200);
  } finally {
    await editRole(roleId, (tree) => {
      tree['plugin::quire'].controllers.articles.list.enabled = true;
    });
  }
});
