/**
 * The users-permissions users, as quire reads them (sign-in of our pages, credential changes).
 */
import type { Core } from '@strapi/strapi';
import { knexOf, tableName } from '#kernel/db';
import { roleAllowsColumn } from '#kernel/permissions';

const USERS = 'plugin::users-permissions.user';
const ROLES = 'plugin::users-permissions.role';
const ADMINS = 'admin::user';

/** A user as an editor's own account shows it (services/own-user). */
export interface UserIdentity {
  id: number;
  username: string;
  email: string;
}

const identityOf = (user: { id: unknown; username: string; email: string } | null): UserIdentity | null =>
  user ? { id: Number(user.id), username: user.username, email: user.email } : null;

export function userRepository(strapi: Core.Strapi) {
  return {
    /** The local user an identifier (email, any case, or username) names, with what a sign-in checks. */
    findLocal(identifier: string): Promise<{ id: number; password: string | null; confirmed: boolean | null; blocked: boolean | null } | null> {
      return strapi.db.query(USERS).findOne({
        where: { provider: 'local', $or: [{ email: identifier.toLowerCase() }, { username: identifier }] },
        select: ['id', 'password', 'confirmed', 'blocked'],
      });
    },

    /** A user by id, with whether it is blocked, or null. */
    findById(id: number): Promise<{ id: number; username: string; email: string; blocked: boolean | null } | null> {
      return strapi.db.query(USERS).findOne({ where: { id }, select: ['id', 'username', 'email', 'blocked'] });
    },

    /**
     * A user by id, with whether it is blocked and whether its role allows each of `actions`
     * (`allowed_0`, `allowed_1`...): a JWT's user and its permissions in one query (kernel/permissions).
     */
    async withPermissions(id: number, actions: readonly string[]): Promise<({ id: number; username: string; email: string; blocked: unknown } & Record<string, unknown>) | undefined> {
      const k = await knexOf(strapi);
      const q = k(tableName(strapi, strapi.db.metadata.get(USERS as never).tableName, 'u')).where('u.id', id);
      for (const [i, action] of actions.entries()) q.select(roleAllowsColumn(strapi, k, 'u.id', action, `allowed_${i}`));
      return q.first('u.id', 'u.username', 'u.email', 'u.blocked');
    },

    /** A user by id, as an editor's own account shows it, or null. */
    async identity(id: number): Promise<UserIdentity | null> {
      return identityOf(await strapi.db.query(USERS).findOne({ where: { id }, select: ['id', 'username', 'email'] }));
    },

    /** A user by its documentId (just made by users-permissions), or null. */
    async identityByDocumentId(documentId: string): Promise<UserIdentity | null> {
      return identityOf(await strapi.db.query(USERS).findOne({ where: { documentId }, select: ['id', 'username', 'email'] }));
    },

    /** The user with this email (as stored, lower case), or null. */
    async byEmail(email: string): Promise<{ id: number; username: string } | null> {
      return strapi.db.query(USERS).findOne({ where: { email }, select: ['id', 'username'] });
    },

    /** Whether a user has this username. */
    async usernameTaken(username: string): Promise<boolean> {
      return Boolean(await strapi.db.query(USERS).findOne({ where: { username }, select: ['id'] }));
    },

    /** The id of the Authenticated role, or null. */
    async authenticatedRoleId(): Promise<number | null> {
      const role = await strapi.db.query(ROLES).findOne({ where: { type: 'authenticated' }, select: ['id'] });
      return role ? role.id : null;
    },

    /** An admin user's name and email, or null. */
    admin(id: number): Promise<{ id: number; email: string; firstname: string | null; lastname: string | null; username: string | null } | null> {
      return strapi.db.query(ADMINS).findOne({ where: { id }, select: ['id', 'email', 'firstname', 'lastname', 'username'] });
    },

    /** Ids of the users a Query Engine `where` matches. */
    async idsWhere(where: unknown): Promise<number[]> {
      const rows = await strapi.db.query(USERS).findMany({ where: where as never, select: ['id'] });
      return rows.map((row: { id: number }) => Number(row.id));
    },
  };
}
