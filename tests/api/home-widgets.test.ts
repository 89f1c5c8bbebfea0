/**
 * The admin home's widgets (issue 23 point 7): Quire's articles changed by agents and pending
 * suggestions, the Triggers plugin's failed executions, each behind its plugin's read action.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { bearer, createKey, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createWorkflow, finished, setup } from '../helpers/triggers';

let app: TestApp;
let token: string;
let ada: TestUser;
let agentKey: string;
const admin = () => adminBearer(token);

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true' });
  token = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
  ada = await registerUser(app, 'ada');
  agentKey = await createKey(app, ada, 'robot');
});
afterAll(() => app?.close());

it('lists the articles agents changed last, newest first, without those an editor wrote or deleted', async () => {
  const older = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Older', markdown: '# A\n\nOne.' });
  const newer = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Newer', markdown: '# B\n\nTwo.' });
  const byEditor = await app.http.post('/quire/articles').set(admin()).send({ title: 'By the editor', owner: ada.id });
  expect(byEditor.status).toBe(201);
  const res = await app.http.get('/quire/widgets/agent-changes').set(admin());
  expect(res.status).toBe(200);
  const ids = res.body.data.articles.map((a) => a.id);
  expect(ids.slice(0, 2)).toEqual([newer.body.data.article.id, older.body.data.article.id]);
  expect(ids).not.toContain(byEditor.body.data.id);
  expect(res.body.data.articles[0]).toEqual({ id: newer.body.data.article.id, title: 'Newer', changedAt: expect.any(String), by: 'robot' });

  await app.http.delete(`/quire/articles/${newer.body.data.article.id}`).set(admin());
  expect((await app.http.get('/quire/widgets/agent-changes?limit=1').set(admin())).body.data.articles.map((a) => a.id)).toEqual([older.body.data.article.id]);
  expect((await app.http.get('/quire/widgets/agent-changes?limit=0').set(admin())).status).toBe(400);
});

it('counts pending suggestions per article, and forgets decided ones', async () => {
  const made = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Suggested', markdown: '# S\n\nA word here.' });
  const id = made.body.data.article.id;
  const anchor = made.body.data.outline[0].anchor;
  const suggest = (find: string, replace: string) =>
    app.http.post(`/api/articles/${id}/suggestions`).set(bearer(agentKey)).send({ ops: [{ op: 'replaceText', section: anchor, find, replace }] });
  const first = await suggest('word', 'term');
  await suggest('here', 'there');
  const before = await app.http.get('/quire/widgets/pending-suggestions').set(admin());
  expect(before.status).toBe(200);
  expect(before.body.data.articles).toEqual([{ id, title: 'Suggested', pending: 2, newestAt: expect.any(String) }]);
  expect(before.body.data.total).toBe(2);
  await app.http.post(`/quire/articles/${id}/suggestions/${first.body.data.suggestion.anchor}/reject`).set(admin()).send({});
  const after = await app.http.get('/quire/widgets/pending-suggestions').set(admin());
  expect(after.body.data).toEqual({ total: 1, articles: [expect.objectContaining({ id, pending: 1 })] });
});

it('lists failed executions of every instance with their instance and workflow, for Triggers readers only', async () => {
  const s = await setup(app, ada);
  const wf = await createWorkflow(app, ada, s.instanceId, { name: 'Note taker', action: 'article.note' });
  const ok = await createWorkflow(app, ada, s.instanceId, { name: 'Echo', action: 'echo' });
  const fire = async (workflowId: string, payload: unknown) => {
    const res = await app.http.post(`/webhook/${s.instanceId}/${workflowId}`).set('X-API-Key', s.apiKey).send({ payload });
    return finished(app, s.instanceId, res.body.data.executionId, s.apiKey);
  };
  const failed = await fire(wf.id, { articleId: '00000000-0000-4000-8000-000000000000', kind: 'idea', title: 'Nowhere' });
  expect(failed.status).toBe('failed');
  expect((await fire(ok.id, { hello: 1 })).status).toBe('success');

  const res = await app.http.get('/triggers/executions/failed').set(admin());
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual([
    { executionId: failed.executionId, instance: { id: s.instanceId, name: 'instance' }, workflow: { id: wf.id, name: 'Note taker' }, failedAt: expect.any(String), error: expect.any(String) },
  ]);
  const outsider = adminBearer(await adminToken(app, await createAdmin(app, 'strapi-editor', 'outsider')));
  for (const path of ['/triggers/executions/failed', '/quire/widgets/agent-changes', '/quire/widgets/pending-suggestions']) {
    expect((await app.http.get(path).set(outsider)).status).toBe(403);
    expect((await app.http.get(path)).status).toBe(401);
  }
});
