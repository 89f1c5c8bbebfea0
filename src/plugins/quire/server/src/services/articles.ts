/**
 * Articles (CONTRACT sections 3 and 4): create (with sections, premise and notes, in one
 * transaction), list, read, rename and delete. SQL is in repositories/articles.
 */
import type { Core } from '@strapi/strapi';
import { newId } from '../domain/anchors';
import { outlineTag } from '../domain/etags';
import type { SectionContent } from '../domain/markdown';
import type { Outline } from '../domain/outline';
import type { ArticleRecord, OutlineEntry } from '../schemas/records';
import type { NoteInput, NoteMapEntry } from './notes';
import type { SectionRecord } from './sections';
import type { Actor } from './edit-types';
import type { ArticleChange } from '../domain/article-events';
import { inTransaction } from '#kernel/db';
import { publicUrl } from '#kernel/config';
import { publicPaths } from '../domain/publication';
import { articleRepository, encodeCursor, newestFirst, type ArticleRow } from '../repositories/articles';
import { toInt } from '../repositories/store';
import { articleNotFound, articleUuid, pageAfter } from './article-lookup';
import { getService } from './get-service';

export type { ArticleRecord, ArticleRow };
export { encodeCursor, newestFirst };

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

/**
 * The API's article record. `siteUrl` is the public base URL (kernel/config publicUrl): the
 * record names its public page while it is published.
 */
export function articleRecord(row: ArticleRow, totals: { words: number; sections: number }, siteUrl: string): ArticleRecord {
  return {
    id: row.uuid,
    title: row.title,
    status: row.status,
    words: totals.words,
    sections: totals.sections,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    publishedAt: row.publishedAt,
    publicUrl: row.status === 'published' && row.publicSlug ? publicPaths(siteUrl, row.publicSlug).url : null,
  };
}

const totalsOf = (outline: Outline) => ({ words: outline.words, sections: outline.size });

/** An empty premise is no premise. */
export const normalizePremise = (premise: string | null | undefined) => (premise ? premise : null);

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = articleRepository(strapi);
  const sectionsService = () => getService(strapi, 'sections');
  const notesService = () => getService(strapi, 'notes');
  const outlines = () => getService(strapi, 'outlines');
  const events = () => getService(strapi, 'events');
  /** Who an article event names when a caller passes no actor (other plugins' agents). */
  const someone = (kind: Actor['kind'] = 'human'): Actor => ({ kind, name: '' });
  const recordOf = (row: ArticleRow, totals: { words: number; sections: number }) => articleRecord(row, totals, publicUrl(strapi));
  const outlineOf = (row: ArticleRow): Promise<Outline> => sectionsService().outlineOfRow(row.id, row.outlineRev);

  /** The owned article row, or 404. */
  async function findRow(userId: number, rawId: string): Promise<ArticleRow> {
    const row = await articles.find(userId, articleUuid(rawId));
    if (!row) throw articleNotFound(rawId);
    return row;
  }

  const api = {
    findRow,

    /**
     * Creates an article from a title and optional Markdown (split into sections at its
     * top-level headings; none gives one empty section), premise and notes, in one transaction.
     */
    async createArticle(userId: number, input: CreateArticleInput): Promise<{ article: ArticleRecord; outline: OutlineEntry[] }> {
      // Parsing runs before the transaction, off the event loop.
      const contents = input.contents ?? (input.markdown ? await getService(strapi, 'workers').splitMarkdown(input.markdown) : []);
      const noteHtmls = input.notes?.length ? await notesService().renderBodies(input.notes) : [];
      return strapi.db.transaction(async ({ onCommit }) => {
        const now = new Date();
        const uuid = newId();
        const premise = normalizePremise(input.premise);
        const id = await articles.create({ uuid, userId, title: input.title, premise, now });
        const outline: Outline = await sectionsService().insertInitial(id, contents, input.actor);
        const noteIds: string[] = input.notes?.length ? await notesService().insertMany(id, input.notes, input.notesCreatedBy ?? 'agent', noteHtmls) : [];
        onCommit(() => outlines().set(id, 0, outline));
        const changes: ArticleChange[] = [
          { type: 'article.created' },
          ...outline.items.map((item): ArticleChange => ({ type: 'section.inserted', sectionId: item.uuid, rev: item.rev })),
          ...noteIds.map((noteId): ArticleChange => ({ type: 'note.added', noteId, rev: 1 })),
        ];
        await events().record({ articleId: uuid, ownerId: userId }, input.actor ?? someone(input.notesCreatedBy ?? 'agent'), changes);
        const row: ArticleRow = {
          id,
          uuid,
          userId,
          title: input.title,
          status: 'draft',
          premise,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
          publishedAt: null,
          outlineRev: 0,
          publicSlug: null,
        };
        return { article: recordOf(row, totalsOf(outline)), outline: outline.entries() };
      }) as unknown as Promise<{ article: ArticleRecord; outline: OutlineEntry[] }>;
    },

    /** The caller's articles, most recently updated first, a page at a time. */
    async listArticles(userId: number, options: { limit?: number; cursor?: string } = {}) {
      const limit = options.limit ?? DEFAULT_PAGE_SIZE;
      const found = await articles.page(userId, limit, pageAfter(options.cursor));
      const page = found.slice(0, limit);
      return {
        articles: page.map(({ row, words, sections }) => recordOf(row, { words: toInt(words), sections: toInt(sections) })),
        nextCursor: found.length > limit ? encodeCursor(page[page.length - 1].row) : null,
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
          article: recordOf(row, totalsOf(outline)),
          outline: options.includeRev ? outline.entriesWithRev() : outline.entries(),
          brief: { premise: row.premise, notes: notes as NoteMapEntry[] },
        },
        etag: outlineTag(row.uuid, row.outlineRev),
      };
    },

    /** The article record alone. */
    async getRecord(userId: number, rawId: string): Promise<ArticleRecord> {
      const row = await findRow(userId, rawId);
      return recordOf(row, totalsOf(await outlineOf(row)));
    },

    async updateArticle(userId: number, rawId: string, input: { title: string }, actor: Actor = someone()): Promise<ArticleRecord> {
      const uuid = articleUuid(rawId);
      if (!(await articles.update(userId, uuid, { title: input.title }))) throw articleNotFound(rawId);
      await events().record({ articleId: uuid, ownerId: userId }, actor, [{ type: 'article.updated' }]);
      return api.getRecord(userId, rawId);
    },

    /** Deletes an article with its sections, notes and publication, in one transaction. */
    async deleteArticle(userId: number, rawId: string, actor: Actor = someone()): Promise<{ id: string }> {
      const uuid = articleUuid(rawId);
      return inTransaction(strapi, async (trx) => {
        const id = await articles.in(trx).idOf(userId, uuid);
        if (id === undefined) throw articleNotFound(rawId);
        // Its history, trash and suggestions go with it; its public copies too, and the slug is free again.
        await articles.in(trx).removeWithContent(id);
        outlines().drop(id);
        await events().record({ articleId: uuid, ownerId: userId }, actor, [{ type: 'article.deleted' }]);
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
