/**
 * The users-permissions users, as quire reads them (sign-in of our pages, credential changes).
 */
import type { Core } from '@strapi/strapi';

const USERS = 'plugin::users-permissions.user';

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

    /** Ids of the users a Query Engine `where` matches. */
    async idsWhere(where: unknown): Promise<number[]> {
      const rows = await strapi.db.query(USERS).findMany({ where: where as never, select: ['id'] });
      return rows.map((row: { id: number }) => Number(row.id));
    },
  };
}
