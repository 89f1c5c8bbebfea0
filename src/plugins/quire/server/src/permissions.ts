/**
 * The admin panel's permission actions of the article service (RBAC). Their uids are
 * `plugin::quire.<action>`; a Super Admin holds them all, other roles none until granted in
 * Settings > Administration panel > Roles > Plugins > Quire. Admin routes name the actions
 * they need (routes/admin.ts); the admin pages check the same uids (admin/src/permissions.ts).
 */
export const QUIRE_ACTIONS = {
  read: 'plugin::quire.read',
  edit: 'plugin::quire.edit',
  publish: 'plugin::quire.publish',
  delete: 'plugin::quire.delete',
} as const;

/** What the bootstrap registers with the admin's action provider. */
export const QUIRE_ACTION_DEFINITIONS = [
  { uid: 'read', displayName: 'Read articles' },
  { uid: 'edit', displayName: 'Edit articles' },
  { uid: 'publish', displayName: 'Publish and unpublish articles' },
  { uid: 'delete', displayName: 'Delete articles' },
].map((action) => ({ ...action, section: 'plugins', subCategory: 'articles', pluginName: 'quire' }));
