/**
 * The canvas's review routes (/quire/articles/{id}/...revisions, /trash, /suggestions): an
 * editor reviews an article an agent wrote, through the history and suggestions services of
 * the content API (CONTRACT 12, 14), as the editor (`by.kind` editor, `decidedBy` editor),
 * the article staying its owner's. Reading needs `plugin::quire.read`; restoring, accepting and
 * rejecting `plugin::quire.edit`.
 */
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { client, type Client } from '../helpers/articles';
import { createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let token: string;
let agent: Client;
let suggester: Client;
let articleId: string;
let anchors: string[];

const admin = () => adminBearer(token);
const base = () => `/quire/articles/${articleId}`;
const api = () => `/api/articles/${articleId}`;
/** The editor as the revisions name them: createAdmin's first and last names. */
const EDITOR = { kind: 'editor', name: 'Chief Tester' };

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true' });
  token = await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief'));
  const ada = await registerUser(app, 'ada');
  agent = client(app, await createKey(app, ada, 'agent'));
  suggester = client(app, await createKey(app, ada, 'reviewer bot', 'suggest'));
  const res = await agent.post('/api/articles', { title: 'Engines', markdown: '# One\n\nThe engine weaves.\n\n# Two\n\nAs the loom.\n\n# Three\n\nFlowers.' });
  expect(res.status).toBe(201);
  articleId = res.body.data.article.id;
  anchors = res.body.data.outline.map((s) => s.anchor);
});
afterAll(() => app?.close());

describe('revisions', () => {
  it('lists a section\'s versions with who made them, shows one, and restores it as a new revision by the editor', async () => {
    const [one] = anchors;
    expect((await agent.patch(`${api()}/sections/${one}`, { markdown: '# One\n\nThe agent rewrote it.' })).status).toBe(200);
    expect((await app.http.put(`${base()}/sections/${one}`).set(admin()).send({ html: '<h1>One</h1><p>The editor rewrote it.</p>' })).status).toBe(200);

    const list = await app.http.get(`${base()}/sections/${one}/revisions`).set(admin());
    expect(list.status).toBe(200);
    const { revisions } = list.body.data;
    expect(revisions.map((r) => [r.rev, r.source, r.by])).toEqual([
      [3, 'html', EDITOR],
      [2, 'markdown', { kind: 'agent', name: 'agent' }],
      [1, 'markdown', { kind: 'agent', name: 'agent' }],
    ]);
    expect(revisions[0]).toEqual(expect.objectContaining({ title: 'One', level: 1, words: 5, createdAt: expect.any(String) }));
    // The same answer as the content API's.
    expect((await agent.get(`${api()}/sections/${one}/revisions`)).body.data).toEqual(list.body.data);

    const second = await app.http.get(`${base()}/sections/${one}/revisions/2`).set(admin());
    expect(second.status).toBe(200);
    expect(second.body.data.revision).toEqual(expect.objectContaining({ rev: 2, source: 'markdown', markdown: '# One\n\nThe agent rewrote it.' }));
    expect(second.body.data.revision.html).toContain('The agent rewrote it.');

    const current = (await app.http.get(`${base()}/sections/${one}`).set(admin())).headers.etag;
    const restored = await app.http.post(`${base()}/sections/${one}/revisions/2/restore`).set(admin()).set('If-Match', current);
    expect(restored.status).toBe(200);
    expect(restored.body.data.section).toEqual(expect.objectContaining({ anchor: one, source: 'markdown', markdown: '# One\n\nThe agent rewrote it.' }));
    expect(restored.body.data.outline.map((s) => s.title)).toEqual(['One', 'Two', 'Three']);
    expect(restored.headers.etag).toMatch(/^"s\.[0-9a-f-]+\.4"$/);
    const after = (await agent.get(`${api()}/sections/${one}/revisions`)).body.data.revisions;
    expect(after[0]).toEqual(expect.objectContaining({ rev: 4, by: EDITOR }));
    expect((await agent.get(`${api()}/sections/${one}`)).body.data.section.markdown).toBe('# One\n\nThe agent rewrote it.');
  });

  it('does not restore over a section changed since the editor read it (412), and 404s a revision it never had', async () => {
    const two = anchors[1];
    const seen = (await app.http.get(`${base()}/sections/${two}`).set(admin())).headers.etag;
    expect((await agent.patch(`${api()}/sections/${two}`, { markdown: '# Two\n\nThe agent, meanwhile.' })).status).toBe(200);
    const refused = await app.http.post(`${base()}/sections/${two}/revisions/1/restore`).set(admin()).set('If-Match', seen);
    expect(refused.status).toBe(412);
    expect(refused.body.error).toEqual(expect.objectContaining({ status: 412, name: 'PreconditionFailedError', details: expect.objectContaining({ code: 'precondition-failed' }) }));
    expect((await agent.get(`${api()}/sections/${two}`)).body.data.section.markdown).toContain('The agent, meanwhile.');

    const missing = await app.http.get(`${base()}/sections/${two}/revisions/99`).set(admin());
    expect(missing.status).toBe(404);
    expect(missing.body.error.details).toEqual(expect.objectContaining({ code: 'not-found', nextAction: expect.stringContaining('/revisions') }));
    expect((await app.http.get(`${base()}/sections/${two}/revisions/zero`).set(admin())).status).toBe(400);
  });
});

