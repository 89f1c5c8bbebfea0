/**
 * The indexes of our hot lookups exist on a fresh database. They are declared on the content
 * types (`indexes` in schema.json, and on the upload plugin's file in upload-extension.ts) and
 * created by Strapi's schema sync, on SQLite and on PostgreSQL.
 */
import { isUniqueViolation } from '../../src/kernel/db';
import { startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.close());

interface IndexInfo {
  unique: boolean;
  columns: string[];
}

/** The indexes of `table` by name, read from the database's own catalogue. */
async function indexesOf(table: string): Promise<Record<string, IndexInfo>> {
  const knex = app.strapi.db.connection;
  const found: Record<string, IndexInfo> = {};
  if (app.strapi.db.dialect.client === 'postgres') {
    const { rows } = await knex.raw('SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?', [table]);
    for (const { indexname, indexdef } of rows) {
      // Greedy and across lines: the search index (trigram GIN on an expression) nests parentheses and holds newlines.
      const columns = /USING \w+ \(([\s\S]*)\)\s*$/.exec(indexdef)![1].split(',').map((c: string) => c.trim().replace(/"/g, ''));
      found[indexname] = { unique: /^CREATE UNIQUE/i.test(indexdef), columns };
    }
  } else {
    for (const { name, unique } of await knex.raw(`PRAGMA index_list(${JSON.stringify(table)})`)) {
      const columns = (await knex.raw(`PRAGMA index_info(${JSON.stringify(name)})`)).map((c: { name: string }) => c.name);
      found[name] = { unique: Boolean(unique), columns };
    }
  }
  return found;
}

const EXPECTED: Array<[table: string, name: string, columns: string[], unique: boolean]> = [
  ['quire_api_keys', 'quire_api_keys_hash_uq', ['hash'], true],
  ['quire_api_keys', 'quire_api_keys_user_id_idx', ['user_id'], false],
  ['quire_cli_logins', 'quire_cli_logins_device_code_hash_uq', ['device_code_hash'], true],
  ['quire_cli_logins', 'quire_cli_logins_user_code_hash_idx', ['user_code_hash'], false],
  ['quire_articles', 'quire_articles_uuid_uq', ['uuid'], true],
  ['quire_articles', 'quire_articles_user_id_updated_at_idx', ['user_id', 'updated_at'], false],
  // Shortened article ids: a range of ids within one owner's articles (store.resolveArticleId).
  ['quire_articles', 'quire_articles_user_id_uuid_idx', ['user_id', 'uuid'], false],
  ['quire_sections', 'quire_sections_article_id_uuid_uq', ['article_id', 'uuid'], true],
  ['quire_notes', 'quire_notes_article_id_uuid_uq', ['article_id', 'uuid'], true],
  // The pending suggestions of one credential, counted on every suggestion (services/suggestions).
  ['quire_suggestions', 'quire_suggestions_by_credential_status_idx', ['by_credential', 'status'], false],
  // Threads (CONTRACT 24): by anchor, and the threads of the sections an edit rewrote (services/threads followEdits).
  ['quire_threads', 'quire_threads_article_id_uuid_uq', ['article_id', 'uuid'], true],
  ['quire_threads', 'quire_threads_article_id_section_id_idx', ['article_id', 'section_id'], false],
  ['quire_thread_comments', 'quire_thread_comments_thread_id_idx', ['thread_id'], false],
  ['quire_thread_comments', 'quire_thread_comments_uuid_uq', ['uuid'], true],
  // Mention waits nobody holds (services/threads sweep: at boot and every 30 s).
  ['quire_thread_comments', 'quire_thread_comments_awaiting_idx', ['awaiting', 'lease_until'], false],
  // Change sets (CONTRACT 23): anchors, the newest page of an article, a run's, a kind's; a section's change sets.
  ['quire_change_sets', 'quire_change_sets_article_id_uuid_uq', ['article_id', 'uuid'], true],
  ['quire_change_sets', 'quire_change_sets_article_id_id_idx', ['article_id', 'id'], false],
  ['quire_change_sets', 'quire_change_sets_article_id_run_id_idx', ['article_id', 'run', 'id'], false],
  ['quire_change_sets', 'quire_change_sets_article_id_by_kind_id_idx', ['article_id', 'by_kind', 'id'], false],
  ['quire_change_set_sections', 'quire_change_set_sections_change_set_id_idx', ['change_set_id', 'position'], false],
  ['quire_change_set_sections', 'quire_change_set_sections_article_id_section_uuid_idx', ['article_id', 'section_uuid', 'change_set_id'], false],
  ['quire_publications', 'quire_publications_article_id_uq', ['article_id'], true],
  ['quire_publications', 'quire_publications_slug_uq', ['slug'], true],
  ['files', 'files_user_id_idx', ['user_id'], false],
  ['triggers_organizations', 'triggers_organizations_user_id_idx', ['user_id'], false],
  ['triggers_organization_keys', 'triggers_organization_keys_hash_uq', ['hash'], true],
  ['triggers_organization_keys', 'triggers_organization_keys_organization_id_idx', ['organization_id'], false],
  ['triggers_process_instances', 'triggers_process_instances_key_hash_uq', ['key_hash'], true],
  ['triggers_process_instances', 'triggers_process_instances_user_id_idx', ['user_id'], false],
  ['triggers_process_instances', 'triggers_process_instances_organization_id_idx', ['organization_id'], false],
  ['triggers_workflows', 'triggers_workflows_instance_id_idx', ['instance_id'], false],
  ['triggers_executions', 'triggers_executions_document_id_uq', ['document_id'], true],
  ['triggers_executions', 'triggers_executions_instance_id_id_idx', ['instance_id', 'id'], false],
  ['triggers_executions', 'triggers_executions_status_lease_until_idx', ['status', 'lease_until'], false],
  ['triggers_executions', 'triggers_executions_dedupe_key_uq', ['dedupe_key'], true],
  ['triggers_executions', 'triggers_executions_idempotency_key_uq', ['idempotency_key'], true],
  ['triggers_executions', 'triggers_executions_callback_idx', ['callback_status', 'callback_next_at'], false],
  ['triggers_executions', 'triggers_executions_created_at_idx', ['created_at'], false],
];

describe('a fresh database', () => {
  it.each(EXPECTED)('%s has %s', async (table, name, columns, unique) => {
    expect((await indexesOf(table))[name]).toEqual({ unique, columns });
  });

  it('refuses a second row with the same unique key (the index is really there)', async () => {
    const knex = app.strapi.db.connection;
    const row = { uuid: '00000000-0000-4000-8000-000000000001', user_id: 1, title: 'T', status: 'draft', outline_rev: 0 };
    await knex('quire_articles').insert(row);
    // Caught by hand: SQLite's error may come from another realm than this file's Error.
    const error = await knex('quire_articles')
      .insert(row)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(error)).toBe(true);
    await knex('quire_articles').where({ uuid: row.uuid }).del();
  });
});
