/**
 * Who may reach the admin panel and its API (CONTRACT 18, "the first admin"); hooked into the
 * app's register and bootstrap (src/index.ts). docs/operations.md (Security) explains it to
 * operators.
 */
import type { Core } from '@strapi/strapi';
import { ConfigError } from '../kernel/config';
import { firstAdminFrom, setupTokenOf, type FirstAdminSettings } from './first-admin';
import { setupTokenGuard, SETUP_QUERY } from './setup-token';

/** Off when the operator set SERVE_ADMIN_PANEL=false (config/admin.ts). */
const adminApiOn = (strapi: Core.Strapi) => strapi.config.get('admin.adminApi') !== false;

/**
 * Whether a browser can open the panel here: served from dist/build, or by Vite under
 * `strapi develop` (which runs with serveAdminPanel false and autoReload on). Not in tests.
 */
const panelReachable = (strapi: Core.Strapi) => strapi.config.get('admin.serveAdminPanel') !== false || strapi.config.get('autoReload') === true;

/**
 * With the admin panel off (SERVE_ADMIN_PANEL=false), its API is off too: every admin route
 * (`/admin/*`, and the plugins' admin routes such as `/quire/*`, `/upload/*`) answers 404 as
 * an unknown path does. The content API (`/api/*`) and our root routes are other routers.
 */
export function registerAdminAccess(strapi: Core.Strapi) {
  if (adminApiOn(strapi)) return;
  strapi.server.api('admin').use(async () => {
    // Not calling next(), with no status set: strapi::errors answers 404 Not Found.
  });
}

/** Creates the first admin from the environment, or guards its registration with the setup token. */
export async function bootstrapAdminAccess(strapi: Core.Strapi) {
  const users = strapi.service('admin::user') as any;
  const settings = strapi.config.get('admin.firstAdmin') as FirstAdminSettings | undefined;
  // The password is not needed after the boot: keep it out of the running configuration.
  strapi.config.set('admin.firstAdmin', undefined);
  if (await users.exists()) return;

  const fromEnv = firstAdminFrom(settings);
  if (fromEnv) {
    try {
      await users.createFirstAdmin(fromEnv);
      strapi.log.info(`Created the first admin, ${fromEnv.email} (Super Admin), from ADMIN_EMAIL and ADMIN_PASSWORD.`);
    } catch (error) {
      // Another process of this deployment may have created it at the same moment.
      if (!(await users.exists())) throw error;
    }
    return;
  }

  if (!adminApiOn(strapi)) return;
  const secret = strapi.config.get('admin.auth.secret') as string | undefined;
  if (!secret) throw new ConfigError('ADMIN_JWT_SECRET is not set: the admin panel needs it (npm start writes one into .env).');
  const token = setupTokenOf(secret);
  const adminPath = (strapi.config.get('admin.path') as string) || '/admin';
  strapi.server.use(setupTokenGuard({ token, adminPath, adminExists: () => users.exists() }));
  if (!panelReachable(strapi)) return;

  const link = `${strapi.config.get('admin.absoluteUrl')}/auth/register-admin?${SETUP_QUERY}=${token}`;
  const message = `No admin exists yet. Create the first one (Super Admin) by opening ${link} (this link works until an admin exists), or set ADMIN_EMAIL and ADMIN_PASSWORD and restart.`;
  strapi.log.warn(message);
  // Strapi's own banner (printed once listening) sends people to the bare /admin, which shows
  // strangers only the sign-in page: it gives the link instead.
  const banner = (strapi as any).startupLogger;
  if (banner && typeof banner.logFirstStartupMessage === 'function' && typeof banner.logStats === 'function') {
    banner.logFirstStartupMessage = () => {
      banner.logStats();
      console.log(`One more thing...\nCreate your first administrator with this link (it carries the setup token and works until an admin exists):\n\n${link}\n`);
    };
  }
}
