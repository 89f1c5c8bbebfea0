/**
 * CONTRACT section 14, suggestions: a `suggest` credential's section writes become suggestions
 * (202); anyone who may write can suggest on purpose; list, read, accept (atomic, 412 + stale
 * when a touched section changed), reject; a `suggest` credential cannot decide (403).
 */
import { client, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let writer: Client;
let suggester: Client;

beforeAll(async () => {
  app = await startApp();
  const alice = await registerUser(app, 'alice');
  writer = client(app, await createKey(app, alice, 'editor bot'));
  suggester = client(app, await createKey(app, alice, 'suggest bot', 'suggest'));
}, 180_000);
afterAll(() => app?.close());

const titles = (outline: { title: string }[]) => outline.map((e) => e.title);

describe('a suggest credential\'s section writes become suggestions', () => {
  it('PATCH, POST sections, move, DELETE and edits answer 202 data.suggestion and change nothing', async () => {
    const { article, outline } = await newArticle(writer, { title: 'T', markdown: sectionsDoc(3) });
    const base = `/api/articles/${article.id}`;
    const [s1, s2, s3] = outline.map((e) => e.anchor);
    const before = (await writer.get(`${base}/outline?include=rev`)).body.data.outline;
    const answers = [
      await suggester.patch(`${base}/sections/${s1}`, { markdown: '## S1\n\nSuggested.' }),
      await suggester.post(`${base}/sections`, { markdown: '## Proposed', after: s1 }),
      await suggester.post(`${base}/sections/${s3}/move`, { before: s1 }),
      await suggester.del(`${base}/sections/${s2}`),
      await suggester.post(`${base}/edits`, { ops: [{ op: 'replaceText', find: 'Body of S3', replace: 'Text of S3', section: s3 }] }),
    ];
    expect(answers.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    const first = answers[0].body.data.suggestion;
    expect(first).toMatchObject({
      status: 'pending',
      note: null,
      ops: [{ op: 'replace', section: s1, markdown: '## S1\n\nSuggested.' }],
      by: { kind: 'agent', name: 'suggest bot' },
      decidedAt: null,
      decidedBy: null,
    });
    expect(first.results[0].diff).toContain('+Suggested.');
    expect(Object.keys(first).sort()).toEqual(['anchor', 'by', 'createdAt', 'decidedAt', 'decidedBy', 'id', 'note', 'ops', 'reason', 'results', 'status']);
    expect(first.reason).toBeNull();
    expect((await writer.get(`${base}/outline?include=rev`)).body.data.outline).toEqual(before);
    expect((await writer.get(`${base}/trash`)).body.data.sections).toEqual([]);

    const list = (await writer.get(`${base}/suggestions?status=pending`)).body.data.suggestions;
    expect(list).toHaveLength(5);
    expect(list[list.length - 1].id).toBe(first.id);
    expect((await writer.get(`${base}/suggestions/${first.anchor}`)).body.data.suggestion).toEqual(first);
    expect((await writer.get(`${base}/suggestions?status=accepted`)).body.data.suggestions).toEqual([]);
    expectFailure(await writer.get(`${base}/suggestions?status=maybe`), 400, 'invalid-argument');
  });

  it('a dry run of edits is answered as a dry run (200, diffs), and files no suggestion', async () => {
    const { article, outline } = await newArticle(writer, { title: 'T', markdown: sectionsDoc(2) });
    const base = `/api/articles/${article.id}`;
    const before = (await writer.get(`${base}/outline?include=rev`)).body.data.outline;
    const ops = [{ op: 'replaceText', find: 'Body of S2', replace: 'Text of S2', section: outline[1].anchor }];
    const dry = await suggester.post(`${base}/edits`, { ops, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data.results[0]).toMatchObject({ op: 'replaceText', replaced: 1 });
    expect(dry.body.data.results[0].diff).toContain('+Text of S2');
    expect(dry.headers.etag).toBe((await writer.get(`${base}/outline`)).headers.etag);
    expect((await writer.get(`${base}/suggestions`)).body.data.suggestions).toEqual([]);
    expect((await writer.get(`${base}/outline?include=rev`)).body.data.outline).toEqual(before);
    // The same request without dryRun is still a suggestion.
    expect((await suggester.post(`${base}/edits`, { ops })).status).toBe(202);
  });

  it('its other writes are 403, and so are accepting and rejecting', async () => {
    const { article, outline } = await newArticle(writer, { title: 'T', markdown: sectionsDoc(2) });
    const base = `/api/articles/${article.id}`;
    expectFailure(await suggester.post(`${base}/notes`, { kind: 'idea', title: 'N' }), 403, 'permission-denied');
    const suggestion = (await suggester.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '## S1b' })).body.data.suggestion;
    expectFailure(await suggester.post(`${base}/suggestions/${suggestion.anchor}/accept`), 403, 'permission-denied');
    expectFailure(await suggester.post(`${base}/suggestions/${suggestion.anchor}/reject`, {}), 403, 'permission-denied');
    expect((await writer.get(`${base}/suggestions/${suggestion.anchor}`)).body.data.suggestion.status).toBe('pending');
  });

  it('is refused like the write would be: a bad op or a stale If-Match is answered now, not made a suggestion', async () => {
    const { article, outline } = await newArticle(writer, { title: 'T', markdown: sectionsDoc(2) });
    const base = `/api/articles/${article.id}`;
    expectFailure(await suggester.patch(`${base}/sections/ffffffff`, { markdown: '## X' }), 404, 'not-found');
    const stale = '"s.00000000-0000-4000-8000-000000000000.1"';
    expectFailure(await suggester.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '## X' }).set('If-Match', stale), 412, 'precondition-failed');
    const error = expectFailure(await suggester.post(`${base}/edits`, { ops: [{ op: 'insert', markdown: '## x' }, { op: 'nope' }] }), 400, 'invalid-argument');
    expect(error.message).toMatch(/^ops\[1\]/);
    expect((await writer.get(`${base}/suggestions`)).body.data.suggestions).toEqual([]);
  });
});

