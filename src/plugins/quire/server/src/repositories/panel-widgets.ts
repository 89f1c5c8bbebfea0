/**
 * SQL of Quire's home widgets in the admin panel: the articles agents changed most recently,
 * and the articles with suggestions waiting for a decision. Only live articles (not in the
 * trash, their owner's account still there).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { iso, repositoryOf, tableName } from '#kernel/db';
import { TABLE, toInt } from '../repositories/store';

/** How many of the newest agent-written sections are read to find the articles they belong to. */
const AGENT_SECTIONS_SCANNED = 200;

export const panelWidgetsRepository = (strapi: Core.Strapi) => {
  const live = (k: Knex, alias = 'a') => k(tableName(strapi, TABLE.articles, alias)).whereNull(`${alias}.deleted_at`).whereNotNull(`${alias}.user_id`);

  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** The articles whose sections an agent changed last, newest first: id, title, when and which agent. */
    async agentChanges(k: Knex, limit: number): Promise<Array<{ id: string; title: string; changedAt: string; by: string }>> {
      const rows = await live(k)
        .join(tableName(strapi, TABLE.sections, 's'), 's.article_id', 'a.id')
        .where('s.by_kind', 'agent')
        .orderBy('s.updated_at', 'desc')
        .limit(AGENT_SECTIONS_SCANNED)
        .select('a.uuid', 'a.title', 's.updated_at', 's.by_name');
      const seen = new Map<string, { id: string; title: string; changedAt: string; by: string }>();
      for (const r of rows as any[]) {
        if (!seen.has(r.uuid)) seen.set(r.uuid, { id: r.uuid, title: r.title, changedAt: iso(r.updated_at)!, by: r.by_name ?? '' });
        if (seen.size >= limit) break;
      }
      return [...seen.values()];
    },

    /** Articles with pending suggestions, the most recent suggestion first, and how many are pending in all. */
    async pendingSuggestions(k: Knex, limit: number): Promise<{ total: number; articles: Array<{ id: string; title: string; pending: number; newestAt: string }> }> {
      const pending = () =>
        live(k)
          .join(tableName(strapi, TABLE.suggestions, 'g'), 'g.article_id', 'a.id')
          .where('g.status', 'pending');
      const [{ total }] = await pending().count({ total: '*' });
      const rows = await pending()
        .groupBy('a.id', 'a.uuid', 'a.title')
        .select('a.uuid', 'a.title')
        .count({ pending: '*' })
        .max({ newest: 'g.created_at' })
        .orderBy('newest', 'desc')
        .limit(limit);
      return {
        total: toInt(total),
        articles: (rows as any[]).map((r) => ({ id: r.uuid, title: r.title, pending: toInt(r.pending), newestAt: iso(r.newest)! })),
      };
    },
  });
};
