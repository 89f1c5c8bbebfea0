/**
 * quire_trash: deleted sections with their content, revision and authorship, scoped by
 * article row id.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { repositoryOf, tableName } from '#kernel/db';
import { TABLE } from './store';

export function trashRepository(strapi: Core.Strapi) {
  const trash = () => tableName(strapi, TABLE.trash);
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** Puts a section row in the trash (replacing an earlier trashed copy of the same id). */
    async put(k: Knex, row: Record<string, unknown> & { article_id: number; uuid: string }): Promise<void> {
      await k(trash()).where({ article_id: row.article_id, uuid: row.uuid }).delete();
      await k(trash()).insert(row);
    },

    async remove(k: Knex, articleRowId: number, uuid: string): Promise<void> {
      await k(trash()).where({ article_id: articleRowId, uuid }).delete();
    },

    async removeMany(k: Knex, articleRowId: number, uuids: string[]): Promise<void> {
      if (uuids.length) await k(trash()).where({ article_id: articleRowId }).whereIn('uuid', uuids).delete();
    },

    /** Ids of the rows deleted before `cutoff`. */
    async expired(k: Knex, articleRowId: number, cutoff: Date): Promise<string[]> {
      const rows = await k(trash()).where({ article_id: articleRowId }).andWhere('deleted_at', '<', cutoff).select('uuid');
      return rows.map((r) => r.uuid as string);
    },

    /** The listing: most recently deleted first. */
    list(k: Knex, articleRowId: number) {
      return k(trash())
        .where({ article_id: articleRowId })
        .orderBy([
          { column: 'deleted_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .select(['uuid', 'title', 'level', 'words', 'deleted_at', 'deleted_by_kind', 'deleted_by_name']);
    },

    /** Every trashed row in full (a restore resolves its anchor among them). */
    all(k: Knex, articleRowId: number) {
      return k(trash()).where({ article_id: articleRowId }).select('*');
    },
  });
}
