/**
 * Article events (issue 21, point 2): every committed change to an article publishes one event
 * on the quire `events` bus after the commit, with what changed, the new revisions and who did
 * it, whatever the door (content API, the edits route, the admin canvas); a refused or failed
 * write and a rolled-back transaction publish nothing. With Redis, an event published by one
 * bus reaches another process's bus exactly once.
 */
import { randomBytes } from 'node:crypto';
import { adminBearer, adminToken, createAdmin } from '../helpers/admin';
import { client, newArticle, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, withFailingWrite, type TestApp, type TestUser } from '../helpers/strapi';
import { createEventBus, type EventBus } from '../../src/kernel/events';
import type { ArticleEvent } from '../../src/plugins/quire/server/src/domain/article-events';

let app: TestApp;
let alice: TestUser;
let agent: Client;
let person: Client;
let suggester: Client;
let adminAuth: Record<string, string>;
const seen: Array<{ event: ArticleEvent; local: boolean }> = [];
let unsubscribe: () => void;

const events = () => app.strapi.plugin('quire').service('events');
const AGENT = { kind: 'agent', name: 'writer bot' };
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

beforeAll(async () => {
  app = await startApp({ SERVE_ADMIN_PANEL: 'true', PUBLIC_URL: 'http://127.0.0.1:1337' });
  alice = await registerUser(app, 'alice');
  agent = client(app, await createKey(app, alice, 'writer bot'));
  person = client(app, alice.jwt);
  suggester = client(app, await createKey(app, alice, 'suggest bot', 'suggest'));
  adminAuth = adminBearer(await adminToken(app, await createAdmin(app, 'strapi-super-admin', 'chief')));
  unsubscribe = events().subscribe((event: ArticleEvent, delivery: { local: boolean }) => {
    seen.push({ event, local: delivery.local });
  });
});
afterAll(async () => {
  unsubscribe?.();
  await app?.close();
});

/** The events `work` published (every delivery finished), each delivered in this process. */
async function during(work: () => Promise<unknown>): Promise<ArticleEvent[]> {
  await events().settled();
  seen.length = 0;
  await work();
  await events().settled();
  const got = seen.splice(0);
  expect(got.every((s) => s.local)).toBe(true);
  return got.map((s) => s.event);
}

/** The one event `work` published. */
async function one(work: () => Promise<unknown>): Promise<ArticleEvent> {
  const got = await during(work);
  expect(got).toHaveLength(1);
  return got[0];
}

const ok = (status: number) => (res: { status: number; body: any }) => {
  expect([res.status, res.body?.error]).toEqual([status, undefined]);
  return res;
};

async function article(markdown = '# One\n\nFirst.\n\n# Two\n\nSecond.\n\n# Three\n\nThird.') {
  const { article: a, outline } = await newArticle(agent, { title: 'Events', markdown });
  return { id: a.id, anchors: outline.map((s) => s.anchor) };
}

async function outlineOf(id: string) {
  return (await agent.get(`/api/articles/${id}/outline?include=rev`)).body.data.outline as Array<{ anchor: string; id?: string; rev: number; title: string }>;
}

/** The full id of a section, from its anchor (ids are what events carry). */
async function sectionId(articleId: string, anchor: string): Promise<string> {
  return (await agent.get(`/api/articles/${articleId}/sections/${anchor}`)).body.data.section.id;
}

