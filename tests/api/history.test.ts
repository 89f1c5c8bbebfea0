/**
 * CONTRACT section 12: every content change keeps the previous version with who made it;
 * list, read, restore; the trash (30 days, restore keeping the id); QUIRE_REVISIONS_KEEP.
 */
import { client, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let agent: Client;
let person: Client;
let alice: TestUser;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app, 'alice');
  agent = client(app, await createKey(app, alice, 'drafting agent'));
  person = client(app, alice.jwt);
}, 180_000);
afterAll(() => app?.close());

describe('section revisions', () => {
  it('keeps every previous version with who made it, newest first, the current one included', async () => {
    const { article, outline } = await newArticle(agent, { title: 'T', markdown: sectionsDoc(2) });
    const sid = outline[0].anchor;
    const base = `/api/articles/${article.id}/sections/${sid}`;
    await agent.patch(base, { markdown: '## S1\n\nSecond.' });
    await person.patch(base, { markdown: '## S1 by hand\n\nThird.' });
    await agent.post(`/api/articles/${article.id}/sections/${sid}/move`, { after: outline[1].anchor });
    const res = await agent.get(`${base}/revisions`);
    expect(res.status).toBe(200);
    const revisions = res.body.data.revisions;
    expect(revisions.map((r) => [r.rev, r.title, r.by.kind])).toEqual([
      [3, 'S1 by hand', 'human'],
      [2, 'S1', 'agent'],
      [1, 'S1', 'agent'],
    ]);
    expect(revisions[0].by.name).toBe(alice.username);
    expect(revisions[1].by.name).toBe('drafting agent');
    expect(Object.keys(revisions[0]).sort()).toEqual(['by', 'createdAt', 'level', 'rev', 'source', 'title', 'words']);

    const two = await agent.get(`${base}/revisions/2`);
    expect(two.body.data.revision).toMatchObject({ rev: 2, markdown: '## S1\n\nSecond.', html: expect.stringContaining('Second.') });
    const current = await agent.get(`${base}/revisions/3`);
    expect(current.body.data.revision.markdown).toBe('## S1 by hand\n\nThird.');
  });

  it('restores a version as a new revision (If-Match allowed), and 404 for a revision that does not exist', async () => {
    const { article, outline } = await newArticle(agent, { title: 'T', markdown: sectionsDoc(1) });
    const base = `/api/articles/${article.id}/sections/${outline[0].anchor}`;
    await agent.patch(base, { markdown: '## Changed\n\nOops.' });
    await agent.patch(base, { html: '<h2>Canvas</h2><p>Hand made.</p>' });
    const tag = (await agent.get(base)).headers.etag;
    const restored = await agent.post(`${base}/revisions/1/restore`).set('If-Match', tag);
    expect(restored.status).toBe(200);
    expect(restored.body.data.section).toMatchObject({ markdown: '## S1\n\nBody of S1.', source: 'markdown', title: 'S1' });
    expect(restored.body.data.outline.map((e) => e.title)).toEqual(['S1']);
    expect(restored.headers.etag).toBe((await agent.get(base)).headers.etag);
    expect((await agent.get(`${base}/revisions`)).body.data.revisions.map((r) => [r.rev, r.source])).toEqual([
      [4, 'markdown'],
      [3, 'html'],
      [2, 'markdown'],
      [1, 'markdown'],
    ]);
    // The html version comes back as html.
    const html = await agent.post(`${base}/revisions/3/restore`);
    expect(html.body.data.section).toMatchObject({ source: 'html', markdown: null, title: 'Canvas' });

    expectFailure(await agent.post(`${base}/revisions/2/restore`).set('If-Match', tag), 412, 'precondition-failed');
    const missing = expectFailure(await agent.post(`${base}/revisions/99/restore`), 404, 'not-found');
    expect(missing.nextAction).toContain(`${base}/revisions`.replace(`/sections/${outline[0].anchor}`, `/sections/${outline[0].anchor}`));
    expectFailure(await agent.get(`${base}/revisions/99`), 404, 'not-found');
    expectFailure(await agent.get(`${base}/revisions/zero`), 400, 'invalid-argument');
    expectFailure(await agent.get(`/api/articles/${article.id}/sections/abcdef99/revisions`), 404, 'not-found');
  });

  it('keeps at least QUIRE_REVISIONS_KEEP (100) previous versions, and drops older ones', async () => {
    const { article, outline } = await newArticle(agent, { title: 'T', markdown: sectionsDoc(1) });
    const base = `/api/articles/${article.id}/sections/${outline[0].anchor}`;
    for (let i = 0; i < 111; i += 1) await agent.patch(base, { markdown: `## S1\n\nVersion ${i + 2}.` });
    const revisions = (await agent.get(`${base}/revisions`)).body.data.revisions;
    expect(revisions[0].rev).toBe(112);
    expect(revisions.length).toBeGreaterThanOrEqual(101);
    expect(revisions.length).toBeLessThan(112);
    expect(revisions.map((r) => r.rev)).toEqual(Array.from({ length: revisions.length }, (_, i) => 112 - i));
  });
});

