/**
 * Database helpers shared by the plugins' services: table names, the Knex handle of the
 * current transaction, unique-violation detection, datetime columns as ISO strings, and the
 * throttled `lastUsedAt` write of credentials.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';

/** A table name, schema-qualified when the connection has a schema (PostgreSQL). */
export function tableName(strapi: Core.Strapi, table: string, alias?: string): string {
  const schema = strapi.db.getSchemaName?.();
  const name = schema ? `${schema}.${table}` : table;
  return alias ? `${name} as ${alias}` : name;
}

/**
 * The Knex handle to query with: the open transaction when there is one (SQLite has a single
 * connection, so a query outside it would wait for it forever), the pool otherwise.
 */
export async function knexOf(strapi: Core.Strapi): Promise<Knex> {
  if (strapi.db.inTransaction()) return (await strapi.db.transaction()).get() as Knex;
  return strapi.db.connection as unknown as Knex;
}

/** A repository's query: the Knex handle to run on, then its own arguments. */
type Query = (k: Knex, ...args: any[]) => unknown;

/** The queries of a repository with their handle bound: same arguments, without `k`. */
export type BoundQueries<Q extends Record<string, Query>> = {
  [K in keyof Q]: Q[K] extends (k: Knex, ...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/**
 * A repository whose queries find their database handle themselves: `repo.query(...)` runs on the
 * open transaction when there is one, else the pool (knexOf); `repo.in(trx).query(...)` on the
 * transaction a service opened and holds. Services thus hold behaviour and transactions, never
 * a handle of their own. `queries` are written `(k, ...args)`, `k` the handle to use.
 */
export function repositoryOf<Q extends Record<string, Query>>(strapi: Core.Strapi, queries: Q): BoundQueries<Q> & { in(trx: Knex): BoundQueries<Q> } {
  const bind = (handle: () => Knex | Promise<Knex>) => {
    const bound: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const [name, query] of Object.entries(queries)) bound[name] = async (...args) => query(await handle(), ...args);
    return bound as BoundQueries<Q>;
  };
  const inTrx = new WeakMap<Knex, BoundQueries<Q>>();
  const within = (trx: Knex) => {
    let bound = inTrx.get(trx);
    if (!bound) inTrx.set(trx, (bound = bind(() => trx)));
    return bound;
  };
  return Object.assign(bind(() => knexOf(strapi)), { in: within });
}

/** Runs `work` in a transaction (joining the caller's, if any), with its Knex handle. */
export function inTransaction<T>(strapi: Core.Strapi, work: (trx: Knex) => Promise<T>): Promise<T> {
  return strapi.db.transaction(({ trx }) => work(trx as unknown as Knex)) as unknown as Promise<T>;
}

/** True when `error` is a unique-index violation, on PostgreSQL (23505) or SQLite. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

/**
 * A datetime column's value as ISO-8601, or null: a Date (pg, the Query Engine), milliseconds
 * (SQLite through Knex, as a number or a string of digits) or a date string.
 */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** lastUsedAt is advisory: written at most once a minute per credential, not on every request. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/**
 * Records that a credential (a row of the content type `uid` with a `lastUsedAt` attribute)
 * was used, at most once per `intervalMs` per row: this process remembers its own writes,
 * and the condition on the stored value keeps other processes' writes as rare.
 */
export function lastUsedRecorder(strapi: Core.Strapi, uid: string, intervalMs = LAST_USED_WRITE_INTERVAL_MS) {
  const lastWritten = new Map<number, number>();
  return async (rowId: number): Promise<void> => {
    const now = Date.now();
    if (now - (lastWritten.get(rowId) ?? 0) < intervalMs) return;
    lastWritten.set(rowId, now);
    await strapi.db.query(uid as never).updateMany({
      where: { id: rowId, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: new Date(now - intervalMs) } }] },
      data: { lastUsedAt: new Date(now) },
    });
  };
}

/** Where a call's value goes in a compiled query's bindings (a text no caller sends). */
const PARAM = /^\u0000param (\d+)\u0000$/;
const param = (i: number) => `\u0000param ${i}\u0000`;

interface CompiledSql {
  sql: string;
  /** Each binding: the call's value at `param`, or a value the query holds itself (a LIMIT, an action name). */
  bindings: Array<{ param: number } | { value: unknown }>;
}

/**
 * A compiledQuery whose shape is a number of rows (several read by id, several inserted) is
 * compiled for up to this many; more are built each time, so the statements kept stay few.
 */
export const COMPILED_MAX_ROWS = 8;

