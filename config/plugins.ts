export default ({ env }) => ({
  quire: { enabled: true, resolve: './src/plugins/quire' },
  triggers: { enabled: true, resolve: './src/plugins/triggers' },
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET'),
      jwt: { expiresIn: env('JWT_EXPIRES_IN', '30d') },
      // Login and registration are rate limited per IP and identifier by users-permissions.
      ratelimit: {
        enabled: env.bool('AUTH_RATELIMIT_ENABLED', true),
        interval: env.int('AUTH_RATELIMIT_INTERVAL_MS', 60000),
        max: env.int('AUTH_RATELIMIT_MAX', 10),
      },
    },
  },
});
