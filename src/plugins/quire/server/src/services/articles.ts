import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { newId } from '../domain/anchors';
import { outlineTag } from '../domain/etags';
import { invalidArgument } from '../../../../../kernel/errors';
import type { SectionContent } from '../domain/markdown';
import type { Outline } from '../domain/outline';
import type { ArticleRecord, OutlineEntry } from '../schemas/records';
import type { NoteInput, NoteMapEntry } from './notes';
import type { SectionRecord } from './sections';
import type { Actor } from './edits';
import { inTransaction, iso, knexOf, tableName } from '../../../../../kernel/db';
import { articleNotFound, articleUuid, TABLE, toInt, UID } from './store';

export type { ArticleRecord };

/** The stored article row, as other services (publish, import) may need it. */
export interface ArticleRow {
  id: number;
  uuid: string;
  userId: number;
  title: string;
  status: ArticleRecord['status'];
  premise: string | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** Bumped by every write to the article's sections (see services/outlines). */
  outlineRev: number;
}

export interface CreateArticleInput {
  title: string;
  markdown?: string | null;
  premise?: string | null;
  notes?: NoteInput[];
  /** Who wrote the notes: `agent` (the default: imports and triggers) or `human`. */
  notesCreatedBy?: 'agent' | 'human';
  /** Who creates it (history: the first version of each section). */
  actor?: Actor;
  /** `markdown` already split into sections (imports do it in the worker pool with the rest of their parsing). */
  contents?: SectionContent[];
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const ROW_COLUMNS = ['id', 'uuid', 'user_id', 'title', 'status', 'premise', 'created_at', 'updated_at', 'last_published_at', 'outline_rev'];

function toRow(raw): ArticleRow {
  return {
    id: Number(raw.id),
    uuid: raw.uuid,
    userId: Number(raw.user_id),
    title: raw.title,
    status: raw.status,
    premise: raw.premise ?? null,
    createdAt: iso(raw.created_at)!,
    updatedAt: iso(raw.updated_at)!,
    publishedAt: iso(raw.last_published_at),
    outlineRev: Number(raw.outline_rev ?? 0),
  };
}

export function articleRecord(row: ArticleRow, totals: { words: number; sections: number }): ArticleRecord {
  return {
    id: row.uuid,
    title: row.title,
    status: row.status,
    words: totals.words,
    sections: totals.sections,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    publishedAt: row.publishedAt,
  };
}

const totalsOf = (outline: Outline) => ({ words: outline.words, sections: outline.size });

/** An empty premise is no premise. */
export const normalizePremise = (premise: string | null | undefined) => (premise ? premise : null);

/** Opaque list cursor: the position after the last article of a page. */
export function encodeCursor(row: { updatedAt: unknown; id: number }): string {
  return Buffer.from(JSON.stringify([row.updatedAt, row.id])).toString('base64url');
}

function decodeCursor(cursor: string): { updatedAt: Date; id: number } {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const date = new Date(updatedAt);
    if (typeof updatedAt === 'string' && Number.isInteger(id) && !Number.isNaN(date.getTime())) return { updatedAt: date, id };
  } catch {
    // fall through
  }
  throw invalidArgument('cursor is not valid.', 'Pass the nextCursor of the previous page unchanged, or leave cursor out for the first page.');
}

/**
 * Narrows a query on articles `a` to a page of `limit` (and one more, to tell whether a next
 * page exists), most recently updated first, after `cursor` (the nextCursor of the last page).
 */
