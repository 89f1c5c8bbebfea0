/**
 * quire_sections: the rows of an article's sections and their mapping. Every query is scoped
 * by the article's row id (the caller found the article by owner, or holds its lock); `k` is
 * the Knex handle to run on (the open transaction, or the pool: kernel/db knexOf).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { COMPILED_MAX_ROWS, compiledQuery, repositoryOf, tableName } from '#kernel/db';
import { newId } from '../domain/anchors';
import type { SectionContent } from '../domain/markdown';
import type { OutlineItem } from '../domain/outline';
import type { SectionRecord } from '../schemas/records';
import { findByAnchor, TABLE, UID, type AnchorTarget } from './store';

/** Who wrote a version: stored as by_kind / by_name. */
export interface WrittenBy {
  kind: string;
  name: string;
}

/** What an outline needs of a section. */
export const ITEM_COLUMNS = ['uuid', 'rank', 'level', 'title', 'words', 'source', 'rev'];
/** A section as the single-section reads answer it. */
export const SECTION_COLUMNS = ['uuid', 'level', 'title', 'words', 'source', 'markdown', 'html', 'rev'];
/** A section as the edits engine reads it (history and trash keep all of it). */
export const SECTION_ROW = ['uuid', 'rank', 'level', 'title', 'words', 'source', 'markdown', 'html', 'rev', 'by_kind', 'by_name', 'updated_at'];

/** A section as its history reads it: its row's article and date, and what a version list shows (repositories/revisions REVISION_COLUMNS). */
const VERSION_COLUMNS = ['uuid', 'article_id', 'markdown', 'html', 'updated_at', 'rev', 'title', 'level', 'words', 'source', 'by_kind', 'by_name'];

/** A row of SECTION_ROW. */
export type SectionRow = { uuid: string; source: string; markdown: string | null; html: string } & Record<string, unknown>;

/** A stored section as the API answers it, under `anchor`. */
export function sectionRecord(row, anchor: string): SectionRecord {
  return {
    id: row.uuid,
    anchor,
    level: Number(row.level),
    title: row.title,
    words: Number(row.words),
    source: row.source,
    markdown: row.source === 'html' ? null : (row.markdown ?? ''),
    html: row.html ?? '',
  };
}

/** A section's new content, written as its revision `rev` (updateMany). */
export interface SectionUpdate {
  uuid: string;
  content: SectionContent;
  rev: number;
}

/** The columns a change of content writes. */
function contentColumns({ content, rev }: SectionUpdate, by: WrittenBy, now: Date): Record<string, unknown> {
  return {
    level: content.level,
    title: content.title,
    words: content.words,
    source: content.source,
    markdown: content.markdown,
    html: content.html,
    html_text: content.source === 'html' ? content.htmlText : null,
    rev,
    by_kind: by.kind,
    by_name: by.name,
    updated_at: now,
  };
}

/** Integer columns among those: cast in a CASE, where PostgreSQL cannot infer a parameter's type. */
const INTEGER_COLUMNS = new Set(['level', 'words', 'rev']);

