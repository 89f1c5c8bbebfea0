/**
 * quire_suggestions: proposed edits and their review, scoped by article row id.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { repositoryOf, tableName } from '#kernel/db';
import { TABLE, UID } from './store';

export const SUGGESTION_COLUMNS = ['uuid', 'status', 'note', 'ops', 'resolved_ops', 'base', 'results', 'proposed', 'by_kind', 'by_name', 'decided_at', 'decided_by_kind', 'decided_by_name', 'reason', 'created_at'];

/** Who decided, as stored. */
export interface Decider {
  kind: string;
  name: string;
}

export function suggestionRepository(strapi: Core.Strapi) {
  const table = () => tableName(strapi, TABLE.suggestions);
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return Object.assign(
    repositoryOf(strapi, {
      /** Records the revisions an accepted suggestion made (section id -> rev). */
      async setApplied(k: Knex, articleRowId: number, uuid: string, applied: Record<string, number>): Promise<void> {
        await k(table()).where({ article_id: articleRowId, uuid }).update({ applied: JSON.stringify(applied) });
      },

      /** The accepted suggestions of an article that recorded their revisions, with who decided. */
      async acceptedWithRevisions(k: Knex, articleRowId: number): Promise<Array<{ applied: unknown; decided_by_kind: string | null; decided_by_name: string | null }>> {
        return k(table()).where({ article_id: articleRowId, status: 'accepted' }).whereNotNull('applied').select('applied', 'decided_by_kind', 'decided_by_name');
      },

      /** A pending suggestion narrowed to the ops left once some were accepted (per section); false when it is no longer pending. */
      async narrow(k: Knex, articleRowId: number, uuid: string, rest: { ops: unknown[]; resolvedOps: unknown[]; base: Record<string, number>; proposed?: unknown }): Promise<boolean> {
        const changes: Record<string, unknown> = { ops: JSON.stringify(rest.ops), resolved_ops: JSON.stringify(rest.resolvedOps), base: JSON.stringify(rest.base), updated_at: new Date() };
        // A part rejected: what it would have made is no longer shown.
        if (rest.proposed !== undefined) changes.proposed = JSON.stringify(rest.proposed);
        return (await k(table()).where({ article_id: articleRowId, uuid, status: 'pending' }).update(changes)) > 0;
      },

      /** Every suggestion id of an article (for anchors). */
      async ids(k: Knex, articleRowId: number): Promise<string[]> {
        return (await k(table()).where({ article_id: articleRowId }).select('uuid')).map((r) => r.uuid as string);
      },

      get(k: Knex, articleRowId: number, uuid: string) {
        return k(table()).where({ article_id: articleRowId, uuid }).first(SUGGESTION_COLUMNS);
      },

      async statusOf(k: Knex, articleRowId: number, uuid: string): Promise<string | undefined> {
        return (await k(table()).where({ article_id: articleRowId, uuid }).first('status'))?.status;
      },

      /** An article's suggestions, newest first. */
      list(k: Knex, articleRowId: number) {
        return k(table())
          .where({ article_id: articleRowId })
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .select(SUGGESTION_COLUMNS);
      },

      /** Pending suggestions matching `where` (up to row id `upTo`, itself included, when given). */
      async countPending(k: Knex, where: { article_id?: number; by_credential?: string }, upTo?: number): Promise<number> {
        const query = k(table()).where({ ...where, status: 'pending' });
        if (upTo !== undefined) query.andWhere('id', '<=', upTo);
        const row = await query.count({ n: '*' }).first();
        return Number(row?.n ?? 0);
      },

      async removeRow(k: Knex, id: number): Promise<void> {
        await k(table()).where({ id }).delete();
      },

      /** Moves a suggestion from one of `from` to `status`; false when it was in none of them. */
      async decide(k: Knex, articleRowId: number, uuid: string, from: string[], status: 'accepted' | 'rejected' | 'stale', decided?: { by: Decider; reason?: string | null }): Promise<boolean> {
        const now = new Date();
        const changes: Record<string, unknown> = { status, updated_at: now };
        if (decided) Object.assign(changes, { decided_at: now, decided_by_kind: decided.by.kind, decided_by_name: decided.by.name });
        if (decided && 'reason' in decided) changes.reason = decided.reason;
        return (await k(table()).where({ article_id: articleRowId, uuid }).whereIn('status', from).update(changes)) > 0;
      },
    }),
    {
      /** A new pending suggestion; its row id. */
      async create(data: Record<string, unknown>): Promise<number> {
        const created = await strapi.db.query(UID.suggestion).create({ data: { ...data, status: 'pending' }, select: ['id'] });
        return Number(created.id);
      },
    },
  );
}
