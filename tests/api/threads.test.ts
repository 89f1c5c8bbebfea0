/**
 * CONTRACT 24, threads: comments anchored to quoted text that follow it through every section
 * write (an agent's replace, a person's html PATCH), detached when the text is deleted; replies,
 * resolve, reopen; scopes; owner scoping; bad input; events; mentions that start a skill and
 * post its reply, without loops, even when the process waiting for it stopped meanwhile.
 */
import { ActionError } from '../../src/plugins/triggers/server/src/domain/action-error';
import { client, newArticle, type Client } from '../helpers/articles';
import { startServer, type TestServer } from '../helpers/servers';
import { createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { createWorkflow, setup } from '../helpers/triggers';
import { waitFor } from '../helpers/wait';

let app: TestApp;
let alice: TestUser;
let person: Client;
let agent: Client;
let suggester: Client;
let reader: Client;
let bob: Client;
let target: TestServer;
const hits: Array<{ path: string; body: string }> = [];
const emitted: Array<{ event: string; payload: any }> = [];

beforeAll(async () => {
  target = await startServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ path: req.url!, body });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ reply: 'From the fixture: see page 4.' }));
    });
  });
  app = await startApp({ HTTP_ACTION_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${target.port}` });
  alice = await registerUser(app, 'alice');
  person = client(app, alice.jwt);
  agent = client(app, await createKey(app, alice, 'research bot'));
  suggester = client(app, await createKey(app, alice, 'reviewer', 'suggest'));
  reader = client(app, await createKey(app, alice, 'reader', 'read'));
  bob = client(app, (await registerUser(app, 'bob')).jwt);
  for (const event of ['thread.created', 'comment.created', 'thread.resolved']) {
    app.strapi.eventHub.on(event, (payload: unknown) => emitted.push({ event, payload }));
  }
}, 180_000);
afterAll(async () => {
  await app?.close();
  await target?.close();
});

const settled = () => app.strapi.plugin('quire').service('threads').settled();

/** Waits (with a deadline, no fixed sleep) until an event was emitted on Strapi's event hub. */
async function emittedWhere(test: (e: { event: string; payload: any }) => boolean): Promise<boolean> {
  await app.strapi.plugin('quire').service('events').settled();
  const deadline = Date.now() + 10_000;
  while (!emitted.some(test) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return emitted.some(test);
}

async function article(markdown = '## Intro\n\nThe quick brown fox jumps over the lazy dog.\n\n## Second\n\nAnother brown fox here.') {
  const { article, outline } = await newArticle(agent, { title: 'Threads', markdown });
  return { id: article.id, base: `/api/articles/${article.id}`, sections: outline.map((e) => e.anchor) };
}

async function thread(base: string, anchor: string) {
  const res = await person.get(`${base}/threads/${anchor}`);
  expect(res.status).toBe(200);
  return res.body.data.thread;
}

describe('a thread on quoted text', () => {
  it('is created on a quote of the section\'s reader text, with its first comment rendered and sanitised', async () => {
    const { base, sections } = await article();
    const res = await agent.post(`${base}/threads`, { section: sections[0], quote: 'brown fox', body: 'Source? <script>alert(1)</script><b onclick="x()">really</b> **sure**' });
    expect(res.status).toBe(201);
    const t = res.body.data.thread;
    expect(Object.keys(t).sort()).toEqual(['anchor', 'by', 'comments', 'createdAt', 'detached', 'end', 'id', 'quote', 'resolvedAt', 'resolvedBy', 'section', 'start', 'status']);
    expect(t).toMatchObject({ section: sections[0], quote: 'brown fox', status: 'open', detached: false, by: { kind: 'agent', name: 'research bot' } });
    // The reader text is "Intro\n\nThe quick brown fox...": the heading is part of it.
    expect(t.start).toBe('Intro\n\nThe quick '.length);
    expect(t.end - t.start).toBe('brown fox'.length);
    const [first] = t.comments;
    expect(first.body).toContain('<script>');
    expect(first.html).not.toMatch(/<script|onclick|alert\(1\)<\/script>/);
    expect(first.html).toContain('<strong>sure</strong>');
    expect(first.executions).toEqual([]);
    expect(await emittedWhere((e) => e.event === 'thread.created' && e.payload.thread.id === t.id)).toBe(true);
    // An operator can pick them for a webhook (Settings > Webhooks).
    const store = app.strapi.get('webhookStore');
    expect(['THREAD_CREATED', 'COMMENT_CREATED', 'THREAD_RESOLVED'].map((key) => store.getAllowedEvent(key))).toEqual(['thread.created', 'comment.created', 'thread.resolved']);
  });

  it('takes the occurrence-th quote, and refuses a quote the section does not have (400 naming it)', async () => {
    const { base, sections } = await article('## One\n\nred, red and red.');
    const second = await person.post(`${base}/threads`, { section: sections[0], quote: 'red', body: 'b', occurrence: 2 });
    expect(second.status).toBe(201);
    expect(second.body.data.thread.start).toBe('One\n\nred, '.length);
    const missing = expectFailure(await person.post(`${base}/threads`, { section: sections[0], quote: 'blue', body: 'b' }), 400, 'invalid-argument');
    expect(missing.message).toContain(`section ${sections[0]}`);
    const tooFew = expectFailure(await person.post(`${base}/threads`, { section: sections[0], quote: 'red', body: 'b', occurrence: 4 }), 400, 'invalid-argument');
    expect(tooFew.message).toContain(sections[0]);
    // Markdown syntax is not reader text.
    expectFailure(await person.post(`${base}/threads`, { section: sections[0], quote: '## One', body: 'b' }), 400, 'invalid-argument');
  });

  it('refuses an empty or 10,001-character body, an empty or 501-character quote, and takes 10,000', async () => {
    const { base, sections } = await article();
    const post = (body: unknown) => person.post(`${base}/threads`, body);
    expectFailure(await post({ section: sections[0], quote: 'fox', body: '' }), 400, 'invalid-argument');
    expectFailure(await post({ section: sections[0], quote: 'fox', body: '   ' }), 400, 'invalid-argument');
    expect(expectFailure(await post({ section: sections[0], quote: 'fox', body: 'x'.repeat(10_001) }), 400, 'invalid-argument').message).toMatch(/^body/);
    expectFailure(await post({ section: sections[0], quote: '', body: 'b' }), 400, 'invalid-argument');
    expectFailure(await post({ section: sections[0], quote: 'x'.repeat(501), body: 'b' }), 400, 'invalid-argument');
    expect((await post({ section: sections[0], quote: 'fox', body: 'x'.repeat(10_000) })).status).toBe(201);
    const t = (await post({ section: sections[0], quote: 'fox', body: 'ok' })).body.data.thread;
    expectFailure(await person.post(`${base}/threads/${t.anchor}/comments`, { body: '' }), 400, 'invalid-argument');
    expectFailure(await person.post(`${base}/threads/${t.anchor}/comments`, { body: 'y'.repeat(10_001) }), 400, 'invalid-argument');
    expectFailure(await person.post(`${base}/threads/${t.anchor}/comments`, { body: 'ok', extra: 1 }), 400, 'invalid-argument');
  });
});

describe('the anchor follows its text', () => {
  it('survives an agent\'s replace that keeps the quoted words, and a person\'s typing around them (html PATCH)', async () => {
    const { base, sections } = await article();
    const t = (await agent.post(`${base}/threads`, { section: sections[0], quote: 'brown fox', body: 'Which fox?' })).body.data.thread;
    const other = (await agent.post(`${base}/threads`, { section: sections[1], quote: 'Another', body: 'Hm' })).body.data.thread;

    expect((await agent.patch(`${base}/sections/${sections[0]}`, { markdown: '## Intro\n\nToday the very quick brown fox leaps over the lazy dog.' })).status).toBe(200);
    let now = await thread(base, t.anchor);
    expect(now).toMatchObject({ quote: 'brown fox', detached: false, section: sections[0] });
    expect(now.start).toBe('Intro\n\nToday the very quick '.length);

    // A person's typing before, after and around the words (the canvas stores typing as html).
    const html = '<h2>Intro</h2><p>Yesterday, said Ann, the very quick <em>brown fox</em> leaped over a sleeping dog.</p>';
    expect((await person.patch(`${base}/sections/${sections[0]}`, { html })).status).toBe(200);
    now = await thread(base, t.anchor);
    expect(now).toMatchObject({ quote: 'brown fox', detached: false });
    expect(now.start).toBe('Intro\n\nYesterday, said Ann, the very quick '.length);

    // Typing inside the quote widens it.
    expect((await person.patch(`${base}/sections/${sections[0]}`, { html: html.replace('brown fox', 'brown sly fox') })).status).toBe(200);
    now = await thread(base, t.anchor);
    expect(now).toMatchObject({ quote: 'brown sly fox', detached: false });

    // The other section's thread was not touched.
    expect(await thread(base, other.anchor)).toMatchObject({ quote: 'Another', start: other.start, detached: false });
  });

  it('is detached (and kept) when all of its text is deleted, or its section is', async () => {
    const { base, sections } = await article();
    const t = (await agent.post(`${base}/threads`, { section: sections[0], quote: 'lazy dog', body: 'x' })).body.data.thread;
    const u = (await agent.post(`${base}/threads`, { section: sections[1], quote: 'brown fox', body: 'y' })).body.data.thread;
    expect((await agent.post(`${base}/edits`, { ops: [{ op: 'replaceText', find: ' over the lazy dog', replace: '', section: sections[0] }] })).status).toBe(200);
    expect(await thread(base, t.anchor)).toMatchObject({ quote: 'lazy dog', detached: true, status: 'open' });
    expect((await agent.del(`${base}/sections/${sections[1]}`)).status).toBe(200);
    expect(await thread(base, u.anchor)).toMatchObject({ quote: 'brown fox', detached: true });
    const listed = (await person.get(`${base}/threads`)).body.data.threads;
    expect(listed.map((x: { id: string }) => x.id)).toEqual([t.id, u.id]);
    // The section back from the trash takes its thread back; the deleted words do not come back.
    expect((await agent.post(`${base}/trash/${sections[1]}/restore`, {})).status).toBe(200);
    expect(await thread(base, u.anchor)).toMatchObject({ quote: 'brown fox', detached: false, section: sections[1], start: 'Second\n\nAnother '.length });
    expect(await thread(base, t.anchor)).toMatchObject({ detached: true });
  });

  it('follows its words into the new section when a heading is written into its section', async () => {
    const { base, sections } = await article('## Intro\n\nFirst part.\n\nSecond part with the quoted words.');
    const t = (await agent.post(`${base}/threads`, { section: sections[0], quote: 'quoted words', body: 'x' })).body.data.thread;
    const res = await agent.patch(`${base}/sections/${sections[0]}`, { markdown: '## Intro\n\nFirst part.\n\n## Split\n\nSecond part with the quoted words.' });
    expect(res.status).toBe(200);
    const outline = (await agent.get(`${base}/outline`)).body.data.outline;
    expect(outline).toHaveLength(2);
    expect(await thread(base, t.anchor)).toMatchObject({ quote: 'quoted words', detached: false, section: outline[1].anchor, start: 'Split\n\nSecond part with the '.length });
  });
});

it('a Strapi webhook that picked thread.resolved receives the thread', async () => {
  const webhook = await app.strapi.get('webhookStore').createWebhook({ name: 'threads', url: `${target.origin}/hook`, headers: {}, events: ['thread.resolved'], isEnabled: true });
  app.strapi.get('webhookRunner').add(webhook);
  const { id, base, sections } = await article();
  const t = (await person.post(`${base}/threads`, { section: sections[0], quote: 'fox', body: 'x' })).body.data.thread;
  expect((await person.post(`${base}/threads/${t.anchor}/resolve`)).status).toBe(200);
  await app.strapi.plugin('quire').service('events').settled();
  const deadline = Date.now() + 20_000;
  while (!hits.some((h) => h.path === '/hook') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const delivered = hits.filter((h) => h.path === '/hook').map((h) => JSON.parse(h.body));
  expect(delivered).toHaveLength(1);
  expect(delivered[0]).toMatchObject({ event: 'thread.resolved', article: { id }, thread: { id: t.id, status: 'resolved' } });
  app.strapi.get('webhookRunner').remove(webhook);
});

describe('replies, resolve, reopen, listing', () => {
  it('lists in outline order then time, filters by status and section, resolves and reopens', async () => {
    const { base, sections } = await article();
    const late = (await person.post(`${base}/threads`, { section: sections[1], quote: 'Another', body: 'a' })).body.data.thread;
    const early = (await person.post(`${base}/threads`, { section: sections[0], quote: 'quick', body: 'b' })).body.data.thread;
    const third = (await person.post(`${base}/threads`, { section: sections[0], quote: 'dog', body: 'c' })).body.data.thread;
    const ids = (res: { body: any }) => res.body.data.threads.map((x: { id: string }) => x.id);
    expect(ids(await reader.get(`${base}/threads`))).toEqual([early.id, third.id, late.id]);
    expect(ids(await reader.get(`${base}/threads?section=${sections[1]}`))).toEqual([late.id]);

    const reply = await agent.post(`${base}/threads/${early.anchor}/comments`, { body: 'Answered: see *the source*.' });
    expect(reply.status).toBe(201);
    expect(reply.body.data.comment).toMatchObject({ body: 'Answered: see *the source*.', by: { kind: 'agent', name: 'research bot' }, executions: [] });
    expect(reply.body.data.comment.html).toContain('<em>the source</em>');
    expect((await thread(base, early.anchor)).comments.map((c: { body: string }) => c.body)).toEqual(['b', 'Answered: see *the source*.']);
    expect(await emittedWhere((e) => e.event === 'comment.created' && e.payload.comment?.id === reply.body.data.comment.id)).toBe(true);

    const resolved = await person.post(`${base}/threads/${early.anchor}/resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.thread).toMatchObject({ status: 'resolved', resolvedBy: { kind: 'human', name: alice.username } });
    expect(await emittedWhere((e) => e.event === 'thread.resolved' && e.payload.thread.id === early.id)).toBe(true);
    expect(ids(await reader.get(`${base}/threads?status=open`))).toEqual([third.id, late.id]);
    expect(ids(await reader.get(`${base}/threads?status=resolved`))).toEqual([early.id]);
    expectFailure(await reader.get(`${base}/threads?status=maybe`), 400, 'invalid-argument');

    const reopened = await agent.post(`${base}/threads/${early.anchor}/reopen`);
    expect(reopened.body.data.thread).toMatchObject({ status: 'open', resolvedAt: null, resolvedBy: null });
    expectFailure(await reader.get(`${base}/threads/ffffffff`), 404, 'not-found');
  });
});