describe('articles', () => {
  it('creating an article publishes article.created with its first sections, by the key that made it', async () => {
    let created: any;
    const event = await one(async () => {
      created = ok(201)(await agent.post('/api/articles', { title: 'New', markdown: '# A\n\na.\n\n# B\n\nb.' })).body.data;
    });
    const sectionIds = await Promise.all(created.outline.map((s) => sectionId(created.article.id, s.anchor)));
    expect(event).toEqual({
      articleId: created.article.id,
      ownerId: alice.id,
      changes: [
        { type: 'article.created' },
        { type: 'section.inserted', sectionId: sectionIds[0], rev: 1 },
        { type: 'section.inserted', sectionId: sectionIds[1], rev: 1 },
      ],
      by: AGENT,
      at: ISO,
    });
  });

  it('renaming publishes article.updated, publishing and unpublishing theirs, deleting article.deleted', async () => {
    const { id } = await article();
    expect((await one(async () => ok(200)(await person.patch(`/api/articles/${id}`, { title: 'Renamed' }))))).toMatchObject({
      articleId: id,
      changes: [{ type: 'article.updated' }],
      by: { kind: 'human', name: alice.username },
    });
    expect((await one(async () => ok(200)(await agent.post(`/api/articles/${id}/publish`)))).changes).toEqual([{ type: 'article.published' }]);
    expect((await one(async () => ok(200)(await agent.del(`/api/articles/${id}/publish`)))).changes).toEqual([{ type: 'article.unpublished' }]);
    expect(await one(async () => ok(200)(await agent.del(`/api/articles/${id}`)))).toEqual({
      articleId: id,
      ownerId: alice.id,
      changes: [{ type: 'article.deleted' }],
      by: AGENT,
      at: ISO,
    });
  });

  it('an import publishes article.created with the imported sections and notes', async () => {
    let id = '';
    const event = await one(async () => {
      const markdown = '---\npremise: Why\nnotes:\n  - kind: source\n    title: Paper\n---\n# Imported\n\nText.\n\n# Second\n\nMore.';
      id = ok(201)(await agent.post('/api/articles/import', { markdown })).body.data.article.id;
    });
    const [note] = (await agent.get(`/api/articles/${id}/brief`)).body.data.notes;
    expect(event).toEqual({
      articleId: id,
      ownerId: alice.id,
      changes: [
        { type: 'article.created' },
        { type: 'section.inserted', sectionId: expect.any(String), rev: 1 },
        { type: 'section.inserted', sectionId: expect.any(String), rev: 1 },
        { type: 'note.added', noteId: expect.stringMatching(new RegExp(`^${note.anchor}`)), rev: 1 },
      ],
      by: AGENT,
      at: ISO,
    });
  });
});

describe('sections', () => {
  it('insert, replace, move and delete through the single routes: one event each, with the new revisions', async () => {
    const { id, anchors } = await article();
    const ids = await Promise.all(anchors.map((a) => sectionId(id, a)));

    let added: any;
    const inserted = await one(async () => {
      added = ok(201)(await agent.post(`/api/articles/${id}/sections`, { markdown: '# Four\n\nFourth.', after: anchors[2] })).body.data.added[0];
    });
    expect(inserted).toEqual({ articleId: id, ownerId: alice.id, changes: [{ type: 'section.inserted', sectionId: await sectionId(id, added.anchor), rev: 1 }], by: AGENT, at: ISO });

    expect((await one(async () => ok(200)(await agent.patch(`/api/articles/${id}/sections/${anchors[0]}`, { markdown: '# One\n\nFirst, again.' })))).changes).toEqual([
      { type: 'section.replaced', sectionId: ids[0], rev: 2 },
    ]);
    // A replace that splits: the first keeps its id (rev + 1), the rest are new.
    const split = await one(async () => ok(200)(await agent.patch(`/api/articles/${id}/sections/${anchors[1]}`, { markdown: '# Two\n\nSecond.\n\n# Two and a half\n\nMore.' })));
    expect(split.changes).toEqual([
      { type: 'section.replaced', sectionId: ids[1], rev: 2 },
      { type: 'section.inserted', sectionId: expect.any(String), rev: 1 },
    ]);
    expect((await one(async () => ok(200)(await agent.post(`/api/articles/${id}/sections/${anchors[2]}/move`, { before: anchors[0] })))).changes).toEqual([
      { type: 'section.moved', sectionId: ids[2], rev: 1 },
    ]);
    expect((await one(async () => ok(200)(await agent.del(`/api/articles/${id}/sections/${anchors[2]}`)))).changes).toEqual([{ type: 'section.deleted', sectionId: ids[2] }]);
  });

  it('the edits route publishes one event with every change of the request, in order; a dry run publishes nothing', async () => {
    const { id, anchors } = await article();
    const ids = await Promise.all(anchors.map((a) => sectionId(id, a)));
    const ops = [
      { op: 'replace', section: anchors[0], markdown: '# One\n\nChanged.' },
      { op: 'insert', markdown: '# New\n\nNew.', after: anchors[1] },
      { op: 'move', section: anchors[2], before: anchors[0] },
      { op: 'delete', section: anchors[1] },
      { op: 'replaceText', section: '$1', find: 'New.', replace: 'Newer.' },
    ];
    expect(await during(async () => ok(200)(await agent.post(`/api/articles/${id}/edits`, { ops, dryRun: true })))).toEqual([]);
    const event = await one(async () => ok(200)(await agent.post(`/api/articles/${id}/edits`, { ops })));
    const outline = await outlineOf(id);
    const newId = await sectionId(id, outline.find((s) => s.title === 'New')!.anchor);
    expect(event).toEqual({
      articleId: id,
      ownerId: alice.id,
      changes: [
        { type: 'section.replaced', sectionId: ids[0], rev: 2 },
        { type: 'section.inserted', sectionId: newId, rev: 1 },
        { type: 'section.moved', sectionId: ids[2], rev: 1 },
        { type: 'section.deleted', sectionId: ids[1] },
        { type: 'section.replaced', sectionId: newId, rev: 2 },
      ],
      by: AGENT,
      at: ISO,
    });
  });

  it('a revision restore publishes section.replaced naming the revision restored; a trash restore section.restored', async () => {
    const { id, anchors } = await article();
    const ids = await Promise.all(anchors.map((a) => sectionId(id, a)));
    ok(200)(await agent.patch(`/api/articles/${id}/sections/${anchors[0]}`, { markdown: '# One\n\nChanged.' }));
    const restored = await one(async () => ok(200)(await person.post(`/api/articles/${id}/sections/${anchors[0]}/revisions/1/restore`)));
    expect(restored).toMatchObject({ changes: [{ type: 'section.replaced', sectionId: ids[0], rev: 3, restoredRev: 1 }], by: { kind: 'human', name: alice.username } });

    ok(200)(await agent.del(`/api/articles/${id}/sections/${anchors[1]}`));
    const back = await one(async () => ok(200)(await agent.post(`/api/articles/${id}/trash/${anchors[1]}/restore`, { before: anchors[2] })));
    expect(back.changes).toEqual([{ type: 'section.restored', sectionId: ids[1], rev: 1 }]);
  });

  it('deleting the last section publishes its deletion and the empty section that takes its place; new content then replaces that one', async () => {
    const { id, anchors } = await article('# Only\n\nAlone.');
    const only = await sectionId(id, anchors[0]);
    const gone = await one(async () => ok(200)(await agent.del(`/api/articles/${id}/sections/${anchors[0]}`)));
    expect(gone.changes).toEqual([
      { type: 'section.deleted', sectionId: only },
      { type: 'section.inserted', sectionId: expect.any(String), rev: 1 },
    ]);
    const empty = (gone.changes[1] as { sectionId: string }).sectionId;
    const filled = await one(async () => ok(201)(await agent.post(`/api/articles/${id}/sections`, { markdown: '# Back\n\nAgain.' })));
    expect(filled.changes).toEqual([
      { type: 'section.deleted', sectionId: empty },
      { type: 'section.inserted', sectionId: expect.any(String), rev: 1 },
    ]);
  });
});

