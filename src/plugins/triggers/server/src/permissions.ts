/**
 * The admin panel's permission actions of the trigger service (RBAC). Their uids are
 * `plugin::triggers.<action>`: `read` shows the trigger panel, `manage` changes it
 * (organizations, keys, instances, workflows, replays). A Super Admin holds both; other roles
 * neither until granted in Settings > Administration panel > Roles > Plugins > Triggers.
 */
export const TRIGGERS_ACTIONS = {
  read: 'plugin::triggers.read',
  manage: 'plugin::triggers.manage',
} as const;

/** What the bootstrap registers with the admin's action provider. */
export const TRIGGERS_ACTION_DEFINITIONS = [
  { uid: 'read', displayName: 'Read the trigger panel' },
  { uid: 'manage', displayName: 'Manage organizations, keys, instances and workflows' },
].map((action) => ({ ...action, section: 'plugins', subCategory: 'trigger panel', pluginName: 'triggers' }));