export function sectionRepository(strapi: Core.Strapi) {
  const sections = (alias?: string) => tableName(strapi, TABLE.sections, alias);
  const where = (articleRowId: number, uuid: string) => ({ article_id: articleRowId, uuid });
  // Every section write reads and updates a row: those statements are compiled once (kernel/db compiledQuery).
  const rowsQuery = compiledQuery((k: Knex, n: number, articleRowId: number, ...uuids: string[]) =>
    n === 1 ? k(sections()).where(where(articleRowId, uuids[0])).select(SECTION_ROW).limit(1) : k(sections()).where({ article_id: articleRowId }).whereIn('uuid', uuids).select(SECTION_ROW),
  );
  const updateOneQuery = compiledQuery((k: Knex, _shape: null, ...values: unknown[]) => {
    const [level, title, words, source, markdown, html, html_text, rev, by_kind, by_name, updated_at, articleRowId, uuid] = values;
    return k(sections())
      .where(where(articleRowId as number, uuid as string))
      .update({ level, title, words, source, markdown, html, html_text, rev, by_kind, by_name, updated_at });
  });

  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return Object.assign(
    repositoryOf(strapi, {
      /** The outline items of an article row (unordered: Outline.of orders them). */
      items(k: Knex, articleRowId: number): Promise<OutlineItem[]> {
        return k(sections()).where({ article_id: articleRowId }).select(ITEM_COLUMNS);
      },

      /** The outline items with the article's outline revision, read in one statement (a consistent pair). */
      itemsWithRev(k: Knex, articleRowId: number): Promise<Array<OutlineItem & { outline_rev: number }>> {
        return k(sections('s'))
          .join(tableName(strapi, TABLE.articles, 'a'), 'a.id', 's.article_id')
          .where('s.article_id', articleRowId)
          .select([...ITEM_COLUMNS.map((c) => `s.${c}`), 'a.outline_rev']);
      },

      /** The items with their content (publish, export, the canvas). */
      withContent(k: Knex, articleRowId: number): Promise<Array<OutlineItem & { markdown: string | null; html: string }>> {
        return k(sections())
          .where({ article_id: articleRowId })
          .select([...ITEM_COLUMNS, 'markdown', 'html']);
      },

      /** One section's full row (SECTION_ROW), or undefined. */
      async row(k: Knex, articleRowId: number, uuid: string): Promise<SectionRow | undefined> {
        return (await rowsQuery<SectionRow>(k, '1', 1, articleRowId, uuid))[0];
      },

      /** Several sections' full rows, in no order. */
      rows(k: Knex, articleRowId: number, uuids: string[]): Promise<SectionRow[]> {
        if (!uuids.length) return Promise.resolve([]);
        if (uuids.length <= COMPILED_MAX_ROWS) return rowsQuery<SectionRow>(k, String(uuids.length), uuids.length, articleRowId, ...uuids);
        return k(sections()).where({ article_id: articleRowId }).whereIn('uuid', uuids).select(SECTION_ROW);
      },

      /** A section's revision, or 0 when it is gone. */
      async rev(k: Knex, articleRowId: number, uuid: string): Promise<number> {
        const row = await k(sections()).where(where(articleRowId, uuid)).first('rev');
        return row ? Number(row.rev) : 0;
      },

      /**
       * Writes sections' new content (distinct sections), each as its revision `rev`, by `by`:
       * one UPDATE per 100 sections. A column whose values differ
       * is `CASE uuid WHEN ? THEN ? ... END` (integers cast, so that PostgreSQL can type them).
       */
      async updateMany(k: Knex, articleRowId: number, updates: SectionUpdate[], by: WrittenBy, now: Date): Promise<void> {
        for (let i = 0; i < updates.length; i += 100) {
          const batch = updates.slice(i, i + 100);
          if (batch.length === 1) {
            const c = contentColumns(batch[0], by, now);
            const values = [c.level, c.title, c.words, c.source, c.markdown, c.html, c.html_text, c.rev, c.by_kind, c.by_name, c.updated_at];
            // Knex leaves an undefined column out of an update: such a write is built as before.
            if (values.includes(undefined)) await k(sections()).where(where(articleRowId, batch[0].uuid)).update(c);
            else await updateOneQuery(k, 'one', null, ...values, articleRowId, batch[0].uuid);
            continue;
          }
          const rows = batch.map((u) => contentColumns(u, by, now));
          const column = (name: string, cast?: string) => {
            const all = rows.map((row) => row[name]);
            if (all.every((v) => v === all[0])) return all[0];
            const then = cast ? `CAST(? AS ${cast})` : '?';
            return k.raw(`CASE ?? ${batch.map(() => `WHEN ? THEN ${then}`).join(' ')} END`, ['uuid', ...batch.flatMap((u, j) => [u.uuid, all[j] as Knex.Value])]);
          };
          await k(sections())
            .where({ article_id: articleRowId })
            .whereIn('uuid', batch.map((u) => u.uuid))
            .update(Object.fromEntries(Object.keys(rows[0]).map((name) => [name, column(name, INTEGER_COLUMNS.has(name) ? 'integer' : undefined)])));
        }
      },

      /** Moves a section to `rank` (not a change of content: rev and updatedAt stay). */
      async setRank(k: Knex, articleRowId: number, uuid: string, rank: string): Promise<void> {
        await k(sections()).where(where(articleRowId, uuid)).update({ rank });
      },

      async remove(k: Knex, articleRowId: number, uuid: string): Promise<void> {
        await k(sections()).where(where(articleRowId, uuid)).delete();
      },

      /** Every section of an article (deleting the article). */
      async removeAll(k: Knex, articleRowId: number): Promise<void> {
        await k(sections()).where({ article_id: articleRowId }).delete();
      },
    }),
    {
      /** One section of the caller's article by anchor, with what reading it needs (store `findByAnchor`: one indexed query). */
      byAnchor: (target: AnchorTarget) => findByAnchor(strapi, TABLE.sections, SECTION_COLUMNS, target),
      /** The same, with what its history needs (its row's article, dates and revision columns). */
      versionByAnchor: (target: AnchorTarget) => findByAnchor(strapi, TABLE.sections, VERSION_COLUMNS, target),
      /** Inserts sections with the given ranks (one INSERT per batch, joining the open transaction); returns their outline items. */
      async insert(articleRowId: number, contents: SectionContent[], ranks: string[], by?: WrittenBy, now = new Date()): Promise<OutlineItem[]> {
        const data = contents.map((c, i) => ({
          uuid: newId(),
          articleId: articleRowId,
          rank: ranks[i],
          level: c.level,
          title: c.title,
          words: c.words,
          source: c.source,
          markdown: c.markdown,
          html: c.html,
          // Search matches this for html sections (services/search.ts); null for Markdown ones.
          htmlText: c.source === 'html' ? c.htmlText : null,
          rev: 1,
          byKind: by?.kind ?? null,
          byName: by?.name ?? null,
          createdAt: now,
          updatedAt: now,
        }));
        if (data.length) await strapi.db.query(UID.section).createMany({ data });
        return data.map((d) => ({ uuid: d.uuid, rank: d.rank, level: d.level, title: d.title, words: d.words, source: d.source, rev: 1 }));
      },

      /** Puts a section back as it was (a trash restore): its id, content, revision and authorship. */
      async reinsert(
        articleRowId: number,
        section: { uuid: string; rank: string; content: SectionContent; rev: number; by: { kind: string | null; name: string | null }; createdAt: Date; updatedAt: Date },
      ): Promise<void> {
        const { content: c } = section;
        await strapi.db.query(UID.section).create({
          data: {
            uuid: section.uuid,
            articleId: articleRowId,
            rank: section.rank,
            level: c.level,
            title: c.title,
            words: c.words,
            source: c.source,
            markdown: c.markdown,
            html: c.html,
            htmlText: c.source === 'html' ? c.htmlText : null,
            rev: section.rev,
            byKind: section.by.kind,
            byName: section.by.name,
            createdAt: section.createdAt,
            updatedAt: section.updatedAt,
          },
          select: ['id'],
        });
      },
    },
  );
}

export type SectionRepository = ReturnType<typeof sectionRepository>;
