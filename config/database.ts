import path from 'path';
import { bool, duration, int, oneOf, readSettings, text, url, type EnvSource } from '../src/kernel/config';

const STATEMENT_CACHE_SIZE = 500;

/**
 * Knex prepares every SQLite statement anew, and preparing was the largest single cost of a
 * request after running the query itself (9% of the CPU of a trigger benchmark). The same few
 * SQL strings recur on every request, so each connection keeps its prepared statements.
 * A statement still iterating (busy) is never handed out twice.
 */
function cachePreparedStatements(conn: { prepare(sql: string): { busy?: boolean } }) {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, { busy?: boolean }>();
  conn.prepare = (sql: string) => {
    const cached = cache.get(sql);
    if (cached && !cached.busy) {
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const statement = prepare(sql);
    cache.set(sql, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return statement;
  };
}

export const settings = {
  client: oneOf('DATABASE_CLIENT', ['sqlite', 'postgres'], { optional: true }),
  url: url('DATABASE_URL', { protocols: ['postgres', 'postgresql'], optional: true }),
  schema: text('DATABASE_SCHEMA', { default: 'public' }),
  ssl: bool('DATABASE_SSL', { default: false }),
  sslRejectUnauthorized: bool('DATABASE_SSL_REJECT_UNAUTHORIZED', { default: true }),
  poolMin: int('DATABASE_POOL_MIN', { min: 0, max: 1_000, default: 0 }),
  poolMax: int('DATABASE_POOL_MAX', { min: 1, max: 1_000, default: 10 }),
  connectionTimeoutMs: duration('DATABASE_CONNECTION_TIMEOUT', { min: 1, max: 3_600_000, default: 60_000 }),
  filename: text('DATABASE_FILENAME', { default: '.tmp/data.db' }),
  // WAL lets readers run beside the writer, and synchronous=NORMAL syncs at checkpoints instead
  // of at every commit (a commit costs microseconds, not a disk flush; a power cut may lose the
  // last transactions but never corrupts the file). DATABASE_SQLITE_SYNCHRONOUS=FULL flushes at
  // every commit.
  journalMode: oneOf('DATABASE_SQLITE_JOURNAL_MODE', ['WAL', 'DELETE', 'TRUNCATE', 'PERSIST', 'MEMORY', 'OFF'], { default: 'WAL' }),
  synchronous: oneOf('DATABASE_SQLITE_SYNCHRONOUS', ['NORMAL', 'FULL', 'EXTRA', 'OFF'], { default: 'NORMAL' }),
};

export default ({ env }: { env: EnvSource }) => {
  const config = readSettings(settings, env);
  const client = config.client ?? (config.url ? 'postgres' : 'sqlite');
  if (client === 'postgres') {
    return {
      connection: {
        client: 'postgres',
        connection: {
          connectionString: config.url,
          schema: config.schema,
          ssl: config.ssl && { rejectUnauthorized: config.sslRejectUnauthorized },
        },
        pool: { min: config.poolMin, max: config.poolMax },
        acquireConnectionTimeout: config.connectionTimeoutMs,
      },
    };
  }
  // Compiled config lives in dist/config, so the app root is two levels up.
  const { filename, journalMode, synchronous } = config;
  return {
    connection: {
      client: 'sqlite',
      connection: { filename: path.isAbsolute(filename) ? filename : path.join(__dirname, '..', '..', filename) },
      useNullAsDefault: true,
      pool: {
        afterCreate(conn, done) {
          try {
            conn.pragma(`journal_mode = ${journalMode}`);
            conn.pragma(`synchronous = ${synchronous}`);
            cachePreparedStatements(conn);
            done(null, conn);
          } catch (error) {
            done(error, conn);
          }
        },
      },
    },
  };
};