export function newestFirst(query: Knex.QueryBuilder, limit: number, cursor?: string): Knex.QueryBuilder {
  query
    .orderBy([
      { column: 'a.updated_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ])
    .limit(limit + 1);
  if (cursor) {
    const { updatedAt, id } = decodeCursor(cursor);
    query.andWhere((q) => q.where('a.updated_at', '<', updatedAt).orWhere((q2) => q2.where('a.updated_at', '=', updatedAt).andWhere('a.id', '<', id)));
  }
  return query;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = (alias?: string) => tableName(strapi, TABLE.articles, alias);
  const sectionsService = () => strapi.plugin('quire').service('sections');
  const notesService = () => strapi.plugin('quire').service('notes');
  const outlines = () => strapi.plugin('quire').service('outlines');
  const outlineOf = (row: ArticleRow): Promise<Outline> => sectionsService().outlineOfRow(row.id, row.outlineRev);

  /** The owned article row, or 404. */
  async function findRow(userId: number, rawId: string): Promise<ArticleRow> {
    const uuid = articleUuid(rawId);
    const k = await knexOf(strapi);
    const raw = await k(articles()).where({ uuid, user_id: userId }).first(ROW_COLUMNS);
    if (!raw) throw articleNotFound(rawId);
    return toRow(raw);
  }

  const api = {
    findRow,

    /**
     * Creates an article from a title and optional Markdown (split into sections at its
     * top-level headings; none gives one empty section), premise and notes, in one transaction.
     */
    async createArticle(userId: number, input: CreateArticleInput): Promise<{ article: ArticleRecord; outline: OutlineEntry[] }> {
      // Parsing runs before the transaction, off the event loop.
      const contents = input.contents ?? (input.markdown ? await strapi.plugin('quire').service('workers').splitMarkdown(input.markdown) : []);
      const noteHtmls = input.notes?.length ? await notesService().renderBodies(input.notes) : [];
      return strapi.db.transaction(async ({ onCommit }) => {
        const now = new Date();
        const uuid = newId();
        const premise = normalizePremise(input.premise);
        const created = await strapi.db.query(UID.article).create({
          data: { uuid, userId, title: input.title, status: 'draft', premise, lastPublishedAt: null, outlineRev: 0, createdAt: now, updatedAt: now },
          select: ['id'],
        });
        const outline: Outline = await sectionsService().insertInitial(created.id, contents, input.actor);
        if (input.notes?.length) await notesService().insertMany(created.id, input.notes, input.notesCreatedBy ?? 'agent', noteHtmls);
        onCommit(() => outlines().set(created.id, 0, outline));
        const row: ArticleRow = {
          id: created.id,
          uuid,
          userId,
          title: input.title,
          status: 'draft',
          premise,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
          publishedAt: null,
          outlineRev: 0,
        };
        return { article: articleRecord(row, totalsOf(outline)), outline: outline.entries() };
      }) as unknown as Promise<{ article: ArticleRecord; outline: OutlineEntry[] }>;
    },

    /** The caller's articles, most recently updated first, a page at a time. */
    async listArticles(userId: number, options: { limit?: number; cursor?: string } = {}) {
      const limit = options.limit ?? DEFAULT_PAGE_SIZE;
      const k = await knexOf(strapi);
      const sections = tableName(strapi, TABLE.sections, 's');
      const query = k(articles('a'))
        .where('a.user_id', userId)
        .select(ROW_COLUMNS.map((c) => `a.${c}`))
        .select(
          k(sections).count('*').whereRaw('?? = ??', ['s.article_id', 'a.id']).as('section_count'),
          k(sections).sum('s.words').whereRaw('?? = ??', ['s.article_id', 'a.id']).as('word_count'),
        );
      const raws = await newestFirst(query, limit, options.cursor);
      const page = raws.slice(0, limit);
      const rows = page.map(toRow);
      return {
        articles: rows.map((row, i) => articleRecord(row, { words: toInt(page[i].word_count), sections: toInt(page[i].section_count) })),
        nextCursor: raws.length > limit ? encodeCursor(rows[rows.length - 1]) : null,
      };
    },

    /** The article record, its outline and its brief (premise and notes map). */
    async getArticle(userId: number, rawId: string) {
      return (await api.getArticleTagged(userId, rawId)).data;
    },

    /** getArticle, with the outline's ETag (and each entry's rev when asked). */
    async getArticleTagged(userId: number, rawId: string, options: { includeRev?: boolean } = {}) {
      const row = await findRow(userId, rawId);
      const [outline, notes] = await Promise.all([outlineOf(row), notesService().mapOf(row.id)]);
      return {
        data: {
          article: articleRecord(row, totalsOf(outline)),
          outline: options.includeRev ? outline.entriesWithRev() : outline.entries(),
          brief: { premise: row.premise, notes: notes as NoteMapEntry[] },
        },
        etag: outlineTag(row.uuid, row.outlineRev),
      };
    },

    /** The article record alone. */
    async getRecord(userId: number, rawId: string): Promise<ArticleRecord> {
      const row = await findRow(userId, rawId);
      return articleRecord(row, totalsOf(await outlineOf(row)));
    },

    async updateArticle(userId: number, rawId: string, input: { title: string }): Promise<ArticleRecord> {
      const uuid = articleUuid(rawId);
      const k = await knexOf(strapi);
      const count = await k(articles()).where({ uuid, user_id: userId }).update({ title: input.title, updated_at: new Date() });
      if (!count) throw articleNotFound(rawId);
      return api.getRecord(userId, rawId);
    },

    /** Deletes an article with its sections, notes and publication, in one transaction. */
    async deleteArticle(userId: number, rawId: string): Promise<{ id: string }> {
      const uuid = articleUuid(rawId);
      return inTransaction(strapi, async (trx) => {
        const row = await trx(articles()).where({ uuid, user_id: userId }).first('id');
        if (!row) throw articleNotFound(rawId);
        await trx(tableName(strapi, TABLE.sections)).where({ article_id: row.id }).delete();
        await trx(tableName(strapi, TABLE.notes)).where({ article_id: row.id }).delete();
        // Its history, trash and suggestions go with it.
        for (const table of [TABLE.revisions, TABLE.trash, TABLE.suggestions, TABLE.premiseRevisions, TABLE.liveStates]) await trx(tableName(strapi, table)).where({ article_id: row.id }).delete();
        // Its public copies go too, and the slug is free again.
        await trx(tableName(strapi, TABLE.publications)).where({ article_id: row.id }).delete();
        await trx(articles()).where({ id: row.id }).delete();
        outlines().drop(Number(row.id));
        return { id: uuid };
      });
    },

    /** Sections of an owned article in order, with markdown and html (publish, export). */
    async listSections(articleRowId: number): Promise<SectionRecord[]> {
      return sectionsService().listSections(articleRowId);
    },
  };
  return api;
};
