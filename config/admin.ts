import { bool, readSettings, text, type EnvSource } from '../src/kernel/config';

// Strapi's secrets, written into .env on first run by scripts/ensure-env.js.
const secret = (variable: string) => text(variable, { optional: true });

export const settings = {
  adminJwtSecret: secret('ADMIN_JWT_SECRET'),
  apiTokenSalt: secret('API_TOKEN_SALT'),
  transferTokenSalt: secret('TRANSFER_TOKEN_SALT'),
  // Also seals stored instance keys and webhook signing secrets (the triggers plugin's vault).
  encryptionKey: secret('ENCRYPTION_KEY'),
  // false runs the API without the admin panel (and without its build). Unset, Strapi's own
  // default (or the createStrapi option the tests pass) applies.
  serveAdminPanel: bool('SERVE_ADMIN_PANEL', { optional: true }),
  // The first admin, created at boot when no admin exists; src/admin-access checks the values
  // against Strapi's rules when it uses them (not once an admin exists).
  firstAdminEmail: text('ADMIN_EMAIL', { optional: true }),
  firstAdminPassword: text('ADMIN_PASSWORD', { optional: true }),
  firstAdminFirstname: text('ADMIN_FIRSTNAME', { optional: true }),
  firstAdminLastname: text('ADMIN_LASTNAME', { optional: true }),
};

export default ({ env }: { env: EnvSource }) => {
  const config = readSettings(settings, env);
  return {
    auth: { secret: config.adminJwtSecret },
    apiToken: { salt: config.apiTokenSalt },
    transfer: { token: { salt: config.transferTokenSalt } },
    // The sealing salt of stored secrets (src/kernel/secrets.ts): the app's, and fixed, since
    // changing it would make every secret sealed so far unreadable.
    secrets: { encryptionKey: config.encryptionKey, sealSalt: 'quire-triggers' },
    flags: { nps: false, promoteEE: false },
    ...(config.serveAdminPanel !== undefined && { serveAdminPanel: config.serveAdminPanel }),
    // SERVE_ADMIN_PANEL=false turns the admin API off as well (src/admin-access). Strapi's own
    // serveAdminPanel is also false under `strapi develop` (Vite serves the panel there) and in
    // the tests, so the API has its own switch: the operator's setting alone.
    adminApi: config.serveAdminPanel !== false,
    firstAdmin: {
      email: config.firstAdminEmail,
      password: config.firstAdminPassword,
      firstname: config.firstAdminFirstname,
      lastname: config.firstAdminLastname,
    },
  };
};
