/**
 * CONTRACT 23, change sets: every write through every door is one change set with its reason
 * and run, answered as `changeSet`; listing (filters, cursor), one change set with its word
 * diff; revert of one change set or a run in the text as it is now (others' later writing
 * kept, conflicts listed); suggestions as pending change sets; who wrote what; webhook events.
 */
import { client, newArticle, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';

let app: TestApp;
let alice: TestUser;
let agent: Client;
let person: Client;
let reader: Client;
let suggester: Client;
let stranger: Client;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app, 'alice');
  agent = client(app, await createKey(app, alice, 'drafting bot'));
  person = client(app, alice.jwt);
  reader = client(app, await createKey(app, alice, 'reader', 'read'));
  suggester = client(app, await createKey(app, alice, 'suggest bot', 'suggest'));
  const bob = await registerUser(app, 'bob');
  stranger = client(app, await createKey(app, bob, 'bob bot'));
}, 180_000);
afterAll(() => app?.close());

const joined = (diff: Array<{ op: string; text: string }>, keep: string) =>
  diff
    .filter((p) => p.op === '=' || p.op === keep)
    .map((p) => p.text)
    .join('');

async function changes(base: string, query = '') {
  const res = await agent.get(`${base}/changes${query}`);
  expect(res.status).toBe(200);
  return res.body.data as { changes: any[]; nextCursor: string | null };
}

async function sectionText(base: string, anchor: string): Promise<string> {
  return (await agent.get(`${base}/sections/${anchor}`)).body.data.section.markdown;
}

