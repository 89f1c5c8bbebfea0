/**
 * quire_premise_revisions: the versions of an article's premise (the Brief), newest first, and
 * the premise column of the article they follow.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { iso, repositoryOf, tableName } from '#kernel/db';
import { TABLE } from './store';

export interface PremiseRevisionRow {
  article_id: number;
  rev: number;
  premise: string | null;
  by_kind: string | null;
  by_name: string | null;
  made_at: Date;
}

export function premiseRevisionRepository(strapi: Core.Strapi) {
  const revisions = () => tableName(strapi, TABLE.premiseRevisions);
  const articles = () => tableName(strapi, TABLE.articles);
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return repositoryOf(strapi, {
    /** The owned article's row id, premise and last change (under the caller's transaction), or undefined. */
    async article(k: Knex, userId: number, uuid: string): Promise<{ id: number; premise: string | null; updatedAt: Date } | undefined> {
      const row = await k(articles()).where({ uuid, user_id: userId }).first(['id', 'premise', 'updated_at']);
      return row ? { id: Number(row.id), premise: row.premise ?? null, updatedAt: new Date(iso(row.updated_at) ?? Date.now()) } : undefined;
    },

    async setPremise(k: Knex, articleRowId: number, premise: string | null, at: Date): Promise<void> {
      await k(articles()).where({ id: articleRowId }).update({ premise, updated_at: at });
    },

    async last(k: Knex, articleRowId: number) {
      return k(revisions()).where({ article_id: articleRowId }).orderBy('rev', 'desc').first(['id', 'rev', 'by_kind', 'by_name', 'made_at']);
    },

    async replace(k: Knex, id: number, row: Omit<PremiseRevisionRow, 'article_id' | 'rev'>): Promise<void> {
      await k(revisions()).where({ id }).update({ ...row, updated_at: row.made_at });
    },

    async insert(k: Knex, row: PremiseRevisionRow): Promise<void> {
      await k(revisions()).insert({ ...row, created_at: row.made_at, updated_at: row.made_at });
    },

    async list(k: Knex, articleRowId: number) {
      return k(revisions()).where({ article_id: articleRowId }).orderBy('rev', 'desc').select(['rev', 'premise', 'by_kind', 'by_name', 'made_at']);
    },
  });
}
