/**
 * The stored live state as a base plus appended updates (services/live-log, repositories/live)
 * on an in-memory SQLite database, without a Strapi boot: a write appends only its update with
 * the revisions and premise it changed, a read merges base and updates, compaction folds them
 * into the base deleting only those it folded, a reader between compactions misses nothing, and
 * a state stored whole before this design (no updates, no folded mark) is the base.
 */
import * as Y from 'yjs';
import { contentType, memoryDb, type MemoryDb } from '../helpers/memory-db';
import { inTransaction, tableName } from '../../src/kernel/db';
import { liveRepository } from '../../src/plugins/quire/server/src/repositories/live';
import { COMPACT_UPDATES, liveLog, savedMarks, savedUpdate, type HeldState } from '../../src/plugins/quire/server/src/services/live-log';

const ARTICLE = 7;

describe('live state: base plus appended updates', () => {
  let db: MemoryDb;
  let log: ReturnType<typeof liveLog>;
  const rows = async () => db.knex(tableName(db.strapi, 'quire_live_updates')).where({ article_id: ARTICLE }).orderBy('id');
  const text = (update: Uint8Array, name = 'section:a') => {
    const doc = new Y.Doc();
    Y.applyUpdate(doc, update);
    return doc.getText(name).toString();
  };
  /** One writer's transaction: reads the state, changes it, saves it. */
  const write = (change: (state: HeldState) => void) =>
    inTransaction(db.strapi, async (trx) => {
      const state = (await log.read(trx, ARTICLE))!;
      change(state);
      await log.save(trx, ARTICLE, state);
      return state;
    });

  beforeEach(async () => {
    db = await memoryDb([contentType('quire', 'live-state'), contentType('quire', 'live-update')]);
    log = liveLog(db.strapi);
    // The first save of a built state writes the base whole.
    await inTransaction(db.strapi, async (trx) => {
      const doc = new Y.Doc();
      doc.getText('section:a').insert(0, 'base');
      await log.save(trx, ARTICLE, log.built(doc, { a: 1 }));
    });
  });
  afterEach(() => db.close());

  it('appends only what a write changed, with its revisions and premise, and reads base and updates as one', async () => {
    await write((state) => {
      state.doc.getText('section:a').insert(4, ' one');
      state.revs = { a: 2, b: 1 };
    });
    await write((state) => {
      state.doc.getText('premise').insert(0, 'Why');
      state.revs = { b: 1 };
    });
    const appended = await rows();
    expect(appended).toHaveLength(2);
    // The first update is the keystrokes alone, far smaller than a whole state.
    expect(Number(appended[0].bytes)).toBeLessThan(40);
    expect(JSON.parse(appended[1].revs)).toEqual({ a: null });
    const saved = (await liveRepository(db.strapi).savedState(ARTICLE))!;
    expect(savedMarks(saved)).toEqual({ revs: { b: 1 }, premise: 'Why' });
    expect(text(savedUpdate(saved))).toBe('base one');
    expect(text(savedUpdate(saved), 'premise')).toBe('Why');
    // A write that changes nothing appends nothing.
    await write(() => undefined);
    expect(await rows()).toHaveLength(2);
  });

  it('answers a reader only what was stored after what it has, and everything once a compaction passed it', async () => {
    await write((state) => state.doc.getText('section:a').insert(4, '?'));
    const first = (await log.stored(ARTICLE))!;
    expect(text(first.update!)).toBe('base?');
    await write((state) => state.doc.getText('section:a').insert(5, '!'));
    const next = (await log.stored(ARTICLE, first.through))!;
    expect(next.through).toBeGreaterThan(first.through);
    // Only the keystroke (without the base it shows nothing), and what the reader had plus it is the state.
    expect(text(next.update!)).not.toContain('base');
    expect(text(Y.mergeUpdates([first.update!, next.update!]))).toBe('base?!');
    expect((await log.stored(ARTICLE, next.through))!.update).toBeNull();
    for (let i = 0; i < COMPACT_UPDATES; i += 1) await write((state) => state.doc.getText('section:a').insert(0, 'x'));
    const after = (await log.stored(ARTICLE, next.through))!;
    // Compacted past what the reader had: the whole state, so nothing is missed.
    expect(text(after.update!)).toBe(`${'x'.repeat(COMPACT_UPDATES)}base?!`);
  });

  it('folds the updates into the base when they pass the threshold, deleting only those it folded', async () => {
    for (let i = 0; i < COMPACT_UPDATES - 1; i += 1) await write((state) => state.doc.getText('section:a').insert(0, 'y'));
    expect(await rows()).toHaveLength(COMPACT_UPDATES - 1);
    const state = await write((held) => held.doc.getText('section:a').insert(0, 'z'));
    expect(await rows()).toHaveLength(0);
    const base = await db.knex(tableName(db.strapi, 'quire_live_states')).where({ article_id: ARTICLE }).first();
    expect(Number(base.folded_through)).toBe(state.through);
    expect(text(new Uint8Array(Buffer.from(base.state, 'base64')))).toBe(`z${'y'.repeat(COMPACT_UPDATES - 1)}base`);
    // An update appended after the fold stays, and reads after the base.
    await write((held) => held.doc.getText('section:a').insert(0, 'w'));
    expect(await rows()).toHaveLength(1);
    expect(text(savedUpdate((await liveRepository(db.strapi).savedState(ARTICLE))!))).toBe(`wz${'y'.repeat(COMPACT_UPDATES - 1)}base`);
  });

  it('keeps updates a compaction did not read, and a reader of updates before the base misses none', async () => {
    const repository = liveRepository(db.strapi);
    await write((state) => state.doc.getText('section:a').insert(0, '1'));
    // A reader read the updates, then a compaction committed, then it reads the base: the fold is in the base.
    const updatesFirst = await db.knex(tableName(db.strapi, 'quire_live_updates')).where({ article_id: ARTICLE }).select('id');
    const folded = await inTransaction(db.strapi, async (trx) => {
      const state = (await log.read(trx, ARTICLE))!;
      await repository.in(trx).compact(ARTICLE, { state: Buffer.from(Y.encodeStateAsUpdate(state.doc)).toString('base64'), revs: '{}', premise: '', updated_at: new Date() }, state.through);
      return state.through;
    });
    expect(updatesFirst.map((row) => Number(row.id))).toEqual([folded]);
    await write((state) => state.doc.getText('section:a').insert(0, '2'));
    const saved = (await repository.savedState(ARTICLE))!;
    expect(saved.foldedThrough).toBe(folded);
    expect(saved.updates.map((row) => row.id)).toEqual([folded + 1]);
    expect(text(savedUpdate(saved))).toBe('21base');
    // Compacting up to an older id leaves the newer update in place.
    await repository.compact(ARTICLE, { state: saved.state, revs: '{}', premise: '', updated_at: new Date() }, folded);
    expect((await rows()).map((row) => Number(row.id))).toEqual([folded + 1]);
  });

  it('a writer keeps its state after commit and catches up with what another process appended or folded; a rollback keeps nothing', async () => {
    const other = liveLog(db.strapi);
    const first = await write((state) => state.doc.getText('section:a').insert(4, '1'));
    await new Promise((resolve) => setImmediate(resolve));
    // Another process appends: the kept state applies only that update, with its revisions.
    await inTransaction(db.strapi, async (trx) => {
      const state = (await other.read(trx, ARTICLE))!;
      state.doc.getText('section:a').insert(0, '2');
      state.revs = { ...state.revs, c: 4 };
      await other.save(trx, ARTICLE, state);
    });
    const again = await write((state) => state.doc.getText('section:a').insert(0, '3'));
    expect(again).toBe(first);
    expect(again.doc.getText('section:a').toString()).toBe('32base1');
    expect(again.revs).toEqual({ a: 1, c: 4 });
    await new Promise((resolve) => setImmediate(resolve));
    // A rolled-back change is not kept: the next writer reads the stored state, without it.
    await expect(
      inTransaction(db.strapi, async (trx) => {
        (await log.read(trx, ARTICLE))!.doc.getText('section:a').insert(0, 'lost');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await new Promise((resolve) => setImmediate(resolve));
    const fresh = await write(() => undefined);
    expect(fresh).not.toBe(first);
    expect(fresh.doc.getText('section:a').toString()).toBe('32base1');
    await new Promise((resolve) => setImmediate(resolve));
    // Another process folds updates this one lacks: it reads the whole state again.
    for (let i = 0; i < COMPACT_UPDATES; i += 1) {
      await inTransaction(db.strapi, async (trx) => {
        const state = (await other.read(trx, ARTICLE))!;
        state.doc.getText('section:a').insert(0, 'o');
        await other.save(trx, ARTICLE, state);
      });
    }
    const caught = await write(() => undefined);
    expect(caught.doc.getText('section:a').toString()).toBe(`${'o'.repeat(COMPACT_UPDATES)}32base1`);
  });

  it('a kept state is not used for a base made anew (the rows removed and written again)', async () => {
    const first = await write((state) => state.doc.getText('section:a').insert(0, 'k'));
    await new Promise((resolve) => setImmediate(resolve));
    await db.knex(tableName(db.strapi, 'quire_live_states')).where({ article_id: ARTICLE }).delete();
    const doc = new Y.Doc();
    doc.getText('section:a').insert(0, 'new');
    await db.knex(tableName(db.strapi, 'quire_live_states')).insert({ article_id: ARTICLE, state: Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64'), revs: '{}', premise: '', folded_through: 0 });
    const fresh = await write(() => undefined);
    expect(fresh).not.toBe(first);
    expect(fresh.doc.getText('section:a').toString()).toContain('new');
    expect(fresh.doc.getText('section:a').toString()).not.toContain('k');
  });

  it('takes a state stored whole before updates existed (no folded mark) as the base', async () => {
    const doc = new Y.Doc();
    doc.getText('section:a').insert(0, 'old');
    await db.knex(tableName(db.strapi, 'quire_live_states')).insert({ article_id: 8, state: Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64'), revs: '{"a":3}', premise: 'P', folded_through: null });
    const state = await inTransaction(db.strapi, async (trx) => (await log.read(trx, 8))!);
    expect(state.doc.getText('section:a').toString()).toBe('old');
    expect(state.revs).toEqual({ a: 3 });
    expect(state.through).toBe(0);
    expect(text((await log.stored(8))!.update!)).toBe('old');
  });
});