describe('brief and notes', () => {
  it('the premise publishes brief.changed; notes note.added, note.updated (with the new rev) and note.deleted', async () => {
    const { id } = await article();
    expect(await one(async () => ok(200)(await agent.patch(`/api/articles/${id}/brief`, { premise: 'Why' })))).toEqual({
      articleId: id,
      ownerId: alice.id,
      changes: [{ type: 'brief.changed', rev: null }],
      by: AGENT,
      at: ISO,
    });
    let anchor = '';
    const added = await one(async () => {
      anchor = ok(201)(await person.post(`/api/articles/${id}/notes`, { kind: 'idea', title: 'Idea' })).body.data.note.anchor;
    });
    expect(added).toMatchObject({ changes: [{ type: 'note.added', noteId: expect.stringMatching(new RegExp(`^${anchor}`)), rev: 1 }], by: { kind: 'human', name: alice.username } });
    const noteId = (added.changes[0] as { noteId: string }).noteId;
    expect(noteId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await one(async () => ok(200)(await agent.patch(`/api/articles/${id}/notes/${anchor}`, { title: 'Better idea' })))).changes).toEqual([
      { type: 'note.updated', noteId, rev: 2 },
    ]);
    expect((await one(async () => ok(200)(await agent.del(`/api/articles/${id}/notes/${anchor}`)))).changes).toEqual([{ type: 'note.deleted', noteId }]);
  });
});

