/**
 * quire_section_revisions: the earlier versions of sections (the current one is the section's
 * row), scoped by article row id.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { repositoryOf, tableName } from '#kernel/db';
import { TABLE } from './store';

/** What a version list shows of each. */
export const REVISION_COLUMNS = ['rev', 'title', 'level', 'words', 'source', 'by_kind', 'by_name'];

/** A kept version, as written. */
export type RevisionRow = Record<string, unknown> & { article_id: number; section_uuid: string; rev: number };

export function revisionRepository(strapi: Core.Strapi) {
  const revisions = () => tableName(strapi, TABLE.revisions);
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** Writes kept versions, one INSERT per 100. */
    async insertMany(k: Knex, rows: RevisionRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += 100) await k(revisions()).insert(rows.slice(i, i + 100));
    },

    /** Drops a section's versions up to `rev` (retention). */
    async pruneUpTo(k: Knex, articleRowId: number, sectionUuid: string, rev: number): Promise<void> {
      await k(revisions()).where({ article_id: articleRowId, section_uuid: sectionUuid }).andWhere('rev', '<=', rev).delete();
    },

    /** A section's earlier versions, newest first (no content). */
    list(k: Knex, articleRowId: number, sectionUuid: string) {
      return k(revisions())
        .where({ article_id: articleRowId, section_uuid: sectionUuid })
        .orderBy('rev', 'desc')
        .select([...REVISION_COLUMNS, 'made_at']);
    },

    /** One earlier version with its content, or undefined. */
    get(k: Knex, articleRowId: number, sectionUuid: string, rev: number) {
      return k(revisions())
        .where({ article_id: articleRowId, section_uuid: sectionUuid, rev })
        .first([...REVISION_COLUMNS, 'markdown', 'html', 'made_at']);
    },

    /** The versions of these sections go (their trash rows expired). */
    async removeFor(k: Knex, articleRowId: number, sectionUuids: string[]): Promise<void> {
      if (sectionUuids.length) await k(revisions()).where({ article_id: articleRowId }).whereIn('section_uuid', sectionUuids).delete();
    },
  });
}
