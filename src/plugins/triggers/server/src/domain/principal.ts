import type { OrganizationCaller, UserCaller } from '../../../../../contracts/credentials';

/** Who calls a management route: a user (API key, JWT or session) or an organization key. */
export type Principal =
  | { kind: 'user'; userId: number }
  | { kind: 'organization'; organizationId: string; userId: number; keyId: number };

/** The principal of a management route's caller (kernel/auth). */
export const principalOf = (caller: UserCaller | OrganizationCaller): Principal =>
  caller.kind === 'user'
    ? { kind: 'user', userId: caller.userId }
    : { kind: 'organization', organizationId: caller.organizationId, userId: caller.userId, keyId: caller.keyId };

/** The where-clause that limits instances (and what hangs off them) to what the principal may see. */
export const instanceScope = (principal: Principal) =>
  principal.kind === 'user' ? { userId: principal.userId } : { organizationId: principal.organizationId };