describe('suggestions', () => {
  it('a suggestion publishes suggestion.made; accepting it one event with the decision and its changes, as its author; rejecting suggestion.decided', async () => {
    const { id, anchors } = await article();
    const first = await sectionId(id, anchors[0]);
    let suggestion: any;
    const made = await one(async () => {
      suggestion = ok(202)(await suggester.patch(`/api/articles/${id}/sections/${anchors[0]}`, { markdown: '# One\n\nSuggested.' })).body.data.suggestion;
    });
    expect(made).toEqual({ articleId: id, ownerId: alice.id, changes: [{ type: 'suggestion.made', suggestionId: suggestion.id }], by: { kind: 'agent', name: 'suggest bot' }, at: ISO });

    const accepted = await one(async () => ok(200)(await person.post(`/api/articles/${id}/suggestions/${suggestion.anchor}/accept`)));
    expect(accepted).toEqual({
      articleId: id,
      ownerId: alice.id,
      changes: [
        { type: 'suggestion.decided', suggestionId: suggestion.id, state: 'accepted', decidedBy: { kind: 'human', name: alice.username } },
        { type: 'section.replaced', sectionId: first, rev: 2 },
      ],
      by: { kind: 'agent', name: 'suggest bot' },
      at: ISO,
    });

    // Accepting one the article has moved past: 412, and the suggestion's committed change to stale.
    const late = ok(202)(await suggester.patch(`/api/articles/${id}/sections/${anchors[2]}`, { markdown: '# Three\n\nLate.' })).body.data.suggestion;
    ok(200)(await agent.patch(`/api/articles/${id}/sections/${anchors[2]}`, { markdown: '# Three\n\nFirst come.' }));
    const staled = await one(async () => expectFailure(await person.post(`/api/articles/${id}/suggestions/${late.anchor}/accept`), 412, 'precondition-failed'));
    expect(staled.changes).toEqual([{ type: 'suggestion.decided', suggestionId: late.id, state: 'stale' }]);

    const other = ok(202)(await suggester.del(`/api/articles/${id}/sections/${anchors[1]}`)).body.data.suggestion;
    const rejected = await one(async () => ok(200)(await agent.post(`/api/articles/${id}/suggestions/${other.anchor}/reject`, { reason: 'No' })));
    expect(rejected.changes).toEqual([{ type: 'suggestion.decided', suggestionId: other.id, state: 'rejected', decidedBy: AGENT }]);
  });
});

describe('the admin canvas', () => {
  it('an editor\'s writes publish events by the editor, on the owner\'s article', async () => {
    const { id, anchors } = await article();
    const first = await sectionId(id, anchors[0]);
    const editor = { kind: 'editor', name: 'Chief Tester' };
    const saved = await one(async () => ok(200)(await app.http.put(`/quire/articles/${id}/sections/${anchors[0]}`).set(adminAuth).send({ html: '<h1>One</h1><p>By hand.</p>' })));
    expect(saved).toEqual({ articleId: id, ownerId: alice.id, changes: [{ type: 'section.replaced', sectionId: first, rev: 2 }], by: editor, at: ISO });
    expect(await one(async () => ok(200)(await app.http.put(`/quire/articles/${id}/brief`).set(adminAuth).send({ premise: 'Edited' })))).toMatchObject({
      changes: [{ type: 'brief.changed', rev: null }],
      by: editor,
    });
    expect(await one(async () => ok(201)(await app.http.post(`/quire/articles/${id}/notes`).set(adminAuth).send({ kind: 'question', title: 'Q' })))).toMatchObject({
      changes: [{ type: 'note.added' }],
      by: editor,
    });
    expect(await one(async () => ok(200)(await app.http.post(`/quire/articles/${id}/publish`).set(adminAuth)))).toMatchObject({ changes: [{ type: 'article.published' }], by: editor });
  });
});

