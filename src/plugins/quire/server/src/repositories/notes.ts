/**
 * quire_notes: the notes of an article's Brief, scoped by article row id.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { compiledQuery, repositoryOf, tableName } from '#kernel/db';
import { newId } from '../domain/anchors';
import type { NoteAuthor, NoteKind } from '../schemas/records';
import { findByAnchor, TABLE, UID, type AnchorTarget } from './store';

/** What the notes map needs. */
export const MAP_COLUMNS = ['id', 'uuid', 'kind', 'title', 'url', 'rev'];
/** A note in full. */
export const FULL_COLUMNS = ['id', 'uuid', 'kind', 'title', 'url', 'body', 'html', 'author', 'rev'];

export interface NoteRow {
  id: number | string;
  uuid: string;
  kind: NoteKind;
  title: string;
  url: string | null;
  rev: number;
  body?: string | null;
  html?: string | null;
  author?: NoteAuthor;
}

/** A new note's stored fields (body and url already normalised, html rendered). */
export interface NewNote {
  kind: NoteKind;
  title: string;
  body: string | null;
  url: string | null;
  html: string;
}

export function noteRepository(strapi: Core.Strapi) {
  const notes = () => tableName(strapi, TABLE.notes);
  // A note's write reads the article's notes (for anchors) and updates one: both compiled once (kernel/db compiledQuery).
  const mapRowsQuery = compiledQuery((k: Knex, _shape: null, articleRowId: number) => k(notes()).where({ article_id: articleRowId }).select(MAP_COLUMNS));
  const updateQuery = compiledQuery((k: Knex, columns: string[], now: Date, articleRowId: number, uuid: string, ...values: unknown[]) =>
    k(notes())
      .where({ article_id: articleRowId, uuid })
      .update({ ...Object.fromEntries(columns.map((c, i) => [c, values[i]])), rev: k.raw('?? + 1', ['rev']), updated_at: now })
      .returning(FULL_COLUMNS),
  );
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return Object.assign(
    repositoryOf(strapi, {
      /** The notes of an article row, map columns (unordered). */
      mapRows(k: Knex, articleRowId: number): Promise<NoteRow[]> {
        return mapRowsQuery<NoteRow>(k, 'map', null, articleRowId);
      },

      /** The notes of an article row, in full (unordered). */
      fullRows(k: Knex, articleRowId: number): Promise<NoteRow[]> {
        return k(notes()).where({ article_id: articleRowId }).select(FULL_COLUMNS);
      },

      /** One note in full, or undefined. */
      get(k: Knex, articleRowId: number, uuid: string): Promise<NoteRow | undefined> {
        return k(notes()).where({ article_id: articleRowId, uuid }).first(FULL_COLUMNS);
      },

      /** Changes the given fields of a note in one UPDATE, its revision + 1; the note as it now is (RETURNING: no second read). */
      async update(k: Knex, articleRowId: number, uuid: string, fields: Partial<NewNote>): Promise<NoteRow> {
        // Compiled once per set of fields changed (kernel/db compiledQuery); Knex leaves undefined ones out, so do we.
        const columns = (Object.keys(fields) as Array<keyof NewNote>).filter((c) => fields[c] !== undefined).sort();
        const rows = await updateQuery<NoteRow>(k, columns.join(','), columns, new Date(), articleRowId, uuid, ...columns.map((c) => fields[c]));
        return rows[0];
      },

      async remove(k: Knex, articleRowId: number, uuid: string): Promise<void> {
        await k(notes()).where({ article_id: articleRowId, uuid }).delete();
      },
    }),
    {
      /** One note of the caller's article by anchor, every column a note answers with (store `findByAnchor`: one indexed query). */
      byAnchor: (target: AnchorTarget) => findByAnchor(strapi, TABLE.notes, FULL_COLUMNS, target),
      /** Inserts notes of an article row (one INSERT per batch, joining the open transaction), keeping their order; their ids. */
      async insertMany(articleRowId: number, inputs: NewNote[], author: NoteAuthor): Promise<string[]> {
        const data = inputs.map((input) => ({ uuid: newId(), articleId: articleRowId, ...input, author, rev: 1 }));
        if (data.length) await strapi.db.query(UID.note).createMany({ data });
        return data.map((d) => d.uuid);
      },
    },
  );
}
