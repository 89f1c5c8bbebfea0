/**
 * The canvas's change sets (CONTRACT 23, /quire/articles/{id}/changes...): an editor lists an
 * article's change sets, undoes an agent's change and a run as a change set of their own (the
 * owner's article, the editor as `by`), sees conflicts, and reads who wrote which passage.
 * Reading needs plugin::quire.read; undoing, plugin::quire.edit.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let chief: string;
let agentKey: string;
let articleId: string;
let anchors: string[];

const admin = () => adminBearer(chief);
const base = () => `/quire/articles/${articleId}`;
const agentText = async (anchor: string) => (await app.http.get(`/api/articles/${articleId}/sections/${anchor}`).set(bearer(agentKey))).body.data.section.markdown as string;
const patch = (anchor: string, markdown: string, headers: Record<string, string> = {}) =>
  app.http.patch(`/api/articles/${articleId}/sections/${anchor}`).set(bearer(agentKey)).set(headers).send({ markdown });

beforeAll(async () => {
  app = await startApp();
  chief = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
  const ada = await registerUser(app, 'ada');
  agentKey = await createKey(app, ada, 'scribe');
  const res = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Looms', markdown: '# One\n\nThe loom weaves.\n\n# Two\n\nThreads run.' });
  expect(res.status).toBe(201);
  articleId = res.body.data.article.id;
  anchors = res.body.data.outline.map((s) => s.anchor);
});
afterAll(() => app?.close());

it('lists the change sets newest first, and undoes an agent\'s change as the editor, with the reason given', async () => {
  const write = await patch(anchors[0], '# One\n\nThe loom weaves silk.', { 'Quire-Reason': 'more precise' });
  expect(write.status).toBe(200);
  const anchor = write.body.data.changeSet.anchor;

  const listed = await app.http.get(`${base()}/changes`).set(admin());
  expect(listed.status).toBe(200);
  const [newest] = listed.body.data.changes;
  expect(newest).toEqual(expect.objectContaining({ anchor, reason: 'more precise', status: 'applied', by: expect.objectContaining({ kind: 'agent', name: 'scribe' }) }));
  expect(newest.sections).toEqual([expect.objectContaining({ anchor: anchors[0], title: 'One', inserted: 1, deleted: 0 })]);

  const undone = await app.http.post(`${base()}/changes/${anchor}/revert`).set(admin()).send({ reason: 'not what we meant' });
  expect(undone.status).toBe(200);
  expect(undone.body.data.reverted).toEqual([anchor]);
  expect(undone.body.data.conflicts).toEqual([]);
  expect(undone.body.data.change).toEqual(expect.objectContaining({ by: expect.objectContaining({ kind: 'editor' }), reason: 'not what we meant', status: 'applied' }));
  expect(await agentText(anchors[0])).toBe('# One\n\nThe loom weaves.');

  const after = (await app.http.get(`${base()}/changes`).set(admin())).body.data.changes;
  expect(after.find((c) => c.anchor === anchor)).toEqual(expect.objectContaining({ status: 'reverted', revertedBy: undone.body.data.change.id }));
  // A second undo has nothing left: 409, in the admin's error format.
  const again = await app.http.post(`${base()}/changes/${anchor}/revert`).set(admin()).send({});
  expect(again.status).toBe(409);
  expect(again.body.error.details).toEqual(expect.objectContaining({ code: 'conflict' }));
});

it('undoes a run as one revert, and lists what was changed since as conflicts', async () => {
  expect((await patch(anchors[1], '# Two\n\nThreads run fast.', { 'Quire-Run': 'r1' })).status).toBe(200);
  expect((await patch(anchors[0], '# One\n\nThe loom weaves wool.', { 'Quire-Run': 'r1' })).status).toBe(200);
  // Someone changes the run's passage in One since: it stays.
  expect((await patch(anchors[0], '# One\n\nThe loom weaves linen.')).status).toBe(200);

  const undone = await app.http.post(`${base()}/changes/revert`).set(admin()).send({ run: 'r1' });
  expect(undone.status).toBe(200);
  expect(undone.body.data.reverted).toHaveLength(1);
  expect(undone.body.data.conflicts).toEqual([expect.objectContaining({ section: anchors[0] })]);
  expect(await agentText(anchors[1])).toBe('# Two\n\nThreads run.');
  expect(await agentText(anchors[0])).toBe('# One\n\nThe loom weaves linen.');
});

it('reads a section\'s text by author: the agent\'s words carry its name, joined they are the text', async () => {
  const res = await app.http.get(`${base()}/sections/${anchors[0]}/authors`).set(admin());
  expect(res.status).toBe(200);
  const spans = res.body.data.spans;
  expect(spans.map((s) => s.text).join('')).toBe(await agentText(anchors[0]));
  expect(spans.find((s) => s.text.includes('linen'))?.by).toEqual(expect.objectContaining({ kind: 'agent', name: 'scribe' }));
});

it('needs read to list and edit to undo: a role with read only lists but gets 403 on revert; an Editor without Quire permissions gets 403 everywhere', async () => {
  const made = await app.http.post('/admin/roles').set(admin()).send({ name: 'Readers', description: 'read only' });
  expect(made.status).toBe(201);
  const granted = await app.http
    .put(`/admin/roles/${made.body.data.id}/permissions`)
    .set(admin())
    .send({ permissions: [{ action: 'plugin::quire.read', subject: null, properties: {}, conditions: [] }] });
  expect(granted.status).toBe(200);
  const reader = adminBearer(await adminToken(app, await createAdmin(app, made.body.data.code, 'reader')));
  const write = await patch(anchors[1], '# Two\n\nThreads run far.');
  const anchor = write.body.data.changeSet.anchor;

  expect((await app.http.get(`${base()}/changes`).set(reader)).status).toBe(200);
  expect((await app.http.get(`${base()}/sections/${anchors[1]}/authors`).set(reader)).status).toBe(200);
  expect((await app.http.post(`${base()}/changes/${anchor}/revert`).set(reader).send({})).status).toBe(403);
  expect((await app.http.post(`${base()}/changes/revert`).set(reader).send({ run: 'r1' })).status).toBe(403);

  const editor = adminBearer(await adminToken(app, await createAdmin(app, 'strapi-editor', 'editor')));
  expect((await app.http.get(`${base()}/changes`).set(editor)).status).toBe(403);
  expect((await app.http.get(`${base()}/sections/${anchors[1]}/authors`).set(editor)).status).toBe(403);
  expect((await app.http.post(`${base()}/changes/${anchor}/revert`).set(editor).send({})).status).toBe(403);
  expect(await agentText(anchors[1])).toBe('# Two\n\nThreads run far.');
});