describe('what publishes nothing', () => {
  it('a write refused with 412, a refused request and an unknown article publish nothing', async () => {
    const { id, anchors } = await article();
    const etag = (await agent.get(`/api/articles/${id}/sections/${anchors[0]}`)).headers.etag;
    ok(200)(await agent.patch(`/api/articles/${id}/sections/${anchors[0]}`, { markdown: '# One\n\nChanged.' }));
    expect(
      await during(async () => {
        const stale = await app.http.patch(`/api/articles/${id}/sections/${anchors[0]}`).set({ Authorization: `Bearer ${alice.jwt}`, 'If-Match': etag }).send({ markdown: '# One\n\nMine.' });
        expectFailure(stale, 412, 'precondition-failed');
        expectFailure(await agent.post(`/api/articles/${id}/edits`, { ops: [{ op: 'replace', section: anchors[1], markdown: '# Two\n\nX.' }, { op: 'delete', section: 'ffffff' }] }), 404, 'not-found');
        expectFailure(await agent.patch(`/api/articles/${id}/notes/abcdef`, { title: 'x' }), 404, 'not-found');
      }),
    ).toEqual([]);
  });

  it('a write the database refuses half-way publishes nothing', async () => {
    const { id, anchors } = await article();
    await withFailingWrite(app, { table: 'quire_section_revisions', event: 'INSERT' }, async () => {
      expect(
        await during(async () => {
          const res = await agent.post(`/api/articles/${id}/edits`, { ops: [{ op: 'insert', markdown: '# X\n\nx.' }, { op: 'replace', section: anchors[0], markdown: '# One\n\nY.' }] });
          expect(res.status).toBe(500);
        }),
      ).toEqual([]);
    });
    await withFailingWrite(app, { table: 'quire_articles', event: 'DELETE' }, async () => {
      expect(await during(async () => expect((await agent.del(`/api/articles/${id}`)).status).toBe(500))).toEqual([]);
    });
    expect((await agent.get(`/api/articles/${id}`)).status).toBe(200);
  });

  it('services joined into an outer transaction publish one event after its commit, and nothing when it rolls back', async () => {
    const { id } = await article();
    const notes = app.strapi.plugin('quire').service('notes');
    const editor = { kind: 'editor' as const, name: 'Batch' };
    const committed = await during(async () => {
      await app.strapi.db.transaction(async () => {
        await notes.setPremise(alice.id, id, 'Joined', editor);
        await notes.add(alice.id, id, { kind: 'idea', title: 'Joined note' }, 'human', editor);
        // Nothing goes out before the outermost commit.
        await events().settled();
        expect(seen).toEqual([]);
      });
    });
    expect(committed).toEqual([
      { articleId: id, ownerId: alice.id, changes: [{ type: 'brief.changed', rev: null }, { type: 'note.added', noteId: expect.any(String), rev: 1 }], by: editor, at: ISO },
    ]);

    const rolledBack = await during(async () => {
      await expect(
        app.strapi.db.transaction(async () => {
          await notes.add(alice.id, id, { kind: 'idea', title: 'Never' }, 'human', editor);
          await app.strapi.plugin('quire').service('articles').updateArticle(alice.id, id, { title: 'Never' }, editor);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
    });
    expect(rolledBack).toEqual([]);
    const brief = (await agent.get(`/api/articles/${id}/brief`)).body.data;
    expect(brief.notes.map((n) => n.title)).toEqual(['Joined note']);
  });
});

describe('across processes (Redis)', () => {
  const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const log = { warn: (message: string) => console.warn(message) };
  let a: EventBus<ArticleEvent>;
  let b: EventBus<ArticleEvent>;
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('an event published by one bus reaches a second bus exactly once, and its own subscribers once, locally', async () => {
    const keyPrefix = `quire-test-${randomBytes(4).toString('hex')}:`;
    a = createEventBus<ArticleEvent>({ name: 'articles', redisUrl: REDIS_URL, keyPrefix, log });
    b = createEventBus<ArticleEvent>({ name: 'articles', redisUrl: REDIS_URL, keyPrefix, log });
    const atA: Array<[string, boolean]> = [];
    const atB: Array<[string, boolean]> = [];
    // The marker, published after the event by the same bus, arrives after it (one channel, one
    // publishing connection): once it is in, every copy of the event that would come has come.
    let markerAtB!: () => void;
    const markerArrived = new Promise<void>((resolve) => (markerAtB = resolve));
    a.subscribe((event, { local }) => {
      if (event.articleId !== 'probe') atA.push([event.articleId, local]);
    });
    b.subscribe((event, { local }) => {
      if (event.articleId !== 'probe') atB.push([event.articleId, local]);
      if (event.articleId === 'marker') markerAtB();
    });
    // Both listeners are subscribed once a message sent through Redis comes back to each.
    await waitUntilSubscribed(a, b);

    const event: ArticleEvent = { articleId: 'the-article', ownerId: 1, changes: [{ type: 'article.published' }], by: { kind: 'agent', name: 'k' }, at: new Date().toISOString() };
    a.publish(event);
    a.publish({ ...event, articleId: 'marker' });
    await markerArrived;
    await a.settled();
    await b.settled();
    expect(atB).toEqual([
      ['the-article', false],
      ['marker', false],
    ]);
    expect(atA).toEqual([
      ['the-article', true],
      ['marker', true],
    ]);
  });

  /** Publishes probes from each bus until the other has received one (SUBSCRIBE is asynchronous). */
  async function waitUntilSubscribed(x: EventBus<ArticleEvent>, y: EventBus<ArticleEvent>) {
    for (const [from, to] of [
      [x, y],
      [y, x],
    ]) {
      let arrived = false;
      const off = to.subscribe((e, { local }) => {
        if (!local && e.articleId === 'probe') arrived = true;
      });
      while (!arrived) {
        from.publish({ articleId: 'probe', ownerId: 0, changes: [], by: { kind: 'agent', name: 'probe' }, at: new Date().toISOString() });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      off();
    }
  }
});
