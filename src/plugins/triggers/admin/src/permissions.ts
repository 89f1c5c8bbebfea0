/**
 * The RBAC actions the pages check; registered by the server (server/src/permissions.ts),
 * granted in Settings > Administration panel > Roles > Plugins > Triggers.
 */
const action = (name: string) => [{ action: `plugin::triggers.${name}`, subject: null }];

export const PERMISSIONS = {
  read: action('read'),
  manage: action('manage'),
};
