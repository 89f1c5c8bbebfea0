/**
 * What the admin panel reads of the articles: every user's, with their owner. Editors are
 * admin users, who see all articles; ownership stays with the article's user. The content
 * API (owner-scoped, services/articles) is not involved.
 */
import type { Core } from '@strapi/strapi';
import { containsPattern, paginationOf, type Pagination } from '#kernel/admin-routes';
import { publicUrl } from '#kernel/config';
import { inTransaction, iso } from '#kernel/db';
import { invalidArgument, notFound } from '#kernel/errors';
import { normalizeId } from '../domain/anchors';
import type { ArticleChange, EventActor } from '../domain/article-events';
import { adminArticleRepository } from '../repositories/admin-articles';
import { sectionRepository } from '../repositories/sections';
import { articleTrashRepository, type TrashedArticleRow } from '../repositories/article-trash';
import { panelWidgetsRepository } from '../repositories/panel-widgets';
import { threadRepository } from '../repositories/threads';
import { toInt } from '../repositories/store';
import type { AdminArticle, AdminArticleDetail } from '../schemas/admin';
import { ARTICLE_STATUSES } from '../schemas/records';
import { getService } from './get-service';

export { ARTICLE_STATUSES };
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];
export type { AdminArticle, AdminArticleDetail };

/**
 * Who acts when an editor works in the canvas: the admin user, on an article that stays its
 * owner's. The content services are called with `ownerId` (they scope every query by owner);
 * what they record of the author says `editor` / `human`.
 */
export interface EditorActor {
  kind: 'editor';
  adminId: number;
  /** The article's owner (a users-permissions user). */
  ownerId: number;
}

export interface ArticleOwner {
  id: number;
  username: string;
  email: string;
}

export interface AdminArticleQuery {
  page: number;
  pageSize: number;
  /** Part of the title, any case. */
  q?: string;
  /** Owner's user id. */
  owner?: number;
  status?: ArticleStatus;
}


const adminArticleNotFound = (rawId: string) =>
  notFound(`No article with id "${rawId.slice(0, 40)}".`, 'It may have been deleted: go back to the articles list.');

const notInTrash = (rawId: string) =>
  notFound(`No deleted article with id "${rawId.slice(0, 40)}" in the trash.`, 'It may have been restored already, or purged after 30 days: look in the articles list.');

/** Deleted articles stay restorable as long as deleted sections do (services/history TRASH_DAYS; not imported, to keep the admin bundle's types light). */
export const ARTICLE_TRASH_DAYS = 30;
const TRASH_MS = ARTICLE_TRASH_DAYS * 24 * 60 * 60 * 1000;
/** How often the trash is swept of articles older than 30 days (and at boot). */
export const ARTICLE_SWEEP_MS = 60 * 60 * 1000;

/** An editor as events and the trash name them. */
export type Editor = EventActor & { kind: 'editor' };

