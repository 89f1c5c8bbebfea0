/**
 * What the plugin's admin routes answer, from the server's schemas only (type-only imports,
 * erased from the bundle). The calls are in api/<resource>.ts (organizations, instances,
 * workflows, executions), on the kernel's admin-ui/fetch.ts.
 */
import type { z } from 'zod';
import type * as admin from '../../server/src/schemas/admin';

export type {
  AdminAction,
  AdminExecution,
  AdminExecutionDetail,
  AdminFailedExecution,
  AdminInstanceSummary,
  AdminOrganization,
  AdminOrganizationDetail,
  AdminOrganizationKey,
  AdminUser,
  AdminWorkflow,
} from '../../server/src/schemas/admin';

export type AdminKeyIssued = z.infer<typeof admin.adminKeyIssued>;
export type AdminInstanceKey = z.infer<typeof admin.adminInstanceKey>;
export type AdminWorkflowIssued = z.infer<typeof admin.adminWorkflowIssued>;
export type AdminSecretAdded = z.infer<typeof admin.adminSecretAdded>;
export type AdminReplayed = z.infer<typeof admin.adminReplayed>;
export type CreateOrganizationInput = z.input<typeof admin.adminCreateOrganizationInput>;
export type CreateWorkflowInput = z.input<typeof admin.adminCreateWorkflowInput>;
export type UpdateWorkflowInput = z.input<typeof admin.adminUpdateWorkflowInput>;