describe('deciding', () => {
  it('accept applies the ops atomically as the suggester\'s change, and answers the suggestion and outline', async () => {
    const { article, outline } = await newArticle(writer, { title: 'T', markdown: sectionsDoc(3) });
    const base = `/api/articles/${article.id}`;
    const res = await writer.post(`${base}/suggestions`, {
      note: 'Tighten the opening.',
      ops: [
        { op: 'replace', section: outline[0].anchor, markdown: '## Opening\n\nTighter.' },
        { op: 'insert', markdown: '## Aside', after: '$0' },
        { op: 'delete', section: outline[2].anchor },
      ],
    });
    expect(res.status).toBe(201);
    const suggestion = res.body.data.suggestion;
    expect(suggestion).toMatchObject({ status: 'pending', note: 'Tighten the opening.', by: { kind: 'agent', name: 'editor bot' } });
    expect(suggestion.results.map((r) => r.op)).toEqual(['replace', 'insert', 'delete']);

    const accepted = await writer.post(`${base}/suggestions/${suggestion.anchor}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.suggestion).toMatchObject({ id: suggestion.id, status: 'accepted', decidedBy: { kind: 'agent', name: 'editor bot' } });
    expect(accepted.body.data.suggestion.decidedAt).toEqual(expect.any(String));
    expect(titles(accepted.body.data.outline)).toEqual(['Opening', 'Aside', 'S2']);
    expect(accepted.headers.etag).toBe((await writer.get(`${base}/outline`)).headers.etag);
    expectFailure(await writer.post(`${base}/suggestions/${suggestion.anchor}/accept`), 409, 'conflict');
    expectFailure(await writer.post(`${base}/suggestions/${suggestion.anchor}/reject`, {}), 409, 'conflict');
  });

  it('a suggestion whose section changed since is stale: 412 on accept, nothing applied', async () => {
    const { article, outline } = await newArticle(writer, { title: 'T', markdown: sectionsDoc(2) });
    const base = `/api/articles/${article.id}`;
    const suggestion = (await suggester.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '## From the agent' })).body.data.suggestion;
    await writer.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '## From the editor' });
    const staleAnswer = await writer.post(`${base}/suggestions/${suggestion.anchor}/accept`);
    const error = expectFailure(staleAnswer, 412, 'precondition-failed');
    expect(error.message).toMatch(/stale/);
    // The 412 carries the outline's current ETag (CONTRACT section 20).
    expect(staleAnswer.headers.etag).toBe((await writer.get(`${base}/outline`)).headers.etag);
    expect(error.nextAction).toContain(`GET /api/articles/${article.id}/outline`);
    expect((await writer.get(`${base}/suggestions/${suggestion.anchor}`)).body.data.suggestion.status).toBe('stale');
    expect(titles((await writer.get(`${base}/outline`)).body.data.outline)).toEqual(['From the editor', 'S2']);
    const again = await writer.post(`${base}/suggestions/${suggestion.anchor}/accept`);
    expectFailure(again, 412, 'precondition-failed');
    expect(again.headers.etag).toBe((await writer.get(`${base}/outline`)).headers.etag);
    // A change elsewhere does not make it stale.
    const other = (await suggester.patch(`${base}/sections/${outline[1].anchor}`, { markdown: '## S2 agent' })).body.data.suggestion;
    await writer.patch(`${base}/sections/${outline[0].anchor}`, { markdown: '## Again' });
    expect((await writer.post(`${base}/suggestions/${other.anchor}/accept`)).status).toBe(200);
  });

  it('reject records the decision; two accepts at once apply once', async () => {
    const { article, outline } = await newArticle(writer, { title: 'T', markdown: sectionsDoc(2) });
    const base = `/api/articles/${article.id}`;
    const one = (await suggester.post(`${base}/sections`, { markdown: '## Maybe' })).body.data.suggestion;
    const rejected = await writer.post(`${base}/suggestions/${one.anchor}/reject`, { reason: 'Not needed.' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.suggestion).toMatchObject({ status: 'rejected', decidedBy: { kind: 'agent', name: 'editor bot' }, reason: 'Not needed.' });
    // The suggester reads the reason wherever the suggestion is (CONTRACT section 20).
    expect((await suggester.get(`${base}/suggestions/${one.anchor}`)).body.data.suggestion.reason).toBe('Not needed.');
    const listed = (await suggester.get(`${base}/suggestions?status=rejected`)).body.data.suggestions;
    expect(listed.map((x) => [x.id, x.reason])).toEqual([[one.id, 'Not needed.']]);
    const noReason = (await suggester.post(`${base}/sections`, { markdown: '## Silent' })).body.data.suggestion;
    expect((await writer.post(`${base}/suggestions/${noReason.anchor}/reject`, {})).body.data.suggestion.reason).toBeNull();
    expectFailure(await writer.post(`${base}/suggestions/${one.anchor}/accept`), 409, 'conflict');
    expectFailure(await writer.post(`${base}/suggestions/${one.anchor}/reject`, { reason: 5 }), 400, 'invalid-argument');

    const two = (await suggester.post(`${base}/sections`, { markdown: '## Once', after: outline[0].anchor })).body.data.suggestion;
    const results = await Promise.all([writer.post(`${base}/suggestions/${two.anchor}/accept`), writer.post(`${base}/suggestions/${two.anchor}/accept`)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 200)!.body.data.suggestion.reason).toBeNull();
    expect(titles((await writer.get(`${base}/outline`)).body.data.outline)).toEqual(['S1', 'Once', 'S2']);
    expectFailure(await writer.get(`${base}/suggestions/ffffffff`), 404, 'not-found');
  });
});