export type { TrashedArticleRow };

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const articlesRepo = adminArticleRepository(strapi);
  const sectionsRepo = sectionRepository(strapi);

  const trashRepo = articleTrashRepository(strapi);

  const threadsRepo = threadRepository(strapi);

  /**
   * The articles with their "changed since published" flag and open threads (rows: their
   * stored rows, in the same order): two queries for the whole page, whatever its size.
   */
  async function withChanged(rows: Array<{ id: unknown }>, mapped: AdminArticle[]): Promise<AdminArticle[]> {
    const rowIds = rows.map((r) => Number(r.id));
    const [changed, open] = await Promise.all([trashRepo.changedSincePublished(rowIds), threadsRepo.openCounts(rowIds)]);
    return mapped.map((article, i) => ({ ...article, changedSincePublished: changed.has(rowIds[i]), openThreads: open.get(rowIds[i]) ?? 0 }));
  }

  function toAdminArticle(raw): AdminArticle {
    return {
      changedSincePublished: false,
      openThreads: 0,
      id: raw.uuid,
      title: raw.title,
      status: raw.status,
      words: toInt(raw.word_count),
      sections: toInt(raw.section_count),
      owner: raw.owner_id == null ? null : { id: Number(raw.owner_id), username: raw.owner_username, email: raw.owner_email },
      createdAt: iso(raw.created_at)!,
      updatedAt: iso(raw.updated_at)!,
      publishedAt: iso(raw.last_published_at),
    };
  }

  let sweepTimer: NodeJS.Timeout | null = null;

  const api = {
    /** A page of every user's articles, most recently updated first, filtered by title, owner and status. */
    async list(query: AdminArticleQuery): Promise<{ results: AdminArticle[]; pagination: Pagination }> {
      const { total, rows } = await articlesRepo.page(query, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
      return { results: await withChanged(rows, rows.map(toAdminArticle)), pagination: paginationOf(query.page, query.pageSize, toInt(total)) };
    },

    /** One article of any user, with its public URL while it is published, or 404. */
    async get(rawId: string): Promise<AdminArticleDetail> {
      const uuid = normalizeId(rawId);
      const row = uuid ? await articlesRepo.one(uuid) : undefined;
      if (!row) throw adminArticleNotFound(rawId);
      const [article] = await withChanged([row], [toAdminArticle(row)]);
      const live = article.status === 'published' && row.public_slug;
      return { ...article, publicUrl: live ? `${publicUrl(strapi)}/p/${row.public_slug}` : null };
    },

    /**
     * The editor acting on an article of any user: its owner (whom the content services are
     * called for), its row id and outline revision. 404 when there is no such article, or its
     * owner's account is gone.
     */
    async actorFor(adminId: number, rawId: string): Promise<{ actor: EditorActor; articleRowId: number; outlineRev: number }> {
      const uuid = normalizeId(rawId);
      const row = uuid ? await articlesRepo.located(uuid) : undefined;
      if (!row || row.userId === null) throw adminArticleNotFound(rawId);
      return { actor: { kind: 'editor', adminId, ownerId: row.userId }, articleRowId: row.id, outlineRev: row.outlineRev };
    },

    /** A section's revision (its `rev`), for the canvas's conditional saves; 0 when it is gone. */
    async sectionRev(articleRowId: number, sectionId: string): Promise<number> {
      return sectionsRepo.rev(articleRowId, sectionId);
    },

    /**
     * Creates an article for a user (its owner: articles belong to the server's users, editors
     * act on them) from a title and optional Markdown, its first versions by the editor.
     */
    async create(editor: Editor, input: { title: string; markdown?: string | null; owner: number }): Promise<AdminArticleDetail> {
      if (!(await trashRepo.userExists(input.owner))) throw invalidArgument(`There is no user with id ${input.owner}.`, 'Pick the owner among the server\'s users (GET /quire/users).');
      // createArticle publishes article.created, by the editor.
      const { article } = await getService(strapi, 'articles').createArticle(input.owner, { title: input.title, markdown: input.markdown ?? null, actor: editor });
      return api.get(article.id);
    },

    /** Renames a live article. */
    async rename(editor: Editor, rawId: string, title: string): Promise<AdminArticleDetail> {
      const { actor } = await api.actorFor(0, rawId);
      // updateArticle publishes article.updated, by the editor.
      await getService(strapi, 'articles').updateArticle(actor.ownerId, rawId, { title }, editor);
      return api.get(rawId);
    },

    /**
     * Moves an article to the trash (restorable for 30 days): gone from the content API (404),
     * the lists and its public address, everything it has kept.
     */
    async trash(editor: Editor, rawId: string): Promise<{ id: string }> {
      const uuid = normalizeId(rawId);
      if (!uuid) throw adminArticleNotFound(rawId);
      const moved = await inTransaction(strapi, async (trx) => {
        const live = await trashRepo.in(trx).findLive(uuid);
        if (!live) throw adminArticleNotFound(rawId);
        if (!(await trashRepo.in(trx).trash(live.id, live.ownerId, editor.name, new Date()))) throw adminArticleNotFound(rawId);
        return live;
      });
      // After the commit above: out now, to the live canvas and the other subscribers.
      await getService(strapi, 'events').record({ articleId: uuid, ownerId: moved.ownerId }, editor, [{ type: 'article.deleted' }]);
      return { id: uuid };
    },

    /** Puts an article of the trash back, with its owner, content and history (a draft: publish it again to put it online). */
    async restore(editor: Editor, rawId: string): Promise<AdminArticleDetail> {
      const uuid = normalizeId(rawId);
      if (!uuid) throw notInTrash(rawId);
      const restored = await inTransaction(strapi, async (trx) => {
        const trashed = await trashRepo.in(trx).findTrashed(uuid);
        if (!trashed) throw notInTrash(rawId);
        if (!(await trashRepo.in(trx).restore(trashed.id, trashed.ownerId, new Date()))) throw notInTrash(rawId);
        return trashed;
      });
      await getService(strapi, 'events').record({ articleId: uuid, ownerId: restored.ownerId }, editor, [{ type: 'article.created' }]);
      return api.get(uuid);
    },

    /** The trash: articles deleted in the last 30 days, most recently deleted first (older ones are purged first). */
    async trashList(page: number, pageSize: number): Promise<{ results: Array<TrashedArticleRow & { purgeAt: string }>; pagination: Pagination }> {
      await api.sweep();
      const { rows, total } = await trashRepo.list(page, pageSize);
      return {
        results: rows.map((row) => ({ ...row, purgeAt: new Date(new Date(row.deletedAt).getTime() + TRASH_MS).toISOString() })),
        pagination: paginationOf(page, pageSize, total),
      };
    },

    /** Deletes for good the articles trashed more than 30 days ago (a batch at a time); how many went. */
    async sweep(now = Date.now()): Promise<number> {
      let purged = 0;
      for (;;) {
        const ids = await trashRepo.expired(new Date(now - TRASH_MS), 50);
        if (!ids.length) return purged;
        await inTransaction(strapi, (trx) => trashRepo.in(trx).purge(ids));
        for (const id of ids) getService(strapi, 'outlines').drop(id);
        purged += ids.length;
      }
    },

    /** Sweeps now, then hourly in the background. */
    async startSweeps(): Promise<void> {
      const run = () => api.sweep().catch((error) => strapi.log.warn(`quire: article trash sweep failed: ${error?.message ?? error}`));
      await run();
      sweepTimer = setInterval(run, ARTICLE_SWEEP_MS);
      sweepTimer.unref();
    },

    stopSweeps(): void {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
    },

    /** The users an editor can give a new article to (username or email containing `q`). */
    async users(options: { q?: string; limit: number }) {
      return trashRepo.users(options.q ? containsPattern(options.q) : null, options.limit);
    },

    /** The public page the article would have if published now (noindex), for editors. */
    async preview(rawId: string): Promise<{ html: string; url: string }> {
      const { actor } = await api.actorFor(0, rawId);
      return getService(strapi, 'publications').preview(actor.ownerId, rawId);
    },

    /** Home widget: the articles agents changed most recently. */
    async agentChanges(limit: number) {
      return { articles: await panelWidgetsRepository(strapi).agentChanges(limit) };
    },

    /** Home widget: the articles with suggestions waiting for an editor. */
    async pendingSuggestions(limit: number) {
      return panelWidgetsRepository(strapi).pendingSuggestions(limit);
    },

    /**
     * Users who own articles, with how many, for the owner filter: those whose username or
     * email contains `q` (any case), the most prolific first, at most `limit`.
     */
    async owners(options: { q?: string; limit: number }): Promise<Array<ArticleOwner & { articles: number }>> {
      const rows = await articlesRepo.owners(options);
      return rows.map((r: any) => ({ id: Number(r.id), username: r.username, email: r.email, articles: toInt(r.articles) }));
    },
  };
  return api;
};
