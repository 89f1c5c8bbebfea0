/**
 * An in-memory SQLite database with the tables of the named content types, and a stand-in for
 * the part of `strapi` that the repositories use (`strapi.db`: the connection, the open
 * transaction, the schema name), so that a repository runs its real SQL without a Strapi boot
 * (the fast tier). Tables are made from the content types' schema.json the way Strapi names
 * them: snake_case columns, Strapi's own columns (id, document_id, timestamps), unique indexes.
 * Relations are left out; the repositories read their foreign keys as plain columns.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Core } from '@strapi/strapi';

const ROOT = path.join(__dirname, '..', '..');

interface Attribute {
  type: string;
  unique?: boolean;
}
interface ContentTypeSchema {
  collectionName: string;
  attributes: Record<string, Attribute>;
  indexes?: Array<{ name: string; columns: string[]; type?: string }>;
}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** The schema.json of `plugin`'s content type `name` (its folder under content-types/). */
export function contentType(plugin: 'quire' | 'triggers', name: string): ContentTypeSchema {
  const file = path.join(ROOT, 'src', 'plugins', plugin, 'server', 'src', 'content-types', name, 'schema.json');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function column(table: Knex.CreateTableBuilder, name: string, attribute: Attribute) {
  switch (attribute.type) {
    case 'integer':
    case 'biginteger':
      return table.integer(name);
    case 'float':
    case 'decimal':
      return table.float(name);
    case 'boolean':
      return table.boolean(name);
    case 'datetime':
    case 'date':
    case 'time':
    case 'timestamp':
      return table.datetime(name);
    case 'relation':
    case 'media':
    case 'component':
    case 'dynamiczone':
      return null;
    default:
      return table.text(name);
  }
}

export interface MemoryDb {
  knex: Knex;
  /** What the repositories read of `strapi`. */
  strapi: Core.Strapi;
  close(): Promise<void>;
}

/** A fresh in-memory database with the tables of `schemas`. */
export async function memoryDb(schemas: ContentTypeSchema[]): Promise<MemoryDb> {
  const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
  for (const schema of schemas) {
    await knex.schema.createTable(schema.collectionName, (table) => {
      table.increments('id');
      table.string('document_id');
      for (const [name, attribute] of Object.entries(schema.attributes)) {
        const made = column(table, snake(name), attribute);
        if (made && attribute.unique) made.unique();
      }
      table.datetime('created_at');
      table.datetime('updated_at');
      table.datetime('published_at');
      table.integer('created_by_id');
      table.integer('updated_by_id');
      table.string('locale');
      for (const index of schema.indexes ?? []) {
        if (index.type === 'unique') table.unique(index.columns, { indexName: index.name });
        else table.index(index.columns, index.name);
      }
    });
  }
  // The open transaction, as Strapi's `db.transaction` keeps it (kernel/db knexOf reads it).
  const open = new AsyncLocalStorage<Knex.Transaction>();
  const db = {
    connection: knex,
    getSchemaName: () => undefined,
    inTransaction: () => open.getStore() !== undefined,
    async transaction(work?: (context: { trx: Knex.Transaction }) => Promise<unknown>) {
      const current = open.getStore();
      if (!work) return { get: () => current };
      if (current) return work({ trx: current });
      return knex.transaction((trx) => open.run(trx, () => work({ trx })));
    },
  };
  return { knex, strapi: { db } as unknown as Core.Strapi, close: () => knex.destroy() };
}
