/**
 * An article's stored Yjs state as a base plus appended updates (repositories/live;
 * docs/architecture.md "The live canvas"), for services/live-state: read into a Y.Doc in a
 * writer's transaction, and saved by appending only the update the transaction made (the doc's
 * `update` events since it was read), with the section revisions and premise it changed. Once
 * the updates after the base pass COMPACT_UPDATES, or their bytes pass the base's (and
 * COMPACT_MIN_BYTES), the writer folds them into a new base in the same transaction, under the
 * article's lock, deleting only the updates it folded.
 *
 * Every writer holds the article's lock (services/article-lookup lockArticle) from before it
 * reads until it commits, so one article's updates are appended, and committed, in id order:
 * a reader that has every update up to an id has missed none before it.
 *
 * So a writer need not decode the whole state each time: a state a transaction read and saved
 * whole is kept after its commit for KEEP_MS (at most KEEP_MAX articles per process), and the
 * next writer of that article, under the lock, applies only the updates appended since (by
 * this process or another), unless a compaction folded some it lacks (then it reads all). A
 * rolled-back transaction's state, or one holding changes it did not save, is dropped.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import * as Y from 'yjs';
import { liveRepository, type SavedLiveState } from '../repositories/live';

/** The stored state of one article, as a transaction holds it. */
export interface HeldState {
  doc: Y.Doc;
  /** The section revisions the state holds. */
  revs: Record<string, number>;
  /** A store runs: the writes it makes through the edit engine leave the saving to it. */
  deferred: boolean;
  dirty: boolean;
  /** False: built from the rows, saved whole as the base. */
  stored: boolean;
  /** The revisions and premise as stored (an appended update records what changed since). */
  savedRevs: Record<string, number>;
  savedPremise: string;
  /** The doc's updates since it was read or saved: what the next save appends. */
  pending: Uint8Array[];
  /** The base row it was read from (0: built, not yet saved). */
  baseId: number;
  /** The last stored update the doc holds; the updates after the base: how many, their bytes; the base's bytes. */
  through: number;
  count: number;
  bytes: number;
  baseBytes: number;
}

export const KEEP_MS = 10_000;
export const KEEP_MAX = 16;
export const COMPACT_UPDATES = 100;
export const COMPACT_MIN_BYTES = 64 * 1024;
const EMPTY_UPDATE = new Uint8Array([0, 0]);

export const decode = (state: string) => new Uint8Array(Buffer.from(state, 'base64'));
const encode = (update: Uint8Array) => Buffer.from(update.buffer, update.byteOffset, update.byteLength).toString('base64');
export const parseRevs = (revs: unknown): Record<string, number> => (typeof revs === 'string' ? JSON.parse(revs) : ((revs as Record<string, number>) ?? {}));

/** A saved state's revisions and premise: the base's, then each update's changes (null: a section gone). */
export function savedMarks(saved: SavedLiveState): { revs: Record<string, number>; premise: string } {
  const revs = { ...parseRevs(saved.revs) };
  let premise = String(saved.premise ?? '');
  for (const update of saved.updates) {
    for (const [id, rev] of Object.entries(parseRevs(update.revs) as Record<string, number | null>)) {
      if (rev === null) delete revs[id];
      else revs[id] = rev;
    }
    if (update.premise !== null && update.premise !== undefined) premise = String(update.premise);
  }
  return { revs, premise };
}

/** A saved state as one Yjs update (the base and its updates merged, without decoding them into a doc). */
export const savedUpdate = (saved: SavedLiveState): Uint8Array =>
  saved.updates.length ? Y.mergeUpdates([decode(saved.state), ...saved.updates.map((row) => decode(row.update))]) : decode(saved.state);

/** Collects the doc's updates from now on: what the next save appends. */
function track(state: HeldState): HeldState {
  state.doc.on('update', (update: Uint8Array) => state.pending.push(update));
  return state;
}

/** A state applies stored updates it lacks (not to be appended again), with the revisions and premise they set. */
function catchUp(state: HeldState, updates: SavedLiveState['updates']) {
  for (const row of updates) Y.applyUpdate(state.doc, decode(row.update));
  state.pending = [];
  const { revs, premise } = savedMarks({ baseId: state.baseId, state: '', revs: state.savedRevs, premise: state.savedPremise, foldedThrough: 0, updates });
  Object.assign(state, { revs, savedRevs: { ...revs }, savedPremise: premise });
  if (updates.length) state.through = updates[updates.length - 1].id;
  state.count += updates.length;
  state.bytes += updates.reduce((sum, row) => sum + row.bytes, 0);
}

