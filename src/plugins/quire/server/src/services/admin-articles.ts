/**
 * What the admin panel reads of the articles: every user's, with their owner. Editors are
 * admin users, who see all articles; ownership stays with the article's user. The content
 * API (owner-scoped, services/articles) is not involved.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { containsPattern, paginationOf, type Pagination } from '../../../../../kernel/admin-routes';
import { publicUrl } from '../../../../../kernel/config';
import { iso, knexOf, tableName } from '../../../../../kernel/db';
import { notFound } from '../../../../../kernel/errors';
import { normalizeId } from '../domain/anchors';
import { TABLE, toInt } from './store';
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

const USER_UID = 'plugin::users-permissions.user';

const adminArticleNotFound = (rawId: string) =>
  notFound(`No article with id "${rawId.slice(0, 40)}".`, 'It may have been deleted: go back to the articles list.');

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const users = (alias: string) => tableName(strapi, strapi.db.metadata.get(USER_UID).tableName, alias);
  const articles = (alias: string) => tableName(strapi, TABLE.articles, alias);

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

  /** Articles joined to their owner, with their word and section totals (a query to refine, not run yet). */
  function selectArticles(k: Knex) {
    const sections = tableName(strapi, TABLE.sections, 's');
    return k(articles('a'))
      .leftJoin(users('u'), 'u.id', 'a.user_id')
      .select('a.id', 'a.uuid', 'a.title', 'a.status', 'a.created_at', 'a.updated_at', 'a.last_published_at')
      .select({ owner_id: 'u.id', owner_username: 'u.username', owner_email: 'u.email' })
      .select(
        k(sections).count('*').whereRaw('?? = ??', ['s.article_id', 'a.id']).as('section_count'),
        k(sections).sum('s.words').whereRaw('?? = ??', ['s.article_id', 'a.id']).as('word_count'),
      );
  }

  return {
    /** A page of every user's articles, most recently updated first, filtered by title, owner and status. */
    async list(query: AdminArticleQuery): Promise<{ results: AdminArticle[]; pagination: Pagination }> {
      const k = await knexOf(strapi);
      const filter = (q) => {
        if (query.q) q.whereRaw(`lower(??) like ? escape '\\'`, ['a.title', containsPattern(query.q)]);
        if (query.owner !== undefined) q.where('a.user_id', query.owner);
        if (query.status) q.where('a.status', query.status);
        return q;
      };
      const [{ total }] = await filter(k(articles('a'))).count({ total: '*' });
      const rows = await filter(selectArticles(k))
        .orderBy([
          { column: 'a.updated_at', order: 'desc' },
          { column: 'a.id', order: 'desc' },
        ])
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize);
      return { results: rows.map(toAdminArticle), pagination: paginationOf(query.page, query.pageSize, toInt(total)) };
    },

    /** One article of any user, with its public URL while it is published, or 404. */
    async get(rawId: string): Promise<AdminArticleDetail> {
      const uuid = normalizeId(rawId);
      const k = await knexOf(strapi);
      const row = uuid
        ? await selectArticles(k)
            .leftJoin(tableName(strapi, TABLE.publications, 'p'), 'p.article_id', 'a.id')
            .select({ public_slug: 'p.slug' })
            .where('a.uuid', uuid)
            .first()
        : undefined;
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
      const row = uuid ? await (await knexOf(strapi))(articles('a')).where('a.uuid', uuid).first(['a.id', 'a.user_id', 'a.outline_rev']) : undefined;
      if (!row || row.user_id == null) throw adminArticleNotFound(rawId);
      return { actor: { kind: 'editor', adminId, ownerId: Number(row.user_id) }, articleRowId: Number(row.id), outlineRev: Number(row.outline_rev) };
    },

    /** A section's revision (its `rev`), for the canvas's conditional saves; 0 when it is gone. */
    async sectionRev(articleRowId: number, sectionId: string): Promise<number> {
      const row = await (await knexOf(strapi))(tableName(strapi, TABLE.sections)).where({ article_id: articleRowId, uuid: sectionId }).first('rev');
      return row ? Number(row.rev) : 0;
    },

    /**
     * Users who own articles, with how many, for the owner filter: those whose username or
     * email contains `q` (any case), the most prolific first, at most `limit`.
     */
    async owners(options: { q?: string; limit: number }): Promise<Array<ArticleOwner & { articles: number }>> {
      const k = await knexOf(strapi);
      const query = k(articles('a'))
        .join(users('u'), 'u.id', 'a.user_id')
        .groupBy('u.id', 'u.username', 'u.email')
        .select('u.id', 'u.username', 'u.email')
        .count({ articles: '*' })
        .orderBy([
          { column: 'articles', order: 'desc' },
          { column: 'u.username', order: 'asc' },
        ])
        .limit(options.limit);
      if (options.q) {
        const pattern = containsPattern(options.q);
        query.where((q) => q.whereRaw(`lower(??) like ? escape '\\'`, ['u.username', pattern]).orWhereRaw(`lower(??) like ? escape '\\'`, ['u.email', pattern]));
      }
      const rows = await query;
      return rows.map((r: any) => ({ id: Number(r.id), username: r.username, email: r.email, articles: toInt(r.articles) }));
    },
  };
};
