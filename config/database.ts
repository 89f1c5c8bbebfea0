import path from 'path';

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

export default ({ env }) => {
  const client = env('DATABASE_CLIENT', env('DATABASE_URL') ? 'postgres' : 'sqlite');
  if (client === 'postgres') {
    return {
      connection: {
        client: 'postgres',
        connection: {
          connectionString: env('DATABASE_URL'),
          schema: env('DATABASE_SCHEMA', 'public'),
          ssl: env.bool('DATABASE_SSL', false) && { rejectUnauthorized: env.bool('DATABASE_SSL_REJECT_UNAUTHORIZED', true) },
        },
        pool: { min: env.int('DATABASE_POOL_MIN', 0), max: env.int('DATABASE_POOL_MAX', 10) },
        acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 60000),
      },
    };
  }
  // Compiled config lives in dist/config, so the app root is two levels up.
  const filename = env('DATABASE_FILENAME', '.tmp/data.db');
  // WAL lets readers run beside the writer, and synchronous=NORMAL syncs at checkpoints instead
  // of at every commit (a commit costs microseconds, not a disk flush; a power cut may lose the
  // last transactions but never corrupts the file). Set DATABASE_SQLITE_SYNCHRONOUS=FULL to
  // flush at every commit.
  const journalMode = env('DATABASE_SQLITE_JOURNAL_MODE', 'WAL');
  const synchronous = env('DATABASE_SQLITE_SYNCHRONOUS', 'NORMAL');
  return {
    connection: {
      client: 'sqlite',
      connection: { filename: path.isAbsolute(filename) ? filename : path.join(__dirname, '..', '..', filename) },
      useNullAsDefault: true,
      pool: {
        afterCreate(conn, done) {
          try {
            conn.pragma(`journal_mode = ${journalMode.replace(/[^A-Za-z]/g, '')}`);
            conn.pragma(`synchronous = ${synchronous.replace(/[^A-Za-z0-9]/g, '')}`);
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
