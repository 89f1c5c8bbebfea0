/**
 * The MCP endpoint's catalog as a service: what the route declaration (routes/mcp.ts) and the
 * controller reach it by, so that no route file imports mcp/ (tests/unit/boundaries.test.ts).
 */
import type { Core } from '@strapi/strapi';
import { articleTools, toolActions } from '../mcp/catalog';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** The article tools (built once from the declared routes). */
  articleTools: () => articleTools(strapi),
  /** The users-permissions actions of the routes a POST's tools/call messages would run. */
  toolActions: (body: unknown) => toolActions(strapi, body),
});
