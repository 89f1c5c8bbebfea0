import type { Core } from '@strapi/strapi';
import { ApiError } from '#kernel/errors';
import { McpEndpoint, toolset } from '../mcp/server';
import { getService } from '../services/get-service';

/** GET and DELETE /api/mcp (routes/mcp.ts): Streamable HTTP's answer for a stateless server. */
const notServed = (ctx) => {
  throw new ApiError('method-not-allowed', `${ctx.method} /api/mcp is not served: this MCP server is stateless (no SSE stream, no session).`, 'Send each JSON-RPC message with POST /api/mcp.', {
    status: 405,
    headers: { Allow: 'POST' },
  });
};

/**
 * POST /api/mcp: one endpoint (one MCP server, its tools built once from the declared routes)
 * for every request, made on the first. Every caller gets the same tools today; the provider is
 * where a credential could choose its own set.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let endpoint: McpEndpoint | undefined;
  const endpointOf = () => {
    if (!endpoint) {
      const tools = toolset(getService(strapi, 'mcp').articleTools());
      endpoint = new McpEndpoint(strapi, () => tools);
    }
    return endpoint;
  };
  return {
    handle: (ctx) => endpointOf().serve(ctx, ctx.state.caller),
    stream: notServed,
    endSession: notServed,
  };
};
