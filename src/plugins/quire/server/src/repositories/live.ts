/**
 * What the live canvas reads and writes besides the edit engine: an article's row and premise,
 * the article's stored Yjs state, the text a section deleted under someone's typing keeps in the
 * trash, and the admin user behind a live connection.
 *
 * The stored state is a base plus appended updates (docs/architecture.md "The live canvas"):
 * quire_live_states holds the base (the encoded state, the section revisions and premise it
 * holds, and the last update folded into it), quire_live_updates the Yjs updates written since,
 * each with the revisions and premise it changed. Writers append under the article's lock;
 * compaction folds updates into the base in a writer's transaction, deleting only those it read.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { repositoryOf, tableName } from '#kernel/db';
import { TABLE } from './store';

export interface LiveStateRow {
  state: string;
  revs: string;
  premise: string | null;
  updated_at: Date;
}

/** An appended update: its Yjs bytes (base64), and the revisions (null: section gone) and premise it set. */
export interface LiveUpdateRow {
  update: string;
  bytes: number;
  revs: string | null;
  premise: string | null;
}

/** The stored state as read: the base and the updates after it, in order. */
export interface SavedLiveState {
  /** The base row's id: a base written anew (the article's rows removed and made again) is another. */
  baseId: number;
  state: string;
  revs: unknown;
  premise: string | null;
  foldedThrough: number;
  updates: Array<LiveUpdateRow & { id: number }>;
}

export function liveRepository(strapi: Core.Strapi) {
  const table = (name: string) => tableName(strapi, name);
  /** An article's appended updates with an id above `after`, in order. */
  const updatesAfter = async (k: Knex, articleRowId: number, after: number): Promise<SavedLiveState['updates']> =>
    (await k(table(TABLE.liveUpdates)).where({ article_id: articleRowId }).andWhere('id', '>', after).orderBy('id').select(['id', 'update', 'bytes', 'revs', 'premise'])).map(
      (row) => ({ ...row, id: Number(row.id), bytes: Number(row.bytes ?? 0) }),
    );
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return Object.assign(
    repositoryOf(strapi, {
      article(k: Knex, uuid: string) {
        return k(table(TABLE.articles)).where({ uuid }).first(['id', 'user_id', 'premise']);
      },
      /**
       * The base and the updates after it (`after`: only those with a greater id, for a reader
       * that has the rest). The updates are read first: a compaction committing between the two
       * reads has folded them into the base read second, and an update merged twice counts once.
       */
      async savedState(k: Knex, articleRowId: number, after = 0): Promise<SavedLiveState | null> {
        const updates = await updatesAfter(k, articleRowId, after);
        const base = await k(table(TABLE.liveStates)).where({ article_id: articleRowId }).first(['id', 'state', 'revs', 'premise', 'folded_through']);
        if (!base) return null;
        const foldedThrough = Number(base.folded_through ?? 0);
        return {
          baseId: Number(base.id),
          state: String(base.state),
          revs: base.revs,
          premise: base.premise ?? null,
          foldedThrough,
          // Those folded meanwhile are in the base already.
          updates: updates.filter((row) => row.id > foldedThrough),
        };
      },
      /** The updates after `after` and how far the base's fold reaches, without the base's state (null: no base). */
      async updatesSince(k: Knex, articleRowId: number, after: number): Promise<{ baseId: number; foldedThrough: number; updates: SavedLiveState['updates'] } | null> {
        const updates = await updatesAfter(k, articleRowId, after);
        const base = await k(table(TABLE.liveStates)).where({ article_id: articleRowId }).first(['id', 'folded_through']);
        if (!base) return null;
        return { baseId: Number(base.id), foldedThrough: Number(base.folded_through ?? 0), updates };
      },
      /** Writes a base whole (a state built from the rows); a row another process inserted meanwhile is updated instead. */
      async saveState(k: Knex, articleRowId: number, row: LiveStateRow): Promise<void> {
        const states = table(TABLE.liveStates);
        const updated = await k(states).where({ article_id: articleRowId }).update(row);
        if (!updated) await k(states).insert({ article_id: articleRowId, ...row, folded_through: 0, created_at: new Date() }).catch(() => k(states).where({ article_id: articleRowId }).update(row));
      },
      /** Appends an update after the base (in the writer's transaction, under the article's lock); its id. */
      async appendUpdate(k: Knex, articleRowId: number, row: LiveUpdateRow): Promise<number> {
        const now = new Date();
        const [inserted] = await k(table(TABLE.liveUpdates)).insert({ article_id: articleRowId, ...row, created_at: now, updated_at: now }).returning('id');
        return Number(typeof inserted === 'object' ? inserted.id : inserted);
      },
      /**
       * Folds the updates up to `through` (all of which the new base holds) into the base:
       * the base written, and those updates deleted, never one appended after them.
       */
      async compact(k: Knex, articleRowId: number, base: LiveStateRow, through: number): Promise<void> {
        await k(table(TABLE.liveStates)).where({ article_id: articleRowId }).update({ ...base, folded_through: through });
        await k(table(TABLE.liveUpdates)).where({ article_id: articleRowId }).andWhere('id', '<=', through).delete();
      },
      /** The trash entry of a section holds `content` (the text typed in it when it was deleted). */
      async trashContent(k: Knex, articleRowId: number, sectionId: string, content: { html: string; title: string | null; level: number; words: number }): Promise<void> {
        await k(table(TABLE.trash))
          .where({ article_id: articleRowId, uuid: sectionId })
          .update({ source: 'html', html: content.html, markdown: null, title: content.title, level: content.level, words: content.words, updated_at: new Date() });
      },
    }),
    {
      /** The admin user with their roles (for their permissions), or null. */
      adminUser(id: number) {
        return strapi.db.query('admin::user').findOne({ where: { id }, populate: ['roles'] });
      },
    },
  );
}
