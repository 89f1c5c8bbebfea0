/**
 * quire_trash: deleted sections with their content, revision and authorship, scoped by
 * article row id.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { iso, repositoryOf, tableName } from '#kernel/db';
import { keptVersionColumns } from './revisions';
import type { SectionRow, WrittenBy } from './sections';
import { TABLE } from './store';

/** A section of the trash, as a restore puts it back. */
export interface TrashedSection {
  uuid: string;
  level: number;
  title: string;
  words: number;
  source: string;
  markdown: string | null;
  html: string;
  rev: number;
  /** Who wrote its last version (as stored: null for rows from before history was kept). */
  by: { kind: string | null; name: string | null };
  madeAt: Date | null;
}

/** A section of the trash as its listing shows it. */
export interface TrashListing {
  uuid: string;
  title: string;
  level: number;
  words: number;
  deletedAt: string;
  /** Who deleted it (as stored). */
  deletedBy: { kind: string | null; name: string | null };
}

/** The trash row of a section `deletedBy` deletes now. */
function trashRowOf(articleRowId: number, row: SectionRow, deletedBy: WrittenBy, now: Date) {
  return {
    article_id: articleRowId,
    uuid: row.uuid,
    rank: row.rank,
    ...keptVersionColumns(row),
    deleted_at: now,
    deleted_by_kind: deletedBy.kind,
    deleted_by_name: deletedBy.name,
    created_at: now,
    updated_at: now,
  };
}

/** A trash row in full, as a restore takes it. */
function trashedSectionOf(raw): TrashedSection {
  return {
    uuid: raw.uuid,
    level: Number(raw.level),
    title: raw.title,
    words: Number(raw.words),
    source: raw.source,
    markdown: raw.markdown,
    html: raw.html,
    rev: Number(raw.rev),
    by: { kind: raw.by_kind ?? null, name: raw.by_name ?? null },
    madeAt: raw.made_at ? new Date(iso(raw.made_at)!) : null,
  };
}

export function trashRepository(strapi: Core.Strapi) {
  const trash = () => tableName(strapi, TABLE.trash);
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** Puts a section, as `deletedBy` deletes it now, in the trash (replacing an earlier trashed copy of the same id). */
    async put(k: Knex, articleRowId: number, section: SectionRow, deletedBy: WrittenBy, now: Date): Promise<void> {
      await k(trash()).where({ article_id: articleRowId, uuid: section.uuid }).delete();
      await k(trash()).insert(trashRowOf(articleRowId, section, deletedBy, now));
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
    async list(k: Knex, articleRowId: number): Promise<TrashListing[]> {
      const rows = await k(trash())
        .where({ article_id: articleRowId })
        .orderBy([
          { column: 'deleted_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .select(['uuid', 'title', 'level', 'words', 'deleted_at', 'deleted_by_kind', 'deleted_by_name']);
      return rows.map((r) => ({
        uuid: r.uuid,
        title: r.title,
        level: Number(r.level),
        words: Number(r.words),
        deletedAt: iso(r.deleted_at)!,
        deletedBy: { kind: r.deleted_by_kind ?? null, name: r.deleted_by_name ?? null },
      }));
    },

    /** Every trashed section in full (a restore resolves its anchor among them). */
    async all(k: Knex, articleRowId: number): Promise<TrashedSection[]> {
      const rows = await k(trash()).where({ article_id: articleRowId }).select('*');
      return rows.map(trashedSectionOf);
    },
  });
}
