/**
 * Repositories run their real SQL on an in-memory SQLite database (tests/helpers/memory-db.ts),
 * without a Strapi boot: the executions' conditional claims (one taker per attempt), the trigger
 * route's workflow read, quire's premise revisions through `repositoryOf` (the pool, the
 * open transaction, `in(trx)`), a section by anchor (a compiled select, kernel/db), and the
 * compiled writes of a section write (the lock, the row, its update) in a transaction.
 */
import { contentType, memoryDb, type MemoryDb } from '../helpers/memory-db';
import { executionsRepository } from '../../src/plugins/triggers/server/src/repositories/executions';
import { workflowsRepository } from '../../src/plugins/triggers/server/src/repositories/workflows';
import { premiseRevisionRepository } from '../../src/plugins/quire/server/src/repositories/premise-revisions';
import { inTransaction } from '../../src/kernel/db';
import { findByAnchor, lockOwnedArticle } from '../../src/plugins/quire/server/src/repositories/store';
import { sectionRepository } from '../../src/plugins/quire/server/src/repositories/sections';

describe('triggers: executions repository', () => {
  let db: MemoryDb;
  let executions: ReturnType<typeof executionsRepository>;
  const t0 = new Date('2026-01-01T10:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  let next = 0;
  const insert = async (extra: Record<string, unknown> = {}) => {
    next += 1;
    const id = `exec-${next}`;
    await executions.insert({
      document_id: id, instance_id: 'inst-1', workflow_id: 'wf-1', user_id: 7, action: 'echo', config: '{}', input: '{"n":1}',
      status: 'pending', attempts: 0, max_attempts: 3, created_at: t0, updated_at: t0, ...extra,
    });
    return id;
  };

  beforeEach(async () => {
    db = await memoryDb([contentType('triggers', 'execution'), contentType('triggers', 'process-instance'), contentType('triggers', 'workflow')]);
    executions = executionsRepository(db.strapi);
  });
  afterEach(() => db.close());

  it('gives a due execution to one claimer only, and lets that attempt alone settle it', async () => {
    const id = await insert();
    const first = await executions.claim(id, at(1_000), at(1_000), 30_000);
    expect(first).toMatchObject({ document_id: id, attempts: 1, max_attempts: 3, user_id: 7, action: 'echo' });
    // A second claim while the lease runs finds nothing to take.
    expect(await executions.claim(id, at(2_000), at(2_000), 30_000)).toBeNull();
    // A stale attempt number settles nothing; the holder's does.
    expect(await executions.settleAttempt(first!.id, 2, { status: 'success' })).toBe(false);
    expect(await executions.settleAttempt(first!.id, 1, { status: 'success', output: '"done"', finished_at: at(3_000) })).toBe(true);
    expect(await executions.get('inst-1', id)).toMatchObject({ executionId: id, status: 'success', attempts: 1, output: 'done', callback: null });
    expect(await executions.get('inst-other', id)).toBeNull();
  });

  it('takes a running execution back once its lease ran out, and not before', async () => {
    const id = await insert();
    await executions.claim(id, at(0), at(0), 1_000);
    expect(await executions.claim(id, at(500), at(500), 1_000)).toBeNull();
    expect(await executions.stranded(at(500), at(500), 10)).toEqual([]);
    expect(await executions.stranded(at(2_000), at(0), 10)).toEqual([{ id, attempts: 1 }]);
    expect(await executions.claim(id, at(2_000), at(2_000), 1_000)).toMatchObject({ attempts: 2 });
  });

  it('keeps a retry waiting until its time', async () => {
    const id = await insert({ run_after: at(10_000) });
    expect(await executions.claim(id, at(5_000), at(5_000), 1_000)).toBeNull();
    expect(await executions.claim(id, at(10_000), at(10_000), 1_000)).toMatchObject({ attempts: 1 });
  });

  it('refuses a second row with the same idempotency key and finds the first', async () => {
    const id = await insert({ idempotency_key: 'k-1', body_hash: 'h' });
    // The message, not toThrow: better-sqlite3's native half keeps the error class of the first
    // test file that loaded it in this worker (another realm), which toThrow then fails to see.
    await expect(insert({ idempotency_key: 'k-1' })).rejects.toHaveProperty('message', expect.stringMatching(/UNIQUE/));
    expect(await executions.firstByIdempotencyKey('k-1')).toMatchObject({ document_id: id, status: 'pending', body_hash: 'h' });
    await executions.releaseKey((await executions.firstByIdempotencyKey('k-1'))!.id, 'idempotency_key', at(1));
    expect(await executions.firstByIdempotencyKey('k-1')).toBeUndefined();
  });

  it('lists newest first, a page at a time, by workflow and status', async () => {
    const ids = [await insert(), await insert({ workflow_id: 'wf-2' }), await insert({ status: 'failed' })];
    const first = await executions.list('inst-1', { limit: 2 });
    expect(first.executions.map((e) => e.executionId)).toEqual([ids[2], ids[1]]);
    expect(first.last).not.toBeNull();
    const rest = await executions.list('inst-1', { limit: 2, before: first.last! });
    expect(rest).toEqual({ executions: [expect.objectContaining({ executionId: ids[0] })], last: null });
    expect((await executions.list('inst-1', { limit: 10, workflowId: 'wf-2' })).executions.map((e) => e.executionId)).toEqual([ids[1]]);
    expect((await executions.page('inst-1', { page: 1, pageSize: 10, status: 'failed' })).total).toBe(1);
  });

  it('claims a finished execution\'s callback once per attempt and prunes only what is settled', async () => {
    const id = await insert({ status: 'success', finished_at: at(100), callback_status: 'pending' });
    const claimed = await executions.claimCallback(id, at(1_000), at(1_000), at(31_000));
    expect(claimed).toMatchObject({ document_id: id, callback_attempts: 1 });
    expect(await executions.claimCallback(id, at(2_000), at(2_000), at(32_000))).toBeNull();
    expect(await executions.pruneBatch(at(10_000_000), 10)).toEqual({ found: 0, deleted: 0 });
    expect(await executions.settleCallback(claimed!.id, 1, { callback_status: 'delivered' })).toBe(true);
    expect(await executions.pruneBatch(at(10_000_000), 10)).toEqual({ found: 1, deleted: 1 });
  });

  it('reads the workflow a trigger names in one query, only in its instance', async () => {
    const workflows = workflowsRepository(db.strapi);
    await db.knex('triggers_workflows').insert({
      document_id: 'wf-1', instance_id: 'inst-1', organization_id: 'org-1', user_id: 7, name: 'Echo', action: 'echo', config: '{}', enabled: true,
      callback_url: null, input_schema_hash: null,
    });
    expect(await workflows.forTrigger('inst-1', 'wf-1')).toEqual({
      documentId: 'wf-1', instanceId: 'inst-1', organizationId: 'org-1', userId: 7, action: 'echo', config: '{}', enabled: true,
      secretsCiphertext: null, callbackUrl: null, inputSchemaHash: null,
    });
    expect(await workflows.forTrigger('inst-2', 'wf-1')).toBeNull();
  });
});

describe('quire: premise revisions repository', () => {
  let db: MemoryDb;
  let repo: ReturnType<typeof premiseRevisionRepository>;
  const made = new Date('2026-02-01T00:00:00Z');

  beforeEach(async () => {
    db = await memoryDb([contentType('quire', 'article'), contentType('quire', 'premise-revision')]);
    repo = premiseRevisionRepository(db.strapi);
    await db.knex('quire_articles').insert({ uuid: 'a-1', user_id: 1, title: 'T', status: 'draft', premise: 'First', updated_at: made });
  });
  afterEach(() => db.close());

  it('finds only the owner\'s article', async () => {
    expect(await repo.article(1, 'a-1')).toEqual({ id: 1, premise: 'First', updatedAt: made });
    expect(await repo.article(2, 'a-1')).toBeUndefined();
  });

  it('keeps the premise and its revisions together in a transaction, newest first', async () => {
    await inTransaction(db.strapi, async (trx) => {
      // Both the implicit (the open transaction) and the explicit handle reach the same one.
      await repo.insert({ article_id: 1, rev: 1, premise: 'First', by_kind: 'user', by_name: 'Ada', made_at: made });
      await repo.in(trx).setPremise(1, 'Second', made);
      await repo.in(trx).insert({ article_id: 1, rev: 2, premise: 'Second', by_kind: 'agent', by_name: 'bot', made_at: made });
    });
    expect((await repo.list(1)).map((r) => [r.rev, r.premise, r.by_name])).toEqual([
      [2, 'Second', 'bot'],
      [1, 'First', 'Ada'],
    ]);
    expect(await repo.last(1)).toMatchObject({ rev: 2, by_kind: 'agent' });
    expect((await repo.article(1, 'a-1'))!.premise).toBe('Second');
  });

  it('writes nothing when the transaction fails', async () => {
    await expect(
      inTransaction(db.strapi, async () => {
        await repo.setPremise(1, 'Lost', made);
        await repo.insert({ article_id: 1, rev: 1, premise: 'Lost', by_kind: null, by_name: null, made_at: made });
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await repo.list(1)).toEqual([]);
    expect((await repo.article(1, 'a-1'))!.premise).toBe('First');
  });
});

describe('quire: a section by anchor (store findByAnchor, a compiled select)', () => {
  let db: MemoryDb;
  const article = '0f8fad5b-d9cb-469f-a165-70867728950e';
  // Two siblings sharing all but their last character, and one far from both.
  const twinA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
  const twinB = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2';
  const lone = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

  beforeEach(async () => {
    db = await memoryDb([contentType('quire', 'article'), contentType('quire', 'section')]);
    await db.knex('quire_articles').insert({ uuid: article, user_id: 1, title: 'T', status: 'draft' });
    for (const uuid of [twinA, twinB, lone]) await db.knex('quire_sections').insert({ uuid, article_id: 1, rank: uuid, level: 2, title: uuid, rev: 1 });
  });
  afterEach(() => db.close());

  const find = (rawAnchor: string, userId = 1) =>
    findByAnchor(db.strapi, 'quire_sections', ['uuid', 'rev'], { userId, rawArticleId: article, rawAnchor, scope: { kind: 'section', list: '' } as never });

  it('answers the row with the anchor its sorted neighbours make unique, each time the same', async () => {
    // The twins need all 36 characters; the lone section the minimum.
    expect(await find(twinA)).toMatchObject({ row: { uuid: twinA }, anchor: twinA });
    expect(await find(twinB)).toMatchObject({ row: { uuid: twinB }, anchor: twinB });
    expect(await find('cccccc')).toMatchObject({ row: { uuid: lone }, anchor: 'cccccc' });
    // The second call runs the cached SQL with other values.
    expect(await find(twinA)).toMatchObject({ anchor: twinA });
  });

  it('says what was missing: several matches, no match, or the article (not the caller\'s)', async () => {
    expect(await find('aaaaaaaa')).toEqual({ missing: 'several' });
    expect(await find('dddddd')).toEqual({ missing: 'anchor' });
    expect(await find(twinA, 2)).toEqual({ missing: 'article' });
  });
});

describe('quire: compiled writes (kernel/db compiledQuery, run on the SQLite connection itself)', () => {
  let db: MemoryDb;
  const article = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const section = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
  const by = { kind: 'agent', name: 'bench' };
  const content = (title: string) => ({ level: 2, title, words: 1, source: 'markdown' as const, markdown: `## ${title}`, html: `<h2>${title}</h2>`, htmlText: null });

  beforeEach(async () => {
    db = await memoryDb([contentType('quire', 'article'), contentType('quire', 'section')]);
    await db.knex('quire_articles').insert({ uuid: article, user_id: 1, title: 'T', status: 'draft', outline_rev: 4 });
    await db.knex('quire_sections').insert({ uuid: section, article_id: 1, rank: 'a', level: 2, title: 'Old', markdown: '## Old', html: '', source: 'markdown', rev: 1 });
  });
  afterEach(() => db.close());

  const stored = async () => ({
    article: await db.knex('quire_articles').first('outline_rev'),
    section: await db.knex('quire_sections').where({ uuid: section }).first('title', 'rev', 'by_name'),
  });

  it('locks, reads and updates in the transaction, and Knex still hears each statement', async () => {
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    db.knex.on('query', listener);
    const sections = sectionRepository(db.strapi);
    const result = await inTransaction(db.strapi, async (trx) => {
      const locked = await lockOwnedArticle(db.strapi, trx, 1, article, { outline: true });
      const row = await sections.in(trx).row(locked!.id, section);
      await sections.in(trx).updateMany(locked!.id, [{ uuid: section, content: content('New'), rev: Number(row!.rev) + 1 }], by, new Date());
      return { locked, title: row!.title };
    });
    db.knex.off('query', listener);
    expect(result).toEqual({ locked: { id: 1, outlineRev: 5 }, title: 'Old' });
    expect(await stored()).toEqual({ article: { outline_rev: 5 }, section: { title: 'New', rev: 2, by_name: 'bench' } });
    expect(seen.filter((sql) => /^(update|select)/i.test(sql))).toHaveLength(3);
    // Not the caller's article: no lock, nothing written.
    expect(await inTransaction(db.strapi, (trx) => lockOwnedArticle(db.strapi, trx, 2, article, { outline: true }))).toBeNull();
  });

  it('writes nothing when the transaction fails after them', async () => {
    const sections = sectionRepository(db.strapi);
    await expect(
      inTransaction(db.strapi, async (trx) => {
        await lockOwnedArticle(db.strapi, trx, 1, article, { outline: true });
        await sections.in(trx).updateMany(1, [{ uuid: section, content: content('Lost'), rev: 2 }], by, new Date());
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await stored()).toEqual({ article: { outline_rev: 4 }, section: { title: 'Old', rev: 1, by_name: null } });
  });
});
