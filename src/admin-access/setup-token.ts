/**
 * The guard of a fresh server's first-admin registration, when no ADMIN_EMAIL/ADMIN_PASSWORD
 * are set. While no admin exists:
 *
 * - `POST /admin/register-admin` (the stock registration page's request) is refused with 403
 *   unless it carries the setup token: in the `quire_admin_setup` cookie (set by opening the
 *   printed link), the `X-Setup-Token` header (scripts) or the `setupToken` query parameter.
 * - Opening any admin page with `?setupToken=<token>` (the printed link) sets that cookie
 *   (httpOnly, SameSite=Strict, path /admin, one hour) and redirects to the same page without
 *   the token, so it stays out of the address bar and the history.
 * - `GET /admin/init` answers `hasAdmin: true` to a browser without the cookie, so the stock
 *   panel shows strangers its sign-in page instead of inviting them to become super admin.
 *
 * Once an admin exists, none of this applies and the token is worthless.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const SETUP_COOKIE = 'quire_admin_setup';
export const SETUP_HEADER = 'x-setup-token';
export const SETUP_QUERY = 'setupToken';
const COOKIE_MAX_AGE_MS = 60 * 60 * 1000;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of a presented token with the real one. */
export function isSetupToken(presented: unknown, token: string): boolean {
  return typeof presented === 'string' && presented.length > 0 && timingSafeEqual(digest(presented), digest(token));
}

interface GuardOptions {
  token: string;
  /** The admin panel's path, `/admin` by default. */
  adminPath: string;
  /** Whether an admin exists (asked only on the few requests that need it, remembered once true). */
  adminExists: () => Promise<boolean>;
}

const FORBIDDEN_MESSAGE =
  'Registering the first admin needs the setup token that the server printed in its log at start: open the link from the log ' +
  '(…/admin/auth/register-admin?setupToken=…) or send the token in the X-Setup-Token header. ' +
  'Or set ADMIN_EMAIL and ADMIN_PASSWORD and restart the server.';

export function setupTokenGuard({ token, adminPath, adminExists }: GuardOptions) {
  let exists = false;
  const hasAdmin = async () => exists || (exists = await adminExists());

  const base = adminPath.toLowerCase();
  return async (ctx, next) => {
    // Compared the way Strapi's router matches: case aside and trailing slashes aside, so that
    // `/admin/Register-Admin/` cannot slip past the guard to the same handler.
    const route = ctx.path.toLowerCase().replace(/\/+$/, '');
    if (route !== base && !route.startsWith(`${base}/`)) return next();
    if (exists) return next();

    const fromCookie = ctx.cookies.get(SETUP_COOKIE, { signed: false });
    const holdsToken = () =>
      isSetupToken(ctx.get(SETUP_HEADER), token) || isSetupToken(fromCookie, token) || isSetupToken(ctx.query?.[SETUP_QUERY], token);

    if (ctx.method === 'POST' && route === `${base}/register-admin`) {
      if (!(await hasAdmin()) && !holdsToken()) {
        ctx.status = 403;
        ctx.body = { data: null, error: { status: 403, name: 'ForbiddenError', message: FORBIDDEN_MESSAGE, details: {} } };
        return;
      }
      await next();
      if (ctx.status === 200 || ctx.status === 201) {
        exists = true;
        ctx.cookies.set(SETUP_COOKIE, '', { path: adminPath, maxAge: 0, httpOnly: true, sameSite: 'strict', signed: false, overwrite: true });
      }
      return;
    }

    if (ctx.method === 'GET' && route === `${base}/init`) {
      await next();
      const data = ctx.body?.data;
      if (data && data.hasAdmin === false && !isSetupToken(fromCookie, token)) data.hasAdmin = true;
      return;
    }

    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.query?.[SETUP_QUERY] !== undefined) {
      if (isSetupToken(ctx.query[SETUP_QUERY], token) && !(await hasAdmin())) {
        ctx.cookies.set(SETUP_COOKIE, token, {
          path: adminPath,
          maxAge: COOKIE_MAX_AGE_MS,
          httpOnly: true,
          sameSite: 'strict',
          secure: ctx.request.secure,
          signed: false,
          overwrite: true,
        });
      }
      const rest = new URLSearchParams(ctx.querystring);
      rest.delete(SETUP_QUERY);
      const query = rest.toString();
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.redirect(`${ctx.path}${query ? `?${query}` : ''}`);
      return;
    }
    return next();
  };
}