/**
 * A query whose SQL Knex compiles once, not on every call: building and compiling a query
 * (wrapping each identifier, a subquery's raw bindings) cost the hottest requests more CPU than
 * SQLite spent running their indexed lookups (issue 33 point 5: the credential lookup and the
 * section by anchor on every GET; the article lock, a section's row, its update, the change set
 * and its read-back on every write). `build(k, shape, ...params)` writes the query (a select, an
 * insert, an update, with `returning` when the rows are wanted): `shape` is what changes the SQL
 * beyond the values (a table, a number of actions or rows; `key` names it), and `params` the
 * call's values. It runs once per database connection and key, with stand-ins for the params
 * that the compiled bindings then name; each call runs that SQL with its values (`k.raw`, so in
 * `k`'s transaction when `k` is one; Knex still converts Dates and booleans for SQLite). The
 * params must reach the query as they are (compute a bound before, and pass it as a param).
 * Answers the rows (none for a write without `returning`).
 */
export function compiledQuery<S, P extends unknown[]>(build: (k: Knex, shape: S, ...params: P) => Knex.QueryBuilder) {
  // Per connection settings (an app's; a transaction's client shares them): table names may carry a schema.
  const byConnection = new WeakMap<object, Map<string, CompiledSql>>();
  return async <Row = Record<string, unknown>>(k: Knex, key: string, shape: S, ...params: P): Promise<Row[]> => {
    const config = k.client.config as object;
    let cache = byConnection.get(config);
    if (!cache) byConnection.set(config, (cache = new Map()));
    let compiled = cache.get(key);
    if (!compiled) {
      const { sql, bindings } = build(k, shape, ...(params.map((_, i) => param(i)) as P)).toSQL();
      compiled = {
        sql,
        bindings: bindings.map((value) => {
          const match = typeof value === 'string' ? PARAM.exec(value) : null;
          return match ? { param: Number(match[1]) } : { value };
        }),
      };
      const used = new Set(compiled.bindings.flatMap((b) => ('param' in b ? [b.param] : [])));
      if (used.size !== params.length) throw new Error(`A compiled query lost a parameter (it binds ${used.size} of ${params.length}): pass each as it is, not computed in the query.`);
      cache.set(key, compiled);
    }
    const values = compiled.bindings.map((b) => ('param' in b ? params[b.param] : b.value));
    if ((k.client as { driverName?: string }).driverName === 'better-sqlite3') return onSqlite<Row>(k, compiled.sql, values);
    const result = (await k.raw(compiled.sql, values as Knex.RawBinding[])) as unknown;
    // SQLite (better-sqlite3) answers the rows (or, for a write without `returning`, its counts), PostgreSQL its result.
    if (Array.isArray(result)) return result as Row[];
    return ((result as { rows?: Row[] }).rows ?? []) as Row[];
  };
}

/** What compiledQuery needs of Knex's better-sqlite3 client and of a transaction. */
interface SqliteClient {
  acquireConnection(): Promise<{ prepare(sql: string): { reader: boolean; all(bindings: unknown[]): unknown[]; run(bindings: unknown[]): unknown } }>;
  releaseConnection(connection: unknown): Promise<unknown>;
  _formatBindings(bindings: unknown[]): unknown[];
  emit(event: 'query', query: { sql: string; bindings: unknown[]; method: string }): boolean;
}

/**
 * A compiled statement run on SQLite's connection itself: Knex's way there (parsing the raw SQL
 * for its placeholders, the runner, its events and promise hops) cost 30 to 80 us a query, more
 * than SQLite spent on the indexed lookup. The connection is the transaction's when `k` is one
 * (Knex's transaction client answers it), else the pool's, given back at once; the bindings are
 * converted as Knex converts them (Dates and booleans to numbers), and statements come from the
 * connection's cache (config/database.ts). Knex's 'query' event is emitted as before.
 */
async function onSqlite<Row>(k: Knex, sql: string, values: unknown[]): Promise<Row[]> {
  const trx = k as Knex & { isTransaction?: boolean; isCompleted?: () => boolean };
  if (trx.isTransaction && trx.isCompleted?.()) throw new Error(`Transaction query already complete: ${sql}`);
  const client = k.client as unknown as SqliteClient;
  // Knex's 'query' event, as its runner emits it: what counts or logs statements still sees these.
  client.emit('query', { sql, bindings: values, method: 'raw' });
  const connection = await client.acquireConnection();
  try {
    const statement = connection.prepare(sql);
    const bindings = client._formatBindings(values);
    if (statement.reader) return statement.all(bindings) as Row[];
    statement.run(bindings);
    return [];
  } finally {
    await client.releaseConnection(connection);
  }
}
