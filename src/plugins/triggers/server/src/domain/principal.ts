/** Who calls a management route: a user (API key, JWT or session) or an organization key. */
export type Principal =
  | { kind: 'user'; userId: number }
  | { kind: 'organization'; organizationId: string; userId: number; keyId: number };

/** The where-clause that limits instances (and what hangs off them) to what the principal may see. */
export const instanceScope = (principal: Principal) =>
  principal.kind === 'user' ? { userId: principal.userId } : { organizationId: principal.organizationId };
