/**
 * The article tools, built once from the declared routes, and the users-permissions actions an
 * MCP request's body will need: the POST /api/mcp guard has the API key's lookup answer the
 * role's permission for a tools/call's route too (kernel/auth `actionsOf`), so running the tool
 * in-process (kernel/invoke) makes no permission query of its own.
 */
import { routes } from '../routes';
import { buildTools, routeFor, type Tool } from './tools';
import { MAX_BATCH_MESSAGES } from './limits';

// Built on first use: routes/index.ts declares the MCP route, which names this module.
let built: { tools: Tool[]; byName: Map<string, Tool> } | undefined;

function catalog() {
  if (!built) {
    const tools = buildTools(routes);
    built = { tools, byName: new Map(tools.map((t) => [t.spec.name, t])) };
  }
  return built;
}

/** The article tools (every caller but an organization key gets these). */
export const articleTools = (): Tool[] => catalog().tools;

/** The actions of the routes the body's tools/call messages would run (none for anything else). */
export function toolActions(body: unknown): string[] {
  const messages = (Array.isArray(body) ? body : [body]).slice(0, MAX_BATCH_MESSAGES);
  const actions = new Set<string>();
  for (const message of messages) {
    const params = (message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null)?.method === 'tools/call' ? (message as { params?: { name?: unknown; arguments?: unknown } }).params : undefined;
    if (typeof params?.name !== 'string') continue;
    const tool = catalog().byName.get(params.name);
    if (!tool) continue;
    const args = params.arguments && typeof params.arguments === 'object' ? (params.arguments as Record<string, unknown>) : {};
    const action = routeFor(tool, args).route.action;
    if (action) actions.add(action);
  }
  return [...actions];
}
