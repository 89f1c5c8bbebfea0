/**
 * The first admin of a fresh server, decided from the environment (pure code).
 *
 * - ADMIN_EMAIL and ADMIN_PASSWORD set: that super admin is created at boot when no admin
 *   exists (ADMIN_FIRSTNAME, ADMIN_LASTNAME optional). A value Strapi would refuse stops the
 *   boot with one line that says what to change.
 * - Neither set: registering the first admin needs the setup token, which the server prints
 *   in its log at start while no admin exists (see setup-token.ts).
 */
import { createHmac } from 'node:crypto';
import { ConfigError } from '../kernel/config';

export interface FirstAdminInput {
  email: string;
  password: string;
  firstname: string;
  lastname: string | null;
}

/**
 * Strapi's rules for admin passwords (the admin's registration validator): 8 characters or
 * more, at most 72 bytes (bcrypt's limit), a lowercase letter, an uppercase letter, a digit.
 * The first rule broken, or null.
 */
export function adminPasswordProblem(password: string): string | null {
  if (password.length < 8) return 'it must be at least 8 characters long';
  if (Buffer.byteLength(password, 'utf8') > 72) return 'it must be at most 72 bytes long';
  if (!/[a-z]/.test(password)) return 'it must contain a lowercase letter';
  if (!/[A-Z]/.test(password)) return 'it must contain an uppercase letter';
  if (!/\d/.test(password)) return 'it must contain a digit';
  return null;
}

/** The one `@` and a dot in the domain: what an admin's sign-in needs, as Strapi's email check. */
const looksLikeEmail = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);

/** ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_FIRSTNAME, ADMIN_LASTNAME as config/admin.ts read them (`admin.firstAdmin`). */
export interface FirstAdminSettings {
  email?: string;
  password?: string;
  firstname?: string;
  lastname?: string;
}

/**
 * The admin to create, null when neither ADMIN_EMAIL nor ADMIN_PASSWORD is set; a ConfigError
 * (one line, no stack) when the values cannot work.
 */
export function firstAdminFrom(settings: FirstAdminSettings | undefined): FirstAdminInput | null {
  const email = settings?.email?.trim() ?? '';
  const password = settings?.password ?? '';
  if (!email && !password) return null;
  if (!email) throw new ConfigError('ADMIN_PASSWORD is set but ADMIN_EMAIL is not: set both to create the first admin at boot, or neither.');
  if (!password) throw new ConfigError('ADMIN_EMAIL is set but ADMIN_PASSWORD is not: set both to create the first admin at boot, or neither.');
  if (!looksLikeEmail(email)) throw new ConfigError(`ADMIN_EMAIL "${email}" is not an email address.`);
  const problem = adminPasswordProblem(password);
  if (problem) {
    throw new ConfigError(
      `ADMIN_PASSWORD is refused by Strapi's admin password rules: ${problem} (8 characters or more, at most 72 bytes, with a lowercase letter, an uppercase letter and a digit).`,
    );
  }
  return {
    email: email.toLowerCase(),
    password,
    firstname: settings?.firstname?.trim() || 'Admin',
    lastname: settings?.lastname?.trim() || null,
  };
}

/**
 * The setup token of a deployment: derived from its admin secret, so every process of it
 * prints and accepts the same one (behind a load balancer too), and it cannot be guessed
 * without that secret. It is only accepted while no admin exists.
 */
export function setupTokenOf(adminSecret: string): string {
  return createHmac('sha256', adminSecret).update('quire: first admin setup token').digest('base64url');
}
