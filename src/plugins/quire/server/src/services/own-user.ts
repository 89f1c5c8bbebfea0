/**
 * An editor's own user account (issue 36 point 2): articles belong to users-permissions users,
 * so an admin who wants to write under their own name gets one, made on first use with the
 * admin's email and name, and linked to that admin (Strapi's plugin store keeps admin id ->
 * user id). It is an ordinary user of the Authenticated role, with a random password nobody
 * knows: the admin reaches its articles through the panel, and can sign it in with the CLI
 * (`quire login`) like any user, after a password reset.
 *
 * An existing user with the admin's email is never taken over silently: users-permissions does
 * not prove that an address belongs to whoever registered it, so such an account may be someone
 * else's. The admin is told to pick it as the owner explicitly instead.
 */
import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { invalidArgument } from '#kernel/errors';
import { userRepository, type UserIdentity } from '../repositories/users';

export type OwnUser = UserIdentity;

const store = (strapi: Core.Strapi) => strapi.store({ type: 'plugin', name: 'quire', key: 'admin-own-users' });

async function links(strapi: Core.Strapi): Promise<Record<string, number>> {
  return ((await store(strapi).get({})) as Record<string, number> | null) ?? {};
}

/** The user linked to admin `adminId`, or null (none yet, or it was deleted). */
export async function linkedUser(strapi: Core.Strapi, adminId: number): Promise<OwnUser | null> {
  const userId = (await links(strapi))[String(adminId)];
  return userId ? userRepository(strapi).identity(userId) : null;
}

/** A username from the admin's name (or email), unused among the users. */
async function freeUsername(strapi: Core.Strapi, base: string): Promise<string> {
  const stem = (base.normalize('NFKD').replace(/[^\w.-]+/g, '.').replace(/^\.+|\.+$/g, '') || 'editor').slice(0, 40);
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? stem : `${stem}.${n}`;
    if (!(await userRepository(strapi).usernameTaken(candidate))) return candidate;
  }
}

/** The admin's own user: the linked one, or one made now with the admin's email. */
export async function ownUser(strapi: Core.Strapi, adminId: number): Promise<OwnUser> {
  const linked = await linkedUser(strapi, adminId);
  if (linked) return linked;
  const users = userRepository(strapi);
  const admin = await users.admin(adminId);
  if (!admin) throw invalidArgument('Your admin account was not found.', 'Sign in again.');
  const email = String(admin.email).toLowerCase();
  const taken = await users.byEmail(email);
  if (taken) {
    throw invalidArgument(
      `A user with your email (${email}) exists already, as "${taken.username}"; it was not made by Quire, so it is not taken as yours.`,
      `Pick "${taken.username}" as the owner if that account is yours.`,
    );
  }
  const role = await users.authenticatedRoleId();
  const name = [admin.firstname, admin.lastname].filter(Boolean).join('.') || admin.username || email.split('@')[0];
  const created = await strapi.plugin('users-permissions').service('user').add({
    username: await freeUsername(strapi, name),
    email,
    provider: 'local',
    password: crypto.randomBytes(32).toString('base64url'),
    confirmed: true,
    blocked: false,
    ...(role ? { role } : {}),
  });
  const user = (await users.identityByDocumentId(created.documentId))!;
  await store(strapi).set({ value: { ...(await links(strapi)), [String(adminId)]: Number(user.id) } });
  return user;
}