describe('the trash', () => {
  it('keeps deleted sections with who deleted them; restore puts one back with its id, content and history', async () => {
    const { article, outline } = await newArticle(agent, { title: 'T', markdown: sectionsDoc(3) });
    const [s1, s2, s3] = outline.map((e) => e.anchor);
    const base = `/api/articles/${article.id}`;
    await agent.patch(`${base}/sections/${s2}`, { markdown: '## S2\n\nEdited.' });
    const id2 = (await agent.get(`${base}/sections/${s2}`)).body.data.section.id;
    await person.del(`${base}/sections/${s2}`);
    const trash = (await agent.get(`${base}/trash`)).body.data.sections;
    expect(trash).toHaveLength(1);
    expect(trash[0]).toMatchObject({ id: id2, title: 'S2', level: 2, by: { kind: 'human', name: alice.username } });
    expect(trash[0].anchor.length).toBeGreaterThanOrEqual(6);

    const res = await agent.post(`${base}/trash/${trash[0].anchor}/restore`, { before: s1 });
    expect(res.status).toBe(200);
    expect(res.body.data.outline.map((e) => e.title)).toEqual(['S2', 'S1', 'S3']);
    expect(res.headers.etag).toBe((await agent.get(`${base}/outline`)).headers.etag);
    const back = (await agent.get(`${base}/sections/${id2}`)).body.data.section;
    expect(back).toMatchObject({ id: id2, markdown: '## S2\n\nEdited.' });
    expect((await agent.get(`${base}/sections/${id2}/revisions`)).body.data.revisions.map((r) => r.rev)).toEqual([2, 1]);
    expect((await agent.get(`${base}/trash`)).body.data.sections).toEqual([]);

    // Appended when neither after nor before is given.
    await agent.del(`${base}/sections/${s3}`);
    const again = (await agent.get(`${base}/trash`)).body.data.sections[0];
    await agent.del(`${base}/sections/${s1}`);
    const appended = await agent.post(`${base}/trash/${again.anchor}/restore`, {});
    expect(appended.body.data.outline.map((e) => e.title)).toEqual(['S2', 'S3']);
  });

  it('restoring into an article left with its empty section takes that section\'s place', async () => {
    const { article, outline } = await newArticle(agent, { title: 'T', markdown: sectionsDoc(1) });
    await agent.del(`/api/articles/${article.id}/sections/${outline[0].anchor}`);
    const anchor = (await agent.get(`/api/articles/${article.id}/trash`)).body.data.sections[0].anchor;
    const res = await agent.post(`/api/articles/${article.id}/trash/${anchor}/restore`);
    expect(res.body.data.outline.map((e) => e.title)).toEqual(['S1']);
  });

  it('answers 404 for a trash anchor that matches nothing, 400 for both after and before; forgets sections after 30 days', async () => {
    const { article, outline } = await newArticle(agent, { title: 'T', markdown: sectionsDoc(3) });
    const base = `/api/articles/${article.id}`;
    const missing = expectFailure(await agent.post(`${base}/trash/abcdef00/restore`, {}), 404, 'not-found');
    expect(missing.nextAction).toContain(`GET /api/articles/${article.id}/trash`);
    await agent.del(`${base}/sections/${outline[0].anchor}`);
    const anchor = (await agent.get(`${base}/trash`)).body.data.sections[0].anchor;
    expectFailure(await agent.post(`${base}/trash/${anchor}/restore`, { after: outline[1].anchor, before: outline[2].anchor }), 400, 'invalid-argument');
    expectFailure(await agent.post(`${base}/trash/${anchor}/restore`, { after: 'ffffffff' }), 404, 'not-found');

    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    await app.strapi.db.connection('quire_trash').update({ deleted_at: old });
    expect((await agent.get(`${base}/trash`)).body.data.sections).toEqual([]);
    expectFailure(await agent.post(`${base}/trash/${anchor}/restore`, {}), 404, 'not-found');
  });
});
