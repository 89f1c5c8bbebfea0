/**
 * The articles family as the admin panel reads it: every user's articles joined to their
 * owner (users-permissions users), with word and section totals. Articles in the trash
 * (`deleted_at` set) are left out.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { containsPattern } from '#kernel/admin-routes';
import { repositoryOf, tableName } from '#kernel/db';
import { TABLE } from './store';

const USER_UID = 'plugin::users-permissions.user';

export interface AdminArticleFilter {
  q?: string;
  owner?: number;
  status?: string;
}

export function adminArticleRepository(strapi: Core.Strapi) {
  const users = (alias: string) => tableName(strapi, strapi.db.metadata.get(USER_UID).tableName, alias);
  const articles = (alias: string) => tableName(strapi, TABLE.articles, alias);

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

  const filtered = (q: Knex.QueryBuilder, filter: AdminArticleFilter) => {
    q.whereNull('a.deleted_at');
    if (filter.q) q.whereRaw(`lower(??) like ? escape '\\'`, ['a.title', containsPattern(filter.q)]);
    if (filter.owner !== undefined) q.where('a.user_id', filter.owner);
    if (filter.status) q.where('a.status', filter.status);
    return q;
  };

  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** How many articles match, and one page of them, most recently updated first. */
    async page(k: Knex, filter: AdminArticleFilter, page: { limit: number; offset: number }) {
      const [{ total }] = await filtered(k(articles('a')), filter).count({ total: '*' });
      const rows = await filtered(selectArticles(k), filter)
        .orderBy([
          { column: 'a.updated_at', order: 'desc' },
          { column: 'a.id', order: 'desc' },
        ])
        .limit(page.limit)
        .offset(page.offset);
      return { total, rows };
    },

    /** One article of any user, with its publication's slug, or undefined. */
    one(k: Knex, uuid: string) {
      return selectArticles(k)
        .leftJoin(tableName(strapi, TABLE.publications, 'p'), 'p.article_id', 'a.id')
        .select({ public_slug: 'p.slug' })
        .where('a.uuid', uuid)
        .whereNull('a.deleted_at')
        .first();
    },

    /** An article's row id, owner and outline revision, or undefined. */
    async located(k: Knex, uuid: string): Promise<{ id: number; userId: number | null; outlineRev: number } | undefined> {
      const row = await k(articles('a')).where('a.uuid', uuid).whereNull('a.deleted_at').first(['a.id', 'a.user_id', 'a.outline_rev']);
      return row ? { id: Number(row.id), userId: row.user_id == null ? null : Number(row.user_id), outlineRev: Number(row.outline_rev) } : undefined;
    },

    /** Users who own articles, with how many, those whose username or email contains `q`, the most prolific first. */
    owners(k: Knex, options: { q?: string; limit: number }) {
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
      return query;
    },
  });
}
