/**
 * What the admin panel reads of the articles: every user's, with their owner. Editors are
 * admin users, who see all articles; ownership stays with the article's user. The content
 * API (owner-scoped, services/articles) is not involved.
 */
import type { Core } from '@strapi/strapi';
import { paginationOf, type Pagination } from '../../../../../kernel/admin-routes';
import { publicUrl } from '../../../../../kernel/config';
import { iso, knexOf } from '../../../../../kernel/db';
import { notFound } from '../../../../../kernel/errors';
import { normalizeId } from '../domain/anchors';
import { adminArticleRepository } from '../repositories/admin-articles';
import { sectionRepository } from '../repositories/sections';
import { toInt } from '../repositories/store';
import type { AdminArticle, AdminArticleDetail } from '../schemas/admin';
import { ARTICLE_STATUSES } from '../schemas/records';

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

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = adminArticleRepository(strapi);
  const sections = sectionRepository(strapi);

  function toAdminArticle(raw): AdminArticle {
    return {
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

  return {
    /** A page of every user's articles, most recently updated first, filtered by title, owner and status. */
    async list(query: AdminArticleQuery): Promise<{ results: AdminArticle[]; pagination: Pagination }> {
      const { total, rows } = await articles.page(await knexOf(strapi), query, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
      return { results: rows.map(toAdminArticle), pagination: paginationOf(query.page, query.pageSize, toInt(total)) };
    },

    /** One article of any user, with its public URL while it is published, or 404. */
    async get(rawId: string): Promise<AdminArticleDetail> {
      const uuid = normalizeId(rawId);
      const row = uuid ? await articles.one(await knexOf(strapi), uuid) : undefined;
      if (!row) throw adminArticleNotFound(rawId);
      const article = toAdminArticle(row);
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
      const row = uuid ? await articles.located(await knexOf(strapi), uuid) : undefined;
      if (!row || row.userId === null) throw adminArticleNotFound(rawId);
      return { actor: { kind: 'editor', adminId, ownerId: row.userId }, articleRowId: row.id, outlineRev: row.outlineRev };
    },

    /** A section's revision (its `rev`), for the canvas's conditional saves; 0 when it is gone. */
    async sectionRev(articleRowId: number, sectionId: string): Promise<number> {
      return sections.rev(await knexOf(strapi), articleRowId, sectionId);
    },

    /**
     * Users who own articles, with how many, for the owner filter: those whose username or
     * email contains `q` (any case), the most prolific first, at most `limit`.
     */
    async owners(options: { q?: string; limit: number }): Promise<Array<ArticleOwner & { articles: number }>> {
      const rows = await articles.owners(await knexOf(strapi), options);
      return rows.map((r: any) => ({ id: Number(r.id), username: r.username, email: r.email, articles: toInt(r.articles) }));
    },
  };
};
