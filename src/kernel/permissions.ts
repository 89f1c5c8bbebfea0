/**
 * Roles decide, as Strapi users expect: every content-api route of ours is a users-permissions
 * action (`plugin::<plugin>.<controller>.<action>`, listed on the Users & Permissions role page),
 * and a caller acting for a user may call it only when that user's role has the action.
 *
 * The Authenticated role gets each of our actions once, by default, the first time a server
 * runs with it (fresh installs and existing databases alike): an operator who unchecks one later
 * is never overruled.
 */
import type { Core } from '@strapi/strapi';
import type { CallerBase, Scope } from './auth';
import type { Knex } from 'knex';
import { knexOf, tableName } from './db';
import { permissionDenied } from './errors';

const USER = 'plugin::users-permissions.user';
const ROLE = 'plugin::users-permissions.role';
const PERMISSION = 'plugin::users-permissions.permission';

interface JoinTable {
  name: string;
  joinColumn: { name: string };
  inverseJoinColumn: { name: string };
}

const joinTableOf = (strapi: Core.Strapi, uid: string, attribute: string) =>
  (strapi.db.metadata.get(uid as never).attributes[attribute] as unknown as { joinTable: JoinTable }).joinTable;

/** The rows of user `user` (an id, or a column of the outer query) whose role has `action`. */
function permissionRows(strapi: Core.Strapi, k: Knex, user: number | Knex.Raw, action: string) {
  const userRole = joinTableOf(strapi, USER, 'role');
  const permissionRole = joinTableOf(strapi, PERMISSION, 'role');
  const permissions = strapi.db.metadata.get(PERMISSION as never).tableName;
  return k(tableName(strapi, userRole.name, 'ur'))
    .join(tableName(strapi, permissionRole.name, 'pr'), `pr.${permissionRole.inverseJoinColumn.name}`, `ur.${userRole.inverseJoinColumn.name}`)
    .join(tableName(strapi, permissions, 'p'), 'p.id', `pr.${permissionRole.joinColumn.name}`)
    .where(`ur.${userRole.joinColumn.name}`, user)
    .andWhere('p.action', action);
}

/** True when the role of user `userId` has the users-permissions action (one indexed query). */
export async function roleAllows(strapi: Core.Strapi, userId: number, action: string): Promise<boolean> {
  const k = await knexOf(strapi);
  const row = await permissionRows(strapi, k, userId, action).first(k.raw('1 as allowed'));
  return Boolean(row);
}

/**
 * A column `as` (true or 1 when the role of the user in `userIdColumn` has `action`), to
 * add to a credential's own lookup: the permission comes with it, not in a query of its own.
 */
export function roleAllowsColumn(strapi: Core.Strapi, k: Knex, userIdColumn: string, action: string, as = 'allowed'): Knex.Raw {
  return k.raw('exists ? as ??', [permissionRows(strapi, k, k.raw('??', [userIdColumn]), action).select(k.raw('1')), as]);
}

async function roleNameOf(strapi: Core.Strapi, userId: number): Promise<string | null> {
  const user = await strapi.db.query(USER as never).findOne({ where: { id: userId }, populate: { role: { select: ['name'] } }, select: ['id'] });
  return (user as { role?: { name?: string } } | null)?.role?.name ?? null;
}

/** What a route needs of its caller, beyond a valid credential. */
export interface Requirement {
  /** The users-permissions action, or null for routes that are no action (no credential, or not content-api). */
  action: string | null;
  /** `read` routes change nothing; `write` routes do. */
  access: 'read' | 'write';
  /** Set when a `suggest` credential's write becomes a suggestion instead of being refused. */
  suggestible?: unknown;
}

const SCOPE_NEXT = 'Use a credential whose scope allows writing (an API key created with scope "write", or your login).';

/** 403 `permission-denied` unless the caller's role has the route's action and its scope allows it. */
export async function authorize(strapi: Core.Strapi, caller: CallerBase | null, requirement: Requirement): Promise<void> {
  if (!caller) return;
  if (requirement.access === 'write' && !scopeWrites(caller.scope, requirement)) {
    throw permissionDenied(`This credential's scope (${caller.scope}) does not allow changes.`, SCOPE_NEXT);
  }
  if (!requirement.action || caller.userId === undefined) return;
  // The credential's lookup may have answered it already (CallerBase.permissions).
  const known = caller.permissions?.[requirement.action];
  if (known ?? (await roleAllows(strapi, caller.userId, requirement.action))) return;
  const role = await roleNameOf(strapi, caller.userId);
  throw permissionDenied(
    `Your role${role ? ` (${role})` : ''} does not allow ${requirement.action}.`,
    'Ask an administrator to allow it for your role in Settings > Users & Permissions plugin > Roles.',
  );
}

/**
 * Only `write` credentials write. A `suggest` credential may call a `suggestible` route (the
 * section writes), which turns the call into a suggestion (CONTRACT section 14).
 */
function scopeWrites(scope: Scope, requirement: Requirement): boolean {
  return scope === 'write' || (scope === 'suggest' && Boolean(requirement.suggestible));
}

const GRANTED_KEY = 'authenticated-role-defaults';

/**
 * Gives the Authenticated role each of `actions` that it was never given by default before
 * (remembered in the core store under `owner`), so that a fresh install, or a new route, works
 * for every signed-in user, while an action an operator took away stays away.
 */
export async function grantByDefault(strapi: Core.Strapi, owner: string, actions: readonly string[]): Promise<string[]> {
  const store = strapi.store({ type: 'plugin', name: owner, key: GRANTED_KEY });
  const done = new Set(((await store.get({})) as string[] | null) ?? []);
  const pending = actions.filter((action) => !done.has(action));
  if (!pending.length) return [];
  const role = await strapi.db.query(ROLE as never).findOne({ where: { type: 'authenticated' }, select: ['id'] });
  // users-permissions creates its roles in its own bootstrap; without them there is nothing to grant yet.
  if (!role) return [];
  const granted: string[] = [];
  await strapi.db.transaction(async () => {
    const existing = await strapi.db.query(PERMISSION as never).findMany({
      where: { action: { $in: pending }, role: { id: (role as { id: number }).id } },
      select: ['action'],
    });
    const has = new Set((existing as Array<{ action: string }>).map((p) => p.action));
    for (const action of pending) {
      if (has.has(action)) continue;
      await strapi.db.query(PERMISSION as never).create({ data: { action, role: (role as { id: number }).id } });
      granted.push(action);
    }
    await store.set({ value: [...done, ...pending] });
  });
  return granted;
}
