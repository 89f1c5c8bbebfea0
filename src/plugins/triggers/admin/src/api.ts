/** What the plugin's admin routes answer: the server's own types (type-only imports, erased from the bundle). */
export type { AdminOrganization } from '../../server/src/services/admin-organizations';
export type {
  AdminAction,
  AdminExecution,
  AdminExecutionDetail,
  AdminInstanceSummary,
  AdminOrganizationDetail,
  AdminOrganizationKey,
  AdminUser,
  AdminWorkflow,
} from '../../server/src/schemas/admin';