export function liveLog(strapi: Core.Strapi) {
  const repository = liveRepository(strapi);
  /** States kept after their transaction committed, by article row id (oldest first), with their expiry. */
  const kept = new Map<number, { state: HeldState; timer: NodeJS.Timeout }>();

  function keep(articleRowId: number, state: HeldState) {
    if (state.pending.length || state.dirty || !state.stored) return;
    const old = kept.get(articleRowId);
    if (old) clearTimeout(old.timer);
    kept.delete(articleRowId);
    const timer = setTimeout(() => kept.get(articleRowId)?.state === state && kept.delete(articleRowId), KEEP_MS);
    timer.unref?.();
    kept.set(articleRowId, { state, timer });
    for (const [id, entry] of kept) {
      if (kept.size <= KEEP_MAX) break;
      clearTimeout(entry.timer);
      kept.delete(id);
    }
  }

  /** Keeps the state once the transaction commits (Knex's execution promise; a rollback rejects it). */
  function keepAtCommit(trx: Knex, articleRowId: number, state: HeldState) {
    const committed = (trx as unknown as { executionPromise?: Promise<unknown> }).executionPromise;
    committed?.then(() => keep(articleRowId, state), () => undefined);
  }

  return {
    /** The article's stored state in a doc (base, then its updates), or null when it has none. Under the article's lock. */
    async read(trx: Knex, articleRowId: number): Promise<HeldState | null> {
      const entry = kept.get(articleRowId);
      if (entry) {
        clearTimeout(entry.timer);
        kept.delete(articleRowId);
        const since = await repository.in(trx).updatesSince(articleRowId, entry.state.through);
        if (since && since.baseId === entry.state.baseId && since.foldedThrough <= entry.state.through) {
          catchUp(entry.state, since.updates);
          keepAtCommit(trx, articleRowId, entry.state);
          return entry.state;
        }
      }
      const saved = await repository.in(trx).savedState(articleRowId);
      if (!saved) return null;
      const doc = new Y.Doc();
      Y.applyUpdate(doc, decode(saved.state));
      for (const row of saved.updates) Y.applyUpdate(doc, decode(row.update));
      const { revs, premise } = savedMarks(saved);
      const state = track({
        doc,
        revs,
        deferred: false,
        dirty: false,
        stored: true,
        savedRevs: { ...revs },
        savedPremise: premise,
        pending: [],
        baseId: saved.baseId,
        through: saved.updates.length ? saved.updates[saved.updates.length - 1].id : saved.foldedThrough,
        count: saved.updates.length,
        bytes: saved.updates.reduce((sum, row) => sum + row.bytes, 0),
        baseBytes: Math.floor((saved.state.length * 3) / 4),
      });
      keepAtCommit(trx, articleRowId, state);
      return state;
    },

    /** A state built (from the rows): saved whole as the base at its first save. */
    built(doc: Y.Doc, revs: Record<string, number>): HeldState {
      return track({ doc, revs, deferred: false, dirty: true, stored: false, savedRevs: {}, savedPremise: '', pending: [], baseId: 0, through: 0, count: 0, bytes: 0, baseBytes: 0 });
    },

    /**
     * Saves the state: a built one whole, as the base; else the updates made since it was
     * read, appended as one (then folded into the base when they pass the thresholds).
     */
    async save(trx: Knex, articleRowId: number, state: HeldState): Promise<void> {
      const premise = state.doc.getText('premise').toString();
      const repo = repository.in(trx);
      state.dirty = false;
      if (!state.stored) {
        const encoded = Y.encodeStateAsUpdate(state.doc);
        await repo.saveState(articleRowId, { state: encode(encoded), revs: JSON.stringify(state.revs), premise, updated_at: new Date() });
        Object.assign(state, { stored: true, savedRevs: { ...state.revs }, savedPremise: premise, pending: [], count: 0, bytes: 0, baseBytes: encoded.length });
        return;
      }
      const revs: Record<string, number | null> = {};
      for (const [id, rev] of Object.entries(state.revs)) if (state.savedRevs[id] !== rev) revs[id] = rev;
      for (const id of Object.keys(state.savedRevs)) if (!(id in state.revs)) revs[id] = null;
      const premiseChanged = premise !== state.savedPremise;
      if (!state.pending.length && !Object.keys(revs).length && !premiseChanged) return;
      // No Yjs change (revisions moved alone): an empty update records them.
      const update = state.pending.length === 1 ? state.pending[0] : state.pending.length ? Y.mergeUpdates(state.pending) : EMPTY_UPDATE;
      state.pending = [];
      state.through = await repo.appendUpdate(articleRowId, { update: encode(update), bytes: update.length, revs: JSON.stringify(revs), premise: premiseChanged ? premise : null });
      state.savedRevs = { ...state.revs };
      state.savedPremise = premise;
      state.count += 1;
      state.bytes += update.length;
      if (state.count >= COMPACT_UPDATES || state.bytes > Math.max(COMPACT_MIN_BYTES, state.baseBytes)) {
        const encoded = Y.encodeStateAsUpdate(state.doc);
        await repo.compact(articleRowId, { state: encode(encoded), revs: JSON.stringify(state.revs), premise, updated_at: new Date() }, state.through);
        Object.assign(state, { count: 0, bytes: 0, baseBytes: encoded.length });
      }
    },

    /**
     * The stored state as one update (null: none); with `after` (an earlier answer's
     * `through`), only the updates appended since, unless a compaction folded some of them
     * into the base meanwhile (then the whole state).
     */
    async stored(articleRowId: number, after = 0): Promise<{ update: Uint8Array | null; through: number } | null> {
      const saved = await repository.savedState(articleRowId, after);
      if (!saved) return null;
      const through = saved.updates.length ? saved.updates[saved.updates.length - 1].id : Math.max(after, saved.foldedThrough);
      if (after > 0 && saved.foldedThrough <= after) return { update: saved.updates.length ? Y.mergeUpdates(saved.updates.map((row) => decode(row.update))) : null, through };
      return { update: savedUpdate(saved), through };
    },
  };
}
