/**
 * The article tools, built once from the plugin's declared routes (the kernel's registry, filled
 * in by register.ts: this module imports no route file, so routes/ never reaches mcp/), and the
 * users-permissions actions an MCP request's body will need: the POST /api/mcp guard has the API
 * key's lookup answer the role's permission for a tools/call's route too (kernel/auth
 * `actionsOf`, through the `mcp` service), so running the tool in-process makes no permission
 * query of its own.
 */
import type { Core } from '@strapi/strapi';
import { declaredRoutes } from '#kernel/routes';
import { buildTools, routeFor, type Tool } from './tools';
import { MAX_BATCH_MESSAGES } from './limits';

interface Catalog {
  tools: Tool[];
  byName: Map<string, Tool>;
}

// Built on first use, once per app.
const catalogs = new WeakMap<Core.Strapi, Catalog>();

function catalog(strapi: Core.Strapi): Catalog {
  let built = catalogs.get(strapi);
  if (!built) {
    const tools = buildTools(declaredRoutes(strapi, 'quire'));
    catalogs.set(strapi, (built = { tools, byName: new Map(tools.map((t) => [t.spec.name, t])) }));
  }
  return built;
}

/** The article tools (every caller but an organization key gets these). */
export const articleTools = (strapi: Core.Strapi): Tool[] => catalog(strapi).tools;

/** The actions of the routes the body's tools/call messages would run (none for anything else). */
export function toolActions(strapi: Core.Strapi, body: unknown): string[] {
  const messages = (Array.isArray(body) ? body : [body]).slice(0, MAX_BATCH_MESSAGES);
  const actions = new Set<string>();
  for (const message of messages) {
    const params = (message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null)?.method === 'tools/call' ? (message as { params?: { name?: unknown; arguments?: unknown } }).params : undefined;
    if (typeof params?.name !== 'string') continue;
    const tool = catalog(strapi).byName.get(params.name);
    if (!tool) continue;
    const args = params.arguments && typeof params.arguments === 'object' ? (params.arguments as Record<string, unknown>) : {};
    const action = routeFor(tool, args).route.action;
    if (action) actions.add(action);
  }
  return [...actions];
}
