import type { Core } from '@strapi/strapi';
import { userRepository } from '../repositories/users';
import { getService } from './get-service';

/** Wrong passwords on our pages' sign-in forms: per address and identifier, and per address. */
export const SIGN_IN_LIMIT = { points: 10, durationSec: 900, blockDurationSec: 900 };
export const SIGN_IN_IP_LIMIT = { points: 50, durationSec: 900, blockDurationSec: 900 };

export type PasswordCheck = { ok: true; userId: number } | { ok: false; status: number; message: string };

const WRONG = 'Wrong username, email or password.';
const DUMMY_HASH = '$2a$10$oRyWoY0w3gwG5gN3EZzdc.24aySfKbv5WoLmdMs2aHHgjU/v15Suq';

/**
 * The password sign-in of our server-rendered pages (the CLI login page, the OAuth authorize
 * page), used through `getService(strapi, 'signIn')`: users-permissions' own
 * local-login rules, checked by its own user service, without issuing anything. The page then
 * starts a web session (services/web-sessions).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** users-permissions' local-login rules (its auth controller's `callback`): the user, or why not with its status and message. */
  async verifyPassword(identifier: string, password: string): Promise<PasswordCheck> {
    const up = strapi.plugin('users-permissions');
    const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
    const grant = (await store.get({ key: 'grant' })) as { email?: { enabled?: boolean } } | null;
    if (!grant?.email?.enabled) return { ok: false, status: 403, message: 'Password sign-in is disabled on this server.' };
    const user = await userRepository(strapi).findLocal(identifier);
    // An unknown identifier costs the same bcrypt comparison as a wrong password (no user enumeration by timing).
    const valid = await up.service('user').validatePassword(password, user?.password || DUMMY_HASH);
    if (!user?.password || !valid) {
      return { ok: false, status: 401, message: WRONG };
    }
    const advanced = (await store.get({ key: 'advanced' })) as { email_confirmation?: boolean } | null;
    if (advanced?.email_confirmation && user.confirmed !== true) {
      return { ok: false, status: 403, message: 'Confirm your email address before signing in.' };
    }
    if (user.blocked === true) return { ok: false, status: 403, message: 'This account has been blocked by an administrator.' };
    return { ok: true, userId: user.id };
  },
});
