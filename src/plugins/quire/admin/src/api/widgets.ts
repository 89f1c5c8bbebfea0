/** The admin home's widgets: articles agents changed, suggestions waiting. */
import { useAdminGet } from '#kernel/admin-ui/use-admin-get';
import type { AdminAgentChanges, AdminPendingSuggestions } from './schema-types';

export const useAgentChanges = (limit = 5) => useAdminGet<{ data: AdminAgentChanges }>('/quire/widgets/agent-changes', { limit });
export const usePendingSuggestions = (limit = 5) => useAdminGet<{ data: AdminPendingSuggestions }>('/quire/widgets/pending-suggestions', { limit });