describe('trash', () => {
  it('lists the sections the editor deleted and puts one back with its id and history', async () => {
    const three = anchors[2];
    expect((await app.http.delete(`${base()}/sections/${three}`).set(admin())).status).toBe(200);
    const trash = await app.http.get(`${base()}/trash`).set(admin());
    expect(trash.status).toBe(200);
    expect(trash.body.data.sections).toEqual([expect.objectContaining({ anchor: expect.any(String), title: 'Three', level: 1, words: 2, by: EDITOR, deletedAt: expect.any(String) })]);
    expect((await agent.get(`${api()}/trash`)).body.data).toEqual(trash.body.data);

    const entry = trash.body.data.sections[0];
    const restored = await app.http.post(`${base()}/trash/${entry.anchor}/restore`).set(admin()).send({ before: anchors[0] });
    expect(restored.status).toBe(200);
    // Back where asked, under its old id (so its old anchor).
    expect(restored.body.data.outline.map((s) => [s.title, s.anchor])).toEqual([
      ['Three', three],
      ['One', anchors[0]],
      ['Two', anchors[1]],
    ]);
    expect(entry.id.startsWith(three)).toBe(true);
    expect(restored.headers.etag).toMatch(/^"o\./);
    expect((await app.http.get(`${base()}/trash`).set(admin())).body.data.sections).toEqual([]);
    expect((await agent.get(`${api()}/sections/${three}/revisions`)).body.data.revisions.length).toBeGreaterThanOrEqual(1);
  });

  it('answers the content API\'s errors: an unknown anchor is 404, after and before together 400', async () => {
    expect((await app.http.post(`${base()}/trash/ffffff/restore`).set(admin()).send({})).status).toBe(404);
    const both = await app.http.post(`${base()}/trash/ffffff/restore`).set(admin()).send({ after: anchors[0], before: anchors[1] });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual(expect.objectContaining({ code: 'invalid-argument' }));
  });
});

describe('suggestions', () => {
  it('lists a suggest key\'s pending suggestions and accepts one: the section changes, decided by the editor; a second accept is 409', async () => {
    const one = anchors[0];
    const made = await suggester.patch(`${api()}/sections/${one}`, { markdown: '# One\n\nThe suggested text.' });
    expect(made.status).toBe(202);
    const { anchor } = made.body.data.suggestion;

    const pending = await app.http.get(`${base()}/suggestions?status=pending`).set(admin());
    expect(pending.status).toBe(200);
    expect(pending.body.data.suggestions).toEqual([expect.objectContaining({ anchor, status: 'pending', by: { kind: 'agent', name: 'reviewer bot' }, results: [expect.objectContaining({ op: 'replace' })] })]);
    expect((await agent.get(`${api()}/suggestions?status=pending`)).body.data).toEqual(pending.body.data);
    expect((await app.http.get(`${base()}/suggestions/${anchor}`).set(admin())).body.data.suggestion).toEqual(pending.body.data.suggestions[0]);
    expect((await app.http.get(`${base()}/suggestions?status=maybe`).set(admin())).status).toBe(400);

    const accepted = await app.http.post(`${base()}/suggestions/${anchor}/accept`).set(admin());
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.suggestion).toEqual(expect.objectContaining({ anchor, status: 'accepted', decidedBy: EDITOR, decidedAt: expect.any(String) }));
    expect(accepted.body.data.outline.map((s) => s.title)).toEqual(['Three', 'One', 'Two']);
    expect(accepted.headers.etag).toMatch(/^"o\./);
    const section = (await agent.get(`${api()}/sections/${one}`)).body.data.section;
    expect(section.markdown).toBe('# One\n\nThe suggested text.');
    // Applied as its author's change.
    expect((await agent.get(`${api()}/sections/${one}/revisions`)).body.data.revisions[0].by).toEqual({ kind: 'agent', name: 'reviewer bot' });

    const again = await app.http.post(`${base()}/suggestions/${anchor}/accept`).set(admin());
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual(expect.objectContaining({ name: 'ConflictError', details: expect.objectContaining({ code: 'conflict' }) }));
  });

  it('refuses a stale suggestion (412, now stale, nothing changed) and rejects suggestions with a reason', async () => {
    const two = anchors[1];
    const stale = (await suggester.patch(`${api()}/sections/${two}`, { markdown: '# Two\n\nToo late.' })).body.data.suggestion.anchor;
    expect((await agent.patch(`${api()}/sections/${two}`, { markdown: '# Two\n\nThe agent got there first.' })).status).toBe(200);
    const refused = await app.http.post(`${base()}/suggestions/${stale}/accept`).set(admin());
    expect(refused.status).toBe(412);
    expect(refused.body.error.details).toEqual(expect.objectContaining({ code: 'precondition-failed' }));
    expect((await app.http.get(`${base()}/suggestions/${stale}`).set(admin())).body.data.suggestion.status).toBe('stale');
    expect((await agent.get(`${api()}/sections/${two}`)).body.data.section.markdown).toContain('The agent got there first.');

    const rejected = await app.http.post(`${base()}/suggestions/${stale}/reject`).set(admin()).send({ reason: 'Out of date.' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.suggestion).toEqual(expect.objectContaining({ status: 'rejected', decidedBy: EDITOR }));
    expect((await app.http.post(`${base()}/suggestions/${stale}/reject`).set(admin()).send({})).status).toBe(409);
    expect((await app.http.get(`${base()}/suggestions/ffffffff`).set(admin())).status).toBe(404);
  });

  it('answers the open suggestions in place: per section, its HTML now and what the suggestion makes of it; stale once the section changed', async () => {
    const sections = (await app.http.get(`${base()}/sections`).set(admin())).body.data.sections;
    const one = sections.find((section) => section.title === 'One');
    const three = sections.find((section) => section.title === 'Three');
    const edit = (await suggester.patch(`${api()}/sections/${three.anchor}`, { markdown: '# Three\n\nFlowers and leaves.' })).body.data.suggestion;
    const insert = (await suggester.post(`${api()}/suggestions`, { ops: [{ op: 'insert', after: one.anchor, markdown: '## New\n\nA new part.' }], note: 'Missing part.' })).body.data.suggestion;
    const read = async () => {
      const res = await app.http.get(`${base()}/in-place-suggestions`).set(admin());
      expect(res.status).toBe(200);
      return res.body.data.suggestions;
    };
    const listed = await read();
    expect(listed.map((s) => [s.anchor, s.stale])).toEqual([
      [edit.anchor, false],
      [insert.anchor, false],
    ]);
    expect(listed[0]).toEqual(expect.objectContaining({ status: 'pending', by: { kind: 'agent', name: 'reviewer bot' }, results: edit.results }));
    expect(listed[0].places).toEqual([{ section: three.id, change: 'edit', current: expect.stringContaining('Flowers.'), suggested: expect.stringContaining('Flowers and leaves.') }]);
    // A new section shows in the one before it.
    expect(listed[1].places).toEqual([{ section: one.id, change: 'insert', current: '', suggested: expect.stringContaining('A new part.') }]);
    // Each with its pending change set (the same id; the canvas marks its words with its anchor) and why it was made.
    expect(listed[0].changeSet).toEqual({ id: edit.id, anchor: expect.any(String), reason: null });
    expect(edit.id.startsWith(listed[0].changeSet.anchor)).toBe(true);
    expect(listed[1].changeSet).toEqual(expect.objectContaining({ id: insert.id, reason: 'Missing part.' }));

    // The section changes under the suggestion: stale, its text kept as it was suggested.
    expect((await agent.patch(`${api()}/sections/${three.anchor}`, { markdown: '# Three\n\nFlowers, by the agent.' })).status).toBe(200);
    const after = await read();
    expect(after[0]).toEqual(expect.objectContaining({ anchor: edit.anchor, status: 'pending', stale: true }));
    expect(after[0].places).toEqual([{ section: three.id, change: 'edit', current: expect.stringContaining('Flowers, by the agent.'), suggested: expect.stringContaining('Flowers and leaves.') }]);
    expect(after[1].stale).toBe(false);
    for (const s of [edit, insert]) expect((await app.http.post(`${base()}/suggestions/${s.anchor}/reject`).set(admin()).send({})).status).toBe(200);
    expect(await read()).toEqual([]);
  });

  /** A pending suggestion that changes the sections One and Three, with their records. */
  const suggestOneAndThree = async (oneText: string, threeText: string) => {
    const sections = (await app.http.get(`${base()}/sections`).set(admin())).body.data.sections;
    const one = sections.find((section) => section.title === 'One');
    const three = sections.find((section) => section.title === 'Three');
    const made = (
      await suggester.post(`${api()}/suggestions`, {
        ops: [
          { op: 'replace', section: one.anchor, markdown: `# One\n\n${oneText}` },
          { op: 'replace', section: three.anchor, markdown: `# Three\n\n${threeText}` },
        ],
      })
    ).body.data.suggestion;
    return { one, three, made };
  };

  it('accepts a suggestion in one section from the canvas (CONTRACT 23): the rest stays pending', async () => {
    const { one, three, made } = await suggestOneAndThree('Accepted here.', 'Still waiting.');
    const bad = await app.http.post(`${base()}/suggestions/${made.anchor}/accept`).set(admin()).send({ sections: [] });
    expect(bad.status).toBe(400);
    const accepted = await app.http.post(`${base()}/suggestions/${made.anchor}/accept`).set(admin()).send({ sections: [one.anchor] });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.suggestion).toEqual(expect.objectContaining({ status: 'pending', ops: [{ op: 'replace', section: three.anchor, markdown: '# Three\n\nStill waiting.' }] }));
    expect((await agent.get(`${api()}/sections/${one.anchor}`)).body.data.section.markdown).toBe('# One\n\nAccepted here.');
    expect((await agent.get(`${api()}/sections/${three.anchor}`)).body.data.section.markdown).not.toContain('Still waiting.');
    expect((await app.http.post(`${base()}/suggestions/${made.anchor}/reject`).set(admin()).send({})).status).toBe(200);
  });

  it('rejects a suggestion in one section from the canvas (Reject here): the rest stays pending, in place', async () => {
    const { one, three, made } = await suggestOneAndThree('Rejected here.', 'Still pending.');
    const rejected = await app.http.post(`${base()}/suggestions/${made.anchor}/reject`).set(admin()).send({ sections: [one.anchor], reason: 'Keep One as it is' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.suggestion).toEqual(expect.objectContaining({ status: 'pending', ops: [{ op: 'replace', section: three.anchor, markdown: '# Three\n\nStill pending.' }] }));
    // The canvas shows it only where it still changes something.
    const inPlace = (await app.http.get(`${base()}/in-place-suggestions`).set(admin())).body.data.suggestions.find((s) => s.id === made.id);
    expect(inPlace.places.map((p) => p.section)).toEqual([three.id]);
    expect((await agent.get(`${api()}/sections/${one.anchor}`)).body.data.section.markdown).not.toContain('Rejected here.');
    expect((await app.http.post(`${base()}/suggestions/${made.anchor}/reject`).set(admin()).send({})).status).toBe(200);
  });
});

describe('permissions', () => {
  it('an Editor without Quire permissions gets 403 from every review route, and nothing changes', async () => {
    const pending = (await suggester.patch(`${api()}/sections/${anchors[1]}`, { markdown: '# Two\n\nAsk the editor.' })).body.data.suggestion.anchor;
    const editorToken = await adminToken(app, await createAdmin(app, 'strapi-editor', 'editor'));
    const calls = [
      app.http.get(`${base()}/sections/${anchors[0]}/revisions`),
      app.http.get(`${base()}/sections/${anchors[0]}/revisions/1`),
      app.http.post(`${base()}/sections/${anchors[0]}/revisions/1/restore`),
      app.http.get(`${base()}/trash`),
      app.http.post(`${base()}/trash/${anchors[2]}/restore`).send({}),
      app.http.get(`${base()}/suggestions`),
      app.http.get(`${base()}/in-place-suggestions`),
      app.http.get(`${base()}/suggestions/${pending}`),
      app.http.post(`${base()}/suggestions/${pending}/accept`),
      app.http.post(`${base()}/suggestions/${pending}/reject`).send({}),
    ];
    for (const call of calls) {
      const res = await call.set(adminBearer(editorToken));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ data: null, error: expect.objectContaining({ status: 403 }) });
    }
    expect((await agent.get(`${api()}/suggestions/${pending}`)).body.data.suggestion.status).toBe('pending');
  });

  it('with read only (an Author granted plugin::quire.read) the review is shown but restoring and deciding are 403', async () => {
    const { id: authorRole } = await app.strapi.db.query('admin::role').findOne({ where: { code: 'strapi-author' } });
    const current = await app.http.get(`/admin/roles/${authorRole}/permissions`).set(admin());
    const permissions = current.body.data.map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
    const granted = await app.http
      .put(`/admin/roles/${authorRole}/permissions`)
      .set(admin())
      .send({ permissions: [...permissions, { action: 'plugin::quire.read', subject: null, properties: {}, conditions: [] }] });
    expect(granted.status).toBe(200);
    const reader = adminBearer(await adminToken(app, await createAdmin(app, 'strapi-author', 'author')));

    const pending = (await app.http.get(`${base()}/suggestions?status=pending`).set(reader)).body.data.suggestions;
    expect(pending).toHaveLength(1);
    expect((await app.http.get(`${base()}/sections/${anchors[0]}/revisions`).set(reader)).status).toBe(200);
    expect((await app.http.get(`${base()}/trash`).set(reader)).status).toBe(200);
    expect((await app.http.post(`${base()}/sections/${anchors[0]}/revisions/1/restore`).set(reader)).status).toBe(403);
    expect((await app.http.post(`${base()}/suggestions/${pending[0].anchor}/accept`).set(reader)).status).toBe(403);
    expect((await app.http.post(`${base()}/suggestions/${pending[0].anchor}/reject`).set(reader).send({})).status).toBe(403);
    expect((await agent.get(`${api()}/suggestions/${pending[0].anchor}`)).body.data.suggestion.status).toBe('pending');
  });
});
