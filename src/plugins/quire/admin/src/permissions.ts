/**
 * The RBAC actions the pages check; registered by the server (server/src/permissions.ts),
 * granted in Settings > Administration panel > Roles > Plugins > Quire.
 */
const action = (name: string) => [{ action: `plugin::quire.${name}`, subject: null }];

export const PERMISSIONS = {
  read: action('read'),
  edit: action('edit'),
  publish: action('publish'),
  delete: action('delete'),
};
