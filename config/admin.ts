export default ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET') },
  apiToken: { salt: env('API_TOKEN_SALT') },
  transfer: { token: { salt: env('TRANSFER_TOKEN_SALT') } },
  secrets: { encryptionKey: env('ENCRYPTION_KEY') },
  flags: { nps: false, promoteEE: false },
  // SERVE_ADMIN_PANEL=false runs the API without the admin panel (and without its build).
  // Unset, Strapi's own default (or the createStrapi option the tests pass) applies.
  ...(env('SERVE_ADMIN_PANEL') !== undefined && { serveAdminPanel: env.bool('SERVE_ADMIN_PANEL', true) }),
});
