import { useRBAC } from '@strapi/strapi/admin';
import { PERMISSIONS } from '../permissions';

/** Whether the signed-in admin holds plugin::triggers.manage (buttons that change things show only then). */
export function useCanManage(): boolean {
  const { allowedActions } = useRBAC(PERMISSIONS.manage);
  return Boolean(allowedActions.canManage);
}