describe('every write is one change set, with its reason and run', () => {
  it('section routes, edits, notes, the brief, restores: each answers changeSet and is listed newest first', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Doors', markdown: '# One\n\nFirst body.\n\n# Two\n\nSecond body.' });
    const base = `/api/articles/${article.id}`;
    const [one, two] = outline.map((e) => e.anchor);
    const answers = [
      await agent.patch(`${base}/sections/${one}`, { markdown: '# One\n\nFirst body, revised.', reason: 'tighten the intro' }),
      await agent.post(`${base}/sections`, { markdown: '# Three\n\nThird body.', reason: 'add a section' }),
      await agent.post(`${base}/edits`, { ops: [{ op: 'replaceText', find: 'Second body', replace: 'Second text', section: two }], reason: 'wording' }),
      await app.http.delete(`${base}/sections/${two}`).set('Authorization', `Bearer ${alice.jwt}`).set('Quire-Reason', 'not needed'),
      await agent.post(`${base}/notes`, { kind: 'source', title: 'A source', reason: 'cite it' }),
      await agent.patch(`${base}/brief`, { premise: 'The point.', reason: 'set the premise' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 201, 200, 200, 201, 200]);
    const refs = answers.map((r) => r.body.data.changeSet);
    for (const ref of refs) expect(Object.keys(ref).sort()).toEqual(['anchor', 'id']);
    expect(new Set(refs.map((r) => r.id)).size).toBe(refs.length);

    const trash = (await agent.get(`${base}/trash`)).body.data.sections;
    const restored = await agent.post(`${base}/trash/${trash[0].anchor}/restore`, { reason: 'bring it back' });
    expect(restored.status).toBe(200);
    const restore = await app.http.post(`${base}/sections/${one}/revisions/1/restore`).set('Authorization', `Bearer ${alice.jwt}`).set('Quire-Reason', 'the first was better');
    expect(restore.status).toBe(200);

    const { changes: list, nextCursor } = await changes(base);
    expect(nextCursor).toBeNull();
    expect(list.map((c) => c.reason)).toEqual(['the first was better', 'bring it back', 'set the premise', 'cite it', 'not needed', 'wording', 'add a section', 'tighten the intro']);
    expect(list[list.length - 1].id).toBe(refs[0].id);
    const first = list[list.length - 1];
    expect(Object.keys(first).sort()).toEqual(['anchor', 'at', 'by', 'id', 'reason', 'revertedBy', 'run', 'sections', 'status']);
    expect(first).toMatchObject({ by: { kind: 'agent', name: 'drafting bot' }, status: 'applied', run: null, revertedBy: null });
    expect(first.sections).toEqual([{ anchor: one, title: 'One', inserted: 1, deleted: 0 }]);
    expect(list[4].by).toEqual({ kind: 'human', name: alice.username });
    expect(list[4].sections[0]).toMatchObject({ anchor: two, title: 'Two', inserted: 0, deleted: 3 });
    expect(list[3].notes).toEqual([{ id: expect.any(String), title: 'A source' }]);
    expect(list[3].sections).toEqual([]);
  });

  it('a reason over 500 characters (body or header) or a bad run is 400, and nothing is written', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Bad', markdown: '# A\n\nText.' });
    const base = `/api/articles/${article.id}`;
    const long = 'x'.repeat(501);
    expectFailure(await agent.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '# A\n\nOther.', reason: long }), 400, 'invalid-argument');
    expectFailure(await app.http.post(`${base}/edits`).set('Authorization', `Bearer ${alice.jwt}`).set('Quire-Reason', long).send({ ops: [{ op: 'delete', section: outline[0].anchor }] }), 400, 'invalid-argument');
    expectFailure(await app.http.post(`${base}/notes`).set('Authorization', `Bearer ${alice.jwt}`).set('Quire-Run', 'r'.repeat(101)).send({ kind: 'idea', title: 'I' }), 400, 'invalid-argument');
    expectFailure(await agent.patch(`${base}/brief`, { premise: 'P', reason: 42 }), 400, 'invalid-argument');
    expect((await changes(base)).changes).toEqual([]);
    expect(await sectionText(base, outline[0].anchor)).toBe('# A\n\nText.');
    // 500 exactly is fine.
    expect((await agent.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '# A\n\nOther.', reason: 'y'.repeat(500) })).status).toBe(200);
  });

  it('Quire-Run groups change sets: listed by ?run=, filters by kind, section, since, and pages with a cursor', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Runs', markdown: '# A\n\nAlpha.\n\n# B\n\nBeta.' });
    const base = `/api/articles/${article.id}`;
    const [a, b] = outline.map((e) => e.anchor);
    for (let i = 1; i <= 3; i += 1) {
      const res = await app.http
        .patch(`${base}/sections/${a}`)
        .set('Authorization', (await agentAuth()))
        .set('Quire-Run', 'run-1')
        .send({ markdown: `# A\n\nAlpha ${i}.` });
      expect(res.status).toBe(200);
    }
    expect((await person.patch(`${base}/sections/${b}`, { markdown: '# B\n\nBeta by hand.' })).status).toBe(200);
    const all = await changes(base);
    expect(all.changes).toHaveLength(4);
    expect((await changes(base, '?run=run-1')).changes.map((c) => c.run)).toEqual(['run-1', 'run-1', 'run-1']);
    expect((await changes(base, '?by=human')).changes).toHaveLength(1);
    expect((await changes(base, `?section=${b}`)).changes.map((c) => c.id)).toEqual([all.changes[0].id]);
    expect((await changes(base, `?since=${all.changes[2].anchor}`)).changes.map((c) => c.id)).toEqual([all.changes[0].id, all.changes[1].id]);
    expect((await changes(base, '?since=2000-01-01T00:00:00Z')).changes).toHaveLength(4);
    const page1 = await changes(base, '?limit=3');
    expect(page1.changes).toHaveLength(3);
    const page2 = await changes(base, `?limit=3&cursor=${page1.nextCursor}`);
    expect(page2.changes.map((c) => c.id)).toEqual([all.changes[3].id]);
    expect(page2.nextCursor).toBeNull();
    expectFailure(await agent.get(`${base}/changes?cursor=zzz`), 400, 'invalid-argument');
    expectFailure(await agent.get(`${base}/changes?by=robot`), 400, 'invalid-argument');
  });
});

let agentSecret = '';
async function agentAuth() {
  if (!agentSecret) agentSecret = await createKey(app, alice, 'run bot');
  return `Bearer ${agentSecret}`;
}

describe('one change set with its word-level diff', () => {
  it('= and - give the text before, = and + the text after', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Diff', markdown: '# Title\n\nThe quick brown fox jumps.' });
    const base = `/api/articles/${article.id}`;
    const res = await agent.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '# Title\n\nThe slow brown fox  jumps high.' });
    const got = await agent.get(`${base}/changes/${res.body.data.changeSet.anchor}`);
    expect(got.status).toBe(200);
    const [section] = got.body.data.change.sections;
    expect(joined(section.diff, '-')).toBe('# Title\n\nThe quick brown fox jumps.');
    expect(joined(section.diff, '+')).toBe('# Title\n\nThe slow brown fox  jumps high.');
    expect(section.diff).toEqual(expect.arrayContaining([{ op: '-', text: 'quick' }, { op: '+', text: 'slow' }]));
    expect(section).toMatchObject({ inserted: 2, deleted: 1 });
    expectFailure(await agent.get(`${base}/changes/ffffffff`), 404, 'not-found');
    expectFailure(await stranger.get(`${base}/changes/${res.body.data.changeSet.anchor}`), 404, 'not-found');
  });
});

