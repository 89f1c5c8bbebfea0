/**
 * quire_section_revisions: the earlier versions of sections (the current one is the section's
 * row), scoped by article row id.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { compiledQuery, iso, repositoryOf, tableName } from '#kernel/db';
import type { SectionContent } from '../domain/markdown';
import type { SectionRow } from './sections';
import { TABLE } from './store';

/** What a version list shows of each. */
export const REVISION_COLUMNS = ['rev', 'title', 'level', 'words', 'source', 'by_kind', 'by_name'];

/** A kept version, as written. */
export type RevisionRow = Record<string, unknown> & { article_id: number; section_uuid: string; rev: number };

/** The columns of a revision row (revisionRowOf). */
const REVISION_ROW = ['article_id', 'section_uuid', 'rev', 'level', 'title', 'words', 'source', 'markdown', 'html', 'by_kind', 'by_name', 'made_at', 'created_at', 'updated_at'];

/** A version of a section: an earlier one, or the current one (the section's row). */
export interface SectionVersion {
  rev: number;
  title: string;
  level: number;
  words: number;
  source: SectionContent['source'];
  /** Only when read with its content. */
  markdown?: string | null;
  html?: string | null;
  /** Who wrote it (as stored: null for rows from before history was kept). */
  by: { kind: string | null; name: string | null };
  /** When it was written, ISO (null when not known). */
  madeAt: string | null;
}

/**
 * The columns that keep a section's version as it is now (its content, revision, who wrote it
 * and when): a revision row and a trash row both hold them.
 */
export function keptVersionColumns(row: SectionRow) {
  return {
    rev: Number(row.rev),
    level: Number(row.level),
    title: row.title,
    words: Number(row.words),
    source: row.source,
    markdown: row.markdown,
    html: row.html,
    by_kind: row.by_kind ?? null,
    by_name: row.by_name ?? null,
    made_at: row.updated_at ?? null,
  };
}

/** The revision row that keeps a section's current version (`keptAt` now). */
export function revisionRowOf(articleRowId: number, row: SectionRow, keptAt: Date): RevisionRow {
  return { article_id: articleRowId, section_uuid: row.uuid, ...keptVersionColumns(row), created_at: keptAt, updated_at: keptAt };
}

/** A version as read from a revision row (`made_at`), or from a section's row (`updated_at`). */
function versionOf(row, madeAt: unknown): SectionVersion {
  const version: SectionVersion = {
    rev: Number(row.rev),
    title: row.title,
    level: Number(row.level),
    words: Number(row.words),
    source: row.source,
    by: { kind: row.by_kind ?? null, name: row.by_name ?? null },
    madeAt: iso(madeAt),
  };
  if ('markdown' in row) version.markdown = row.markdown;
  if ('html' in row) version.html = row.html;
  return version;
}

/** A section's current version, from its row (`sections.versionByAnchor`). */
export const currentVersionOf = (row: SectionRow): SectionVersion => versionOf(row, row.updated_at);

export function revisionRepository(strapi: Core.Strapi) {
  const revisions = () => tableName(strapi, TABLE.revisions);
  const insertOneQuery = compiledQuery((k: Knex, _shape: null, ...values: unknown[]) => k(revisions()).insert(Object.fromEntries(REVISION_ROW.map((column, i) => [column, values[i]]))));
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** Writes kept versions, one INSERT per 100. */
    async insertMany(k: Knex, rows: RevisionRow[]): Promise<void> {
      // A write keeps one version, most often: that insert is compiled once (kernel/db compiledQuery).
      const values = rows.length === 1 ? REVISION_ROW.map((column) => rows[0][column]) : [];
      if (rows.length === 1 && Object.keys(rows[0]).length === REVISION_ROW.length && !values.includes(undefined)) {
        await insertOneQuery(k, 'one', null, ...values);
        return;
      }
      for (let i = 0; i < rows.length; i += 100) await k(revisions()).insert(rows.slice(i, i + 100));
    },

    /** Drops a section's versions up to `rev` (retention). */
    async pruneUpTo(k: Knex, articleRowId: number, sectionUuid: string, rev: number): Promise<void> {
      await k(revisions()).where({ article_id: articleRowId, section_uuid: sectionUuid }).andWhere('rev', '<=', rev).delete();
    },

    /** A section's earlier versions, newest first (no content). */
    async list(k: Knex, articleRowId: number, sectionUuid: string): Promise<SectionVersion[]> {
      const rows = await k(revisions())
        .where({ article_id: articleRowId, section_uuid: sectionUuid })
        .orderBy('rev', 'desc')
        .select([...REVISION_COLUMNS, 'made_at']);
      return rows.map((r) => versionOf(r, r.made_at));
    },

    /** One earlier version with its content, or null. */
    async get(k: Knex, articleRowId: number, sectionUuid: string, rev: number): Promise<SectionVersion | null> {
      const row = await k(revisions())
        .where({ article_id: articleRowId, section_uuid: sectionUuid, rev })
        .first([...REVISION_COLUMNS, 'markdown', 'html', 'made_at']);
      return row ? versionOf(row, row.made_at) : null;
    },

    /** The versions of these sections go (their trash rows expired). */
    async removeFor(k: Knex, articleRowId: number, sectionUuids: string[]): Promise<void> {
      if (sectionUuids.length) await k(revisions()).where({ article_id: articleRowId }).whereIn('section_uuid', sectionUuids).delete();
    },
  });
}
