import { routeGroup } from '#kernel/routes';

/** The users' management API takes a user's credential (API key, JWT or session), like the article API. */
export const USER_CREDENTIALS = ['api-key', 'jwt', 'session'] as const;
/** The /api/process-instances routes also take an organization key, for the instances of its organization. */
export const route = routeGroup('triggers', {
  credentials: ['organization-key', ...USER_CREDENTIALS],
  // A route under /api taking one of these is a users-permissions action (the person's role decides).
  userCredentials: ['api-key', 'jwt', 'session', 'oauth'],
});
