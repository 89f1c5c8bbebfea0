/**
 * What the live canvas reads and writes besides the edit engine: an article's row and premise,
 * the article's stored Yjs state
 * (quire_live_states: the state, and the section revisions it holds), the text a section
 * deleted under someone's typing keeps in the trash, and the admin user behind a live connection.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { compiledQuery, repositoryOf, tableName } from '#kernel/db';
import { TABLE } from './store';

export interface LiveStateRow {
  state: string;
  revs: string;
  premise: string | null;
  updated_at: Date;
}

export function liveRepository(strapi: Core.Strapi) {
  const table = (name: string) => tableName(strapi, name);
  // Every section write looks for the article's live state (in its transaction): compiled once (kernel/db compiledQuery).
  const savedStateQuery = compiledQuery((k: Knex, _shape: null, articleRowId: number) => k(table(TABLE.liveStates)).where({ article_id: articleRowId }).select(['state', 'revs', 'premise']).limit(1));
  // Queries run on the open transaction or the pool, or on `repo.in(trx)` (kernel/db repositoryOf).
  return Object.assign(
    repositoryOf(strapi, {
      article(k: Knex, uuid: string) {
        return k(table(TABLE.articles)).where({ uuid }).first(['id', 'user_id', 'premise']);
      },
      async savedState(k: Knex, articleRowId: number) {
        return (await savedStateQuery<{ state: unknown; revs: unknown; premise: unknown }>(k, 'state', null, articleRowId))[0];
      },
      /** Writes the document's state; a row another process inserted meanwhile is updated instead. */
      async saveState(k: Knex, articleRowId: number, row: LiveStateRow): Promise<void> {
        const states = table(TABLE.liveStates);
        const updated = await k(states).where({ article_id: articleRowId }).update(row);
        if (!updated) await k(states).insert({ article_id: articleRowId, ...row, created_at: new Date() }).catch(() => k(states).where({ article_id: articleRowId }).update(row));
      },
      /** The trash entry of a section holds `content` (the text typed in it when it was deleted). */
      async trashContent(k: Knex, articleRowId: number, sectionId: string, content: { html: string; title: string | null; level: number; words: number }): Promise<void> {
        await k(table(TABLE.trash))
          .where({ article_id: articleRowId, uuid: sectionId })
          .update({ source: 'html', html: content.html, markdown: null, title: content.title, level: content.level, words: content.words, updated_at: new Date() });
      },
    }),
    {
      /** The admin user with their roles (for their permissions), or null. */
      adminUser(id: number) {
        return strapi.db.query('admin::user').findOne({ where: { id }, populate: ['roles'] });
      },
    },
  );
}