describe('scopes and owners', () => {
  it('write and suggest credentials comment, read ones only read; another user gets 404', async () => {
    const { base, sections } = await article();
    const bySuggester = await suggester.post(`${base}/threads`, { section: sections[0], quote: 'fox', body: 'Reviewer here.' });
    expect(bySuggester.status).toBe(201);
    const a = bySuggester.body.data.thread.anchor;
    expect((await suggester.post(`${base}/threads/${a}/comments`, { body: 'More.' })).status).toBe(201);
    expect((await suggester.post(`${base}/threads/${a}/resolve`)).status).toBe(200);
    // Nothing was filed as a suggestion.
    expect((await person.get(`${base}/suggestions`)).body.data.suggestions).toEqual([]);

    expectFailure(await reader.post(`${base}/threads`, { section: sections[0], quote: 'fox', body: 'no' }), 403, 'permission-denied');
    expectFailure(await reader.post(`${base}/threads/${a}/comments`, { body: 'no' }), 403, 'permission-denied');
    expectFailure(await reader.post(`${base}/threads/${a}/reopen`), 403, 'permission-denied');
    expect((await reader.get(`${base}/threads/${a}`)).status).toBe(200);

    expectFailure(await bob.get(`${base}/threads`), 404, 'not-found');
    expectFailure(await bob.get(`${base}/threads/${a}`), 404, 'not-found');
    expectFailure(await bob.post(`${base}/threads`, { section: sections[0], quote: 'fox', body: 'x' }), 404, 'not-found');
    expectFailure(await bob.post(`${base}/threads/${a}/comments`, { body: 'x' }), 404, 'not-found');
    expectFailure(await bob.post(`${base}/threads/${a}/resolve`), 404, 'not-found');
  });
});