describe('revert', () => {
  it('undoes an agent\'s change after a person typed elsewhere in the same section, keeping the person\'s text', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Undo', markdown: '# Notes\n\nOne two three.\n\nFour five six.' });
    const base = `/api/articles/${article.id}`;
    const sid = outline[0].anchor;
    const byAgent = await agent.patch(`${base}/sections/${sid}`, { markdown: '# Notes\n\nOne two three, said the agent.\n\nFour five six.' });
    expect((await person.patch(`${base}/sections/${sid}`, { markdown: '# Notes\n\nOne two three, said the agent.\n\nFour five six seven.' })).status).toBe(200);
    const anchor = byAgent.body.data.changeSet.anchor;

    const dry = await agent.post(`${base}/changes/${anchor}/revert`, { dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ change: null, reverted: [anchor], conflicts: [] });
    expect(await sectionText(base, sid)).toBe('# Notes\n\nOne two three, said the agent.\n\nFour five six seven.');

    const res = await person.post(`${base}/changes/${anchor}/revert`, { reason: 'the agent was wrong' });
    expect(res.status).toBe(200);
    expect(res.body.data.reverted).toEqual([anchor]);
    expect(res.body.data.conflicts).toEqual([]);
    expect(res.body.data.change).toMatchObject({ by: { kind: 'human' }, reason: 'the agent was wrong', status: 'applied' });
    expect(res.body.data.changeSet.id).toBe(res.body.data.change.id);
    expect(await sectionText(base, sid)).toBe('# Notes\n\nOne two three.\n\nFour five six seven.');
    const reverted = (await agent.get(`${base}/changes/${anchor}`)).body.data.change;
    expect(reverted).toMatchObject({ status: 'reverted', revertedBy: res.body.data.change.id });
    // Again: 409, nothing written.
    expectFailure(await person.post(`${base}/changes/${anchor}/revert`, {}), 409, 'conflict');
    expect(await sectionText(base, sid)).toBe('# Notes\n\nOne two three.\n\nFour five six seven.');
  });

  it('lists a passage rewritten since as a conflict and reverts the rest; 409 when every passage changed', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Conflicts', markdown: '# S\n\nAlpha beta gamma.\n\nDelta epsilon zeta.' });
    const base = `/api/articles/${article.id}`;
    const sid = outline[0].anchor;
    const byAgent = await agent.patch(`${base}/sections/${sid}`, { markdown: '# S\n\nAlpha BETA gamma.\n\nDelta EPSILON zeta.' });
    await person.patch(`${base}/sections/${sid}`, { markdown: '# S\n\nAlpha Bêta! gamma.\n\nDelta EPSILON zeta.' });
    const anchor = byAgent.body.data.changeSet.anchor;
    const res = await person.post(`${base}/changes/${anchor}/revert`, {});
    expect(res.status).toBe(200);
    expect(res.body.data.reverted).toEqual([anchor]);
    expect(res.body.data.conflicts).toEqual([{ section: sid, text: 'BETA', reason: expect.stringContaining('changed since') }]);
    expect(await sectionText(base, sid)).toBe('# S\n\nAlpha Bêta! gamma.\n\nDelta epsilon zeta.');

    // Every passage changed since: 409 with the conflicts, nothing written.
    const second = await agent.patch(`${base}/sections/${sid}`, { markdown: '# S\n\nAlpha Bêta! gamma.\n\nDelta epsilon omega.' });
    await person.patch(`${base}/sections/${sid}`, { markdown: '# S\n\nAlpha Bêta! gamma.\n\nDelta epsilon OMEGA.' });
    const refused = expectFailure(await person.post(`${base}/changes/${second.body.data.changeSet.anchor}/revert`, {}), 409, 'conflict');
    expect(refused.message).toContain('omega');
    expect(await sectionText(base, sid)).toBe('# S\n\nAlpha Bêta! gamma.\n\nDelta epsilon OMEGA.');
  });

  it('reverts inserted sections (deleted) and deleted ones (put back); a run as one revert', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Structure', markdown: '# Keep\n\nKept.\n\n# Doomed\n\nDoomed text.' });
    const base = `/api/articles/${article.id}`;
    const runAuth = await agentAuth();
    const send = (method: 'post' | 'delete', path: string, body?: unknown) => app.http[method](`${base}${path}`).set('Authorization', runAuth).set('Quire-Run', 'structure-run').send(body as object);
    expect((await send('post', '/sections', { markdown: '# Added\n\nNew text.' })).status).toBe(201);
    expect((await send('delete', `/sections/${outline[1].anchor}`)).status).toBe(200);
    expect((await agent.get(`${base}/outline`)).body.data.outline.map((e) => e.title)).toEqual(['Keep', 'Added']);
    const dry = await agent.post(`${base}/changes/revert`, { run: 'structure-run', dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data.reverted).toHaveLength(2);
    const res = await agent.post(`${base}/changes/revert`, { run: 'structure-run', reason: 'undo the run' });
    expect(res.status).toBe(200);
    expect(res.body.data.reverted).toHaveLength(2);
    expect((await agent.get(`${base}/outline`)).body.data.outline.map((e) => e.title)).toEqual(['Keep', 'Doomed']);
    expectFailure(await agent.post(`${base}/changes/revert`, { run: 'structure-run' }), 404, 'not-found');
    expectFailure(await agent.post(`${base}/changes/revert`, {}), 400, 'invalid-argument');
  });

  it('a read key gets 403, a suggest key files a suggestion (202), another user\'s article is 404', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Scopes', markdown: '# S\n\nOriginal words.' });
    const base = `/api/articles/${article.id}`;
    const change = (await agent.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '# S\n\nChanged words.' })).body.data.changeSet;
    expectFailure(await reader.post(`${base}/changes/${change.anchor}/revert`, {}), 403, 'permission-denied');
    expect((await reader.get(`${base}/changes`)).status).toBe(200);
    expectFailure(await stranger.post(`${base}/changes/${change.anchor}/revert`, {}), 404, 'not-found');
    const suggested = await suggester.post(`${base}/changes/${change.anchor}/revert`, {});
    expect(suggested.status).toBe(202);
    expect(suggested.body.data.suggestion.status).toBe('pending');
    expect(suggested.body.data.changeSet.id).toBe(suggested.body.data.suggestion.id);
    expect(await sectionText(base, outline[0].anchor)).toBe('# S\n\nChanged words.');
    expect((await agent.get(`${base}/changes/${change.anchor}`)).body.data.change.status).toBe('applied');
  });
});

