import path from 'path';

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
            done(null, conn);
          } catch (error) {
            done(error, conn);
          }
        },
      },
    },
  };
};
