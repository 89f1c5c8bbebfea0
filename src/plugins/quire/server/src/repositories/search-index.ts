/**
 * The search index of the sections (repositories/search.ts, services/search.ts), made sure of at every boot.
 *
 * Why at boot and not in database/migrations: Strapi runs migrations once each, before its
 * schema sync, so on a fresh database `quire_sections` does not exist yet when they run (and
 * they never run again); and neither index can be declared in a content type's `indexes`
 * (an expression GIN index with an operator class; an FTS5 virtual table with triggers).
 * Schema sync can also rebuild a SQLite table (to change a column), which drops its triggers.
 * So the plugin's bootstrap, which runs after schema sync every time, creates what is missing,
 * idempotently (`IF NOT EXISTS`), and costs a few catalogue reads when all is there.
 *
 * - PostgreSQL: the `pg_trgm` extension and a GIN trigram index on the section's search text
 *   expression. PostgreSQL keeps it in step with every write itself.
 * - SQLite: a contentless FTS5 table (trigram tokenizer, rowid = section row id) and three
 *   triggers that copy the search text on insert, update and delete. When any of them was
 *   missing, the FTS table is rebuilt from the sections in the same transaction, so what it
 *   holds never drifts from the rows, whatever happened while the triggers were gone.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { FTS_TABLE, searchTextOf, TRGM_INDEX } from './search';
import { TABLE } from './store';
import { getService } from '../services/get-service';

const TRIGGERS = {
  insert: `${FTS_TABLE}_ai`,
  update: `${FTS_TABLE}_au`,
  delete: `${FTS_TABLE}_ad`,
};

/** The columns the search text is made of: an update of any of them refreshes the index. */
const TEXT_COLUMNS = 'source, markdown, html, html_text';

export async function ensureSearchIndex(strapi: Core.Strapi): Promise<void> {
  const knex = strapi.db.connection as unknown as Knex;
  if (strapi.db.dialect.client === 'postgres') return ensurePostgres(strapi, knex);
  return ensureSqlite(strapi, knex);
}

async function ensurePostgres(strapi: Core.Strapi, knex: Knex): Promise<void> {
  const schema = strapi.db.getSchemaName?.();
  const table = schema ? `"${schema}"."${TABLE.sections}"` : `"${TABLE.sections}"`;
  try {
    // A trusted extension since PostgreSQL 13: the database's owner may create it.
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await knex.raw(`CREATE INDEX IF NOT EXISTS "${TRGM_INDEX}" ON ${table} USING gin (${searchTextOf(TABLE.sections)} gin_trgm_ops)`);
  } catch (error) {
    // Search still answers without it, reading every section of the caller's articles: say so loudly.
    strapi.log.error(
      `Quire: the search index could not be created (${(error as Error).message}). Search will be slow until it is: ` +
        'run "CREATE EXTENSION pg_trgm" as a superuser, or give the database user the right to, and restart.',
    );
  }
}

async function ensureSqlite(strapi: Core.Strapi, knex: Knex): Promise<void> {
  const existing = new Set(
    (await knex('sqlite_master').whereIn('name', [FTS_TABLE, ...Object.values(TRIGGERS)]).select('name')).map((r: { name: string }) => r.name),
  );
  if (existing.size === 1 + Object.keys(TRIGGERS).length) return;
  const text = searchTextOf('new');
  await knex.transaction(async (trx) => {
    await trx.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS_TABLE} USING fts5(text, content='', contentless_delete=1, tokenize='trigram')`);
    for (const name of Object.values(TRIGGERS)) await trx.raw(`DROP TRIGGER IF EXISTS ${name}`);
    await trx.raw(`CREATE TRIGGER ${TRIGGERS.insert} AFTER INSERT ON ${TABLE.sections} BEGIN
      INSERT INTO ${FTS_TABLE}(rowid, text) VALUES (new.id, ${text});
    END`);
    await trx.raw(`CREATE TRIGGER ${TRIGGERS.update} AFTER UPDATE OF ${TEXT_COLUMNS} ON ${TABLE.sections} BEGIN
      DELETE FROM ${FTS_TABLE} WHERE rowid = old.id;
      INSERT INTO ${FTS_TABLE}(rowid, text) VALUES (new.id, ${text});
    END`);
    await trx.raw(`CREATE TRIGGER ${TRIGGERS.delete} AFTER DELETE ON ${TABLE.sections} BEGIN
      DELETE FROM ${FTS_TABLE} WHERE rowid = old.id;
    END`);
    // Whatever was written while a trigger was missing: the index is rebuilt from the rows.
    await trx.raw(`DELETE FROM ${FTS_TABLE}`);
    await trx.raw(`INSERT INTO ${FTS_TABLE}(rowid, text) SELECT s.id, ${searchTextOf('s')} FROM ${TABLE.sections} s`);
  });
  if (existing.size) strapi.log.warn(`Quire: the search index was incomplete (${[...existing].join(', ')} found) and has been rebuilt.`);
}

/**
 * Html sections written before html_text existed have none: search would match their raw HTML.
 * Computes it once for those rows (through the worker pool, like any HTML), remembered in the
 * core store so later boots skip even the query.
 */
export async function backfillHtmlText(strapi: Core.Strapi): Promise<void> {
  const store = strapi.store({ type: 'plugin', name: 'quire', key: 'search-html-text-backfilled' });
  if (await store.get({})) return;
  const knex = strapi.db.connection as unknown as Knex;
  const schema = strapi.db.getSchemaName?.();
  const table = schema ? `${schema}.${TABLE.sections}` : TABLE.sections;
  const workers = getService(strapi, 'workers');
  for (;;) {
    const rows = await knex(table).where({ source: 'html' }).whereNull('html_text').orderBy('id').limit(100).select('id', 'html');
    for (const row of rows) {
      const content = await workers.canvasSection(row.html ?? '');
      await knex(table).where({ id: row.id }).update({ html_text: content.htmlText ?? '' });
    }
    if (rows.length < 100) break;
  }
  await store.set({ value: true });
}
