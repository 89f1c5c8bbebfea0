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
  return {
    connection: {
      client: 'sqlite',
      connection: { filename: path.isAbsolute(filename) ? filename : path.join(__dirname, '..', '..', filename) },
      useNullAsDefault: true,
    },
  };
};