describe('suggestions are pending change sets', () => {
  it('pending when made, accepted with what it did, rejected', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Suggest', markdown: '# S\n\nPlain words.' });
    const base = `/api/articles/${article.id}`;
    const made = await suggester.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '# S\n\nBetter words.', reason: 'clearer' });
    expect(made.status).toBe(202);
    const ref = made.body.data.changeSet;
    expect(ref.id).toBe(made.body.data.suggestion.id);
    const pending = (await agent.get(`${base}/changes/${ref.anchor}`)).body.data.change;
    expect(pending).toMatchObject({ status: 'pending', reason: 'clearer', by: { kind: 'agent', name: 'suggest bot' } });
    expect(pending.sections[0]).toMatchObject({ anchor: outline[0].anchor, inserted: 1, deleted: 1 });
    const accepted = await person.post(`${base}/suggestions/${made.body.data.suggestion.anchor}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.changeSet.id).toBe(ref.id);
    expect((await agent.get(`${base}/changes/${ref.anchor}`)).body.data.change.status).toBe('accepted');

    const other = await suggester.post(`${base}/sections`, { markdown: '# New\n\nProposed.' });
    const rejected = await person.post(`${base}/suggestions/${other.body.data.suggestion.anchor}/reject`, { reason: 'no' });
    expect(rejected.status).toBe(200);
    expect((await agent.get(`${base}/changes/${other.body.data.changeSet.anchor}`)).body.data.change.status).toBe('rejected');
    expect((await changes(base, '?by=agent')).changes.map((c) => c.status)).toEqual(['rejected', 'accepted']);
  });
});

describe('who wrote what', () => {
  it('spans join to the section\'s text; the article\'s words by kind and by name', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Authors', markdown: '# Heading\n\nStart.' });
    const base = `/api/articles/${article.id}`;
    const sid = outline[0].anchor;
    await agent.patch(`${base}/sections/${sid}`, { markdown: '# Heading\n\nStart. The agent wrote this.' });
    await person.patch(`${base}/sections/${sid}`, { markdown: '# Heading\n\nStart. The agent wrote this. A person added that.' });
    const res = await agent.get(`${base}/sections/${sid}/authors`);
    expect(res.status).toBe(200);
    const spans = res.body.data.spans;
    expect(spans.map((s) => s.text).join('')).toBe(await sectionText(base, sid));
    expect(spans.find((s) => s.text.includes('agent wrote'))?.by).toEqual({ kind: 'agent', name: 'drafting bot' });
    expect(spans.find((s) => s.text.includes('person added'))?.by).toEqual({ kind: 'human', name: alice.username });
    expect(spans[0]).toMatchObject({ by: null, change: null });
    const authorship = (await agent.get(`${base}/authorship`)).body.data;
    expect(authorship.words).toEqual({ agent: 4, human: 4, editor: 0 });
    expect(authorship.byName).toHaveLength(2);
    expect(authorship.byName).toEqual(
      expect.arrayContaining([
        { name: 'drafting bot', kind: 'agent', words: 4 },
        { name: alice.username, kind: 'human', words: 4 },
      ]),
    );
    expectFailure(await agent.get(`${base}/sections/ffffffff/authors`), 404, 'not-found');
  });
});

describe('events out', () => {
  it('change.applied, change.reverted, suggestion.created and suggestion.decided are webhook events with the change set', async () => {
    const store = app.strapi.get('webhookStore');
    expect([...store.allowedEvents.values()]).toEqual(expect.arrayContaining(['change.applied', 'change.reverted', 'suggestion.created', 'suggestion.decided']));
    const seen: Array<{ event: string; payload: any }> = [];
    const listeners = ['change.applied', 'change.reverted', 'suggestion.created', 'suggestion.decided'].map((event) => {
      const fn = (payload: unknown) => seen.push({ event, payload });
      app.strapi.eventHub.on(event, fn);
      return () => app.strapi.eventHub.off(event, fn);
    });
    try {
      const { article, outline } = await newArticle(agent, { title: 'Events', markdown: '# S\n\nWords here.' });
      const base = `/api/articles/${article.id}`;
      const change = (await agent.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '# S\n\nOther words here.' })).body.data.changeSet;
      await agent.post(`${base}/changes/${change.anchor}/revert`, {});
      const suggestion = (await suggester.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '# S\n\nSuggested.' })).body.data.suggestion;
      await person.post(`${base}/suggestions/${suggestion.anchor}/reject`, {});
      const deadline = Date.now() + 10_000;
      while (seen.length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const names = seen.map((s) => s.event);
      expect(names).toEqual(expect.arrayContaining(['change.applied', 'change.reverted', 'suggestion.created', 'suggestion.decided']));
      const applied = seen.find((s) => s.event === 'change.applied' && s.payload.changeSet.id === change.id)!;
      expect(applied.payload).toMatchObject({ article: { id: article.id }, changeSet: { id: change.id, by: { kind: 'agent' } } });
    } finally {
      for (const off of listeners) off();
    }
  });
});

describe('a suggestion accepted per section', () => {
  it('applies the ops of those sections; the rest stays pending', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Per section', markdown: '# A\n\nAlpha.\n\n# B\n\nBeta.' });
    const base = `/api/articles/${article.id}`;
    const [a, b] = outline.map((e) => e.anchor);
    const made = await suggester.post(`${base}/edits`, {
      ops: [
        { op: 'replace', section: a, markdown: '# A\n\nAlpha, better.' },
        { op: 'replace', section: b, markdown: '# B\n\nBeta, better.' },
      ],
    });
    expect(made.status).toBe(202);
    const suggestion = made.body.data.suggestion;
    expect((await agent.get(`${base}/changes/${made.body.data.changeSet.anchor}`)).body.data.change.sections.map((s) => s.anchor)).toEqual([a, b]);
    expectFailure(await person.post(`${base}/suggestions/${suggestion.anchor}/accept`, { sections: ['ffffffff'] }), 404, 'not-found');
    const res = await person.post(`${base}/suggestions/${suggestion.anchor}/accept`, { sections: [a] });
    expect(res.status).toBe(200);
    expect(res.body.data.suggestion.status).toBe('pending');
    expect(res.body.data.suggestion.ops).toEqual([{ op: 'replace', section: b, markdown: '# B\n\nBeta, better.' }]);
    expect(await sectionText(base, a)).toBe('# A\n\nAlpha, better.');
    expect(await sectionText(base, b)).toBe('# B\n\nBeta.');
    const accepted = (await agent.get(`${base}/changes/${res.body.data.changeSet.anchor}`)).body.data.change;
    expect(accepted).toMatchObject({ status: 'accepted', by: { kind: 'agent', name: 'suggest bot' } });
    expect(accepted.sections.map((s) => s.anchor)).toEqual([a]);
    expect((await agent.get(`${base}/changes/${made.body.data.changeSet.anchor}`)).body.data.change).toMatchObject({ status: 'pending', sections: [expect.objectContaining({ anchor: b })] });
    // The rest, accepted whole.
    const rest = await person.post(`${base}/suggestions/${suggestion.anchor}/accept`, {});
    expect(rest.status).toBe(200);
    expect(rest.body.data.suggestion.status).toBe('accepted');
    expect(await sectionText(base, b)).toBe('# B\n\nBeta, better.');
    expect((await agent.get(`${base}/changes/${made.body.data.changeSet.anchor}`)).body.data.change.status).toBe('accepted');
  });
});

describe('a suggestion rejected per section', () => {
  it('rejects the ops of those sections with the reason; the rest stays pending; bad sections are named, nothing written', async () => {
    const { article, outline } = await newArticle(agent, { title: 'Reject per section', markdown: '# A\n\nAlpha.\n\n# B\n\nBeta.\n\n# C\n\nGamma.' });
    const base = `/api/articles/${article.id}`;
    const [a, b, c] = outline.map((e) => e.anchor);
    const made = await suggester.post(`${base}/edits`, {
      ops: [
        { op: 'replace', section: a, markdown: '# A\n\nAlpha, worse.' },
        { op: 'replace', section: b, markdown: '# B\n\nBeta, better.' },
      ],
      reason: 'Tighten the prose',
    });
    expect(made.status).toBe(202);
    const suggestion = made.body.data.suggestion;
    const pendingAnchor = made.body.data.changeSet.anchor;
    const before = (await agent.get(`${base}/changes`)).body.data.changes.length;
    // An unknown anchor, and a section the suggestion does not change: 400 naming it, nothing written.
    const unknown = expectFailure(await person.post(`${base}/suggestions/${suggestion.anchor}/reject`, { sections: ['ffffffff'], reason: 'No' }), 400, 'invalid-argument');
    expect(unknown.message).toContain('ffffffff');
    const outside = expectFailure(await person.post(`${base}/suggestions/${suggestion.anchor}/reject`, { sections: [a, c] }), 400, 'invalid-argument');
    expect(outside.message).toContain(c);
    expectFailure(await person.post(`${base}/suggestions/${suggestion.anchor}/reject`, { sections: [] }), 400, 'invalid-argument');
    expect((await agent.get(`${base}/suggestions/${suggestion.anchor}`)).body.data.suggestion.ops).toHaveLength(2);
    expect((await agent.get(`${base}/changes`)).body.data.changes.length).toBe(before);

    const res = await person.post(`${base}/suggestions/${suggestion.anchor}/reject`, { sections: [a], reason: 'A reads better as it is' });
    expect(res.status).toBe(200);
    expect(res.body.data.suggestion.status).toBe('pending');
    expect(res.body.data.suggestion.ops).toEqual([{ op: 'replace', section: b, markdown: '# B\n\nBeta, better.' }]);
    expect(await sectionText(base, a)).toBe('# A\n\nAlpha.');
    // The rejected part: a change set of its own, the author's, with the reviewer's reason and its diff.
    const part = (await agent.get(`${base}/changes/${res.body.data.changeSet.anchor}`)).body.data.change;
    expect(part).toMatchObject({ status: 'rejected', by: { kind: 'agent', name: 'suggest bot' }, reason: 'A reads better as it is' });
    expect(part.sections.map((s) => s.anchor)).toEqual([a]);
    expect(part.sections[0].diff).toEqual(expect.arrayContaining([expect.objectContaining({ op: '+' })]));
    expect((await agent.get(`${base}/changes/${pendingAnchor}`)).body.data.change).toMatchObject({ status: 'pending', reason: 'Tighten the prose', sections: [expect.objectContaining({ anchor: b })] });
    // A rejected section is no longer in it: naming it again is an error.
    expectFailure(await person.post(`${base}/suggestions/${suggestion.anchor}/reject`, { sections: [a] }), 400, 'invalid-argument');
    // The rest, accepted whole.
    const rest = await person.post(`${base}/suggestions/${suggestion.anchor}/accept`, {});
    expect(rest.status).toBe(200);
    expect(rest.body.data.suggestion.status).toBe('accepted');
    expect(await sectionText(base, b)).toBe('# B\n\nBeta, better.');
    expect(await sectionText(base, a)).toBe('# A\n\nAlpha.');
  });
});
