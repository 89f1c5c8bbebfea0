/**
 * What the signed-in admin may do, over Strapi's RBAC: `usePermissions(PERMISSIONS.edit, PERMISSIONS.publish)`
 * gives `{ canEdit, canPublish, isLoading }`, the action's last part as Strapi names it
 * (`plugin::x.edit` → `canEdit`). It always hands `useRBAC` an array of permissions: the
 * object form is deprecated and warned about on every page that uses it (Strapi 5.54).
 */
import { useRBAC, type Permission } from '@strapi/strapi/admin';
import * as React from 'react';

type PermissionList = Array<Pick<Permission, 'action' | 'subject'>>;

export function usePermissions(...lists: PermissionList[]): Record<string, boolean> & { isLoading: boolean } {
  const key = JSON.stringify(lists);
  // One array per set of lists: useRBAC checks again whenever it gets a new one.
  const permissions = React.useMemo(() => lists.flat() as Permission[], [key]); // eslint-disable-line react-hooks/exhaustive-deps
  const { allowedActions, isLoading } = useRBAC(permissions);
  return { ...allowedActions, isLoading };
}

/** Whether the admin holds every one of these permissions (while they load: no). */
export function useAllowed(...lists: PermissionList[]): boolean {
  const allowed = usePermissions(...lists);
  const names = lists.flat().map(({ action }) => `can${(action.split('.').pop() ?? '').replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}`);
  return !allowed.isLoading && names.every((name) => allowed[name] === true);
}