it('deleting the article deletes its threads and comments', async () => {
  const { id, base, sections } = await article();
  expect((await person.post(`${base}/threads`, { section: sections[0], quote: 'fox', body: 'x' })).status).toBe(201);
  const k = app.strapi.db.connection;
  const row = await k('quire_articles').where({ uuid: id }).first('id');
  expect(Number((await k('quire_threads').where({ article_id: row.id }).count({ n: '*' }).first())!.n)).toBe(1);
  expect((await agent.del(base)).status).toBe(200);
  expect(Number((await k('quire_threads').where({ article_id: row.id }).count({ n: '*' }).first())!.n)).toBe(0);
  expect(Number((await k('quire_thread_comments').where({ article_id: row.id }).count({ n: '*' }).first())!.n)).toBe(0);
});

describe('mentions start skills', () => {
  let answerCalls = 0;
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));

  beforeAll(async () => {
    const actions = app.strapi.plugin('triggers').service('actions');
    actions.register('test.answer', (input: any) => {
      answerCalls += 1;
      return { reply: `About "${input.quote}": it is on page 4. Ask @answer again if you like.`, seen: input };
    });
    actions.register('test.gated', async () => {
      await gate;
      return { reply: 'Late, but here.' };
    });
    actions.register('test.broken', () => {
      throw new ActionError('upstream-rejected', 'The upstream said no.');
    });
    const s = await setup(app, alice);
    await createWorkflow(app, alice, s.instanceId, { name: 'answer', action: 'test.answer' });
    await createWorkflow(app, alice, s.instanceId, { name: 'broken', action: 'test.broken' });
    await createWorkflow(app, alice, s.instanceId, { name: 'gated', action: 'test.gated' });
    await createWorkflow(app, alice, s.instanceId, { name: 'fetcher', action: 'http', config: { url: `${target.origin}/reply`, maxAttempts: 1 } });
  });

  it('a person\'s @skill runs it once with the thread as input and posts its reply; the reply mentioning it again starts nothing', async () => {
    const { id, base, sections } = await article();
    const res = await person.post(`${base}/threads`, { section: sections[0], quote: 'brown fox', body: '@answer where is this from?' });
    expect(res.status).toBe(201);
    const t = res.body.data.thread;
    const [link] = t.comments[0].executions;
    expect(link).toMatchObject({ skill: 'answer' });
    expect(link.id).toEqual(expect.any(String));
    await settled();
    const now = await thread(base, t.anchor);
    expect(now.comments).toHaveLength(2);
    expect(now.comments[0].executions).toEqual([{ id: link.id, skill: 'answer', status: 'success' }]);
    expect(now.comments[1]).toMatchObject({ by: { kind: 'agent', name: 'answer' }, executions: [] });
    expect(now.comments[1].body).toContain('About "brown fox": it is on page 4.');
    expect(answerCalls).toBe(1);
    // The input the skill got.
    const execution = await app.strapi.db.connection('triggers_executions').where({ document_id: link.id }).first('input');
    const input = typeof execution.input === 'string' ? JSON.parse(execution.input) : execution.input;
    expect(input).toEqual({ articleId: id, threadId: t.id, section: sections[0], quote: 'brown fox', comment: { body: '@answer where is this from?', by: { kind: 'human', name: alice.username } } });
  });

  it('agents\' comments never start skills; an unknown skill is said not found; a failure is said; an http answer\'s reply is posted', async () => {
    const { base, sections } = await article();
    const before = answerCalls;
    const byAgent = (await agent.post(`${base}/threads`, { section: sections[0], quote: 'fox', body: '@answer please' })).body.data.thread;
    await settled();
    expect(byAgent.comments[0].executions).toEqual([]);
    expect((await thread(base, byAgent.anchor)).comments).toHaveLength(1);
    expect(answerCalls).toBe(before);

    const unknown = (await person.post(`${base}/threads`, { section: sections[0], quote: 'dog', body: 'ping @nosuchskill' })).body.data.thread;
    expect(unknown.comments[0].executions).toEqual([{ id: null, skill: 'nosuchskill', status: 'not-found' }]);
    expect(unknown.comments[1]).toMatchObject({ by: { kind: 'agent', name: 'quire' } });
    expect(unknown.comments[1].body).toMatch(/nosuchskill.*not found|no skill/i);

    const broken = (await person.post(`${base}/threads`, { section: sections[0], quote: 'quick', body: '@broken go' })).body.data.thread;
    await settled();
    const failed = await thread(base, broken.anchor);
    expect(failed.comments[0].executions[0]).toMatchObject({ skill: 'broken', status: 'failed' });
    expect(failed.comments[1]).toMatchObject({ by: { kind: 'agent', name: 'broken' } });
    expect(failed.comments[1].body).toContain('The upstream said no.');

    const replyHits = () => hits.filter((h) => h.path === '/reply').length;
    const hitsBefore = replyHits();
    const fetched = (await person.post(`${base}/threads/${broken.anchor}/comments`, { body: 'and @fetcher?' })).body.data.comment;
    expect(fetched.executions).toEqual([expect.objectContaining({ skill: 'fetcher' })]);
    await settled();
    expect(replyHits()).toBe(hitsBefore + 1);
    const last = (await thread(base, broken.anchor)).comments.at(-1);
    expect(last).toMatchObject({ by: { kind: 'agent', name: 'fetcher' }, body: 'From the fixture: see page 4.' });
  });

  it('a thread takes at most 5 agent replies an hour', async () => {
    const { base, sections } = await article();
    const t = (await person.post(`${base}/threads`, { section: sections[0], quote: 'fox', body: '@answer 1' })).body.data.thread;
    for (let i = 2; i <= 7; i += 1) {
      await settled();
      await person.post(`${base}/threads/${t.anchor}/comments`, { body: `@answer ${i}` });
    }
    await settled();
    const comments = (await thread(base, t.anchor)).comments;
    expect(comments.filter((c: { by: { name: string } }) => c.by.name === 'answer')).toHaveLength(5);
    expect(comments.at(-1).executions).toEqual([{ id: null, skill: 'answer', status: 'limited' }]);
  });

  it('a reply the waiting process did not see (it stopped) is posted by the next one, once; a wait another process holds is left to it until its lease expires', async () => {
    const threads = app.strapi.plugin('quire').service('threads');
    const k = app.strapi.db.connection;
    const { base, sections } = await article();
    const t = (await person.post(`${base}/threads`, { section: sections[0], quote: 'fox', body: '@gated when?' })).body.data.thread;
    const [link] = t.comments[0].executions;
    expect(link).toMatchObject({ skill: 'gated', status: expect.stringMatching(/^(pending|running)$/) });
    const stored = () => k('quire_thread_comments').where({ uuid: t.comments[0].id }).first('awaiting', 'lease_until', 'lease_by');

    // The process stops (as destroy does) while the skill still runs: its wait is let go.
    await threads.close();
    expect(await stored()).toMatchObject({ lease_until: null, lease_by: null });
    expect(Boolean((await stored()).awaiting)).toBe(true);
    openGate();
    await waitFor(async () => (await k('triggers_executions').where({ document_id: link.id }).first('status'))?.status === 'success', { what: 'the gated execution finished' });
    expect((await thread(base, t.anchor)).comments).toHaveLength(1);

    // Another process holds the wait: a start leaves it alone, until that lease expires.
    await k('quire_thread_comments').where({ uuid: t.comments[0].id }).update({ lease_by: 'another-process', lease_until: new Date(Date.now() + 60_000) });
    await threads.start();
    await settled();
    expect((await thread(base, t.anchor)).comments).toHaveLength(1);
    await k('quire_thread_comments').where({ uuid: t.comments[0].id }).update({ lease_until: new Date(Date.now() - 1_000) });
    expect(await threads.sweep()).toBe(1);
    await settled();

    const now = await thread(base, t.anchor);
    expect(now.comments).toHaveLength(2);
    expect(now.comments[0].executions).toEqual([{ id: link.id, skill: 'gated', status: 'success' }]);
    expect(now.comments[1]).toMatchObject({ by: { kind: 'agent', name: 'gated' }, body: 'Late, but here.' });
    expect(await stored()).toMatchObject({ lease_until: null, lease_by: null });
    expect(Boolean((await stored()).awaiting)).toBe(false);
    // Nothing left to resume: a later look posts nothing again.
    expect(await threads.sweep()).toBe(0);
    await settled();
    expect((await thread(base, t.anchor)).comments).toHaveLength(2);
  });
});
