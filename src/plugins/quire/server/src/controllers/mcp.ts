import type { Core } from '@strapi/strapi';
import { ApiError } from '../../../../../kernel/errors';
import { routes } from '../routes';
import { serveMcp } from '../mcp/server';
import { buildTools } from '../mcp/tools';

/** GET and DELETE /api/mcp (routes/mcp.ts): Streamable HTTP's answer for a stateless server. */
const notServed = (ctx) => {
  throw new ApiError('method-not-allowed', `${ctx.method} /api/mcp is not served: this MCP server is stateless (no SSE stream, no session).`, 'Send each JSON-RPC message with POST /api/mcp.', {
    status: 405,
    headers: { Allow: 'POST' },
  });
};

/** POST /api/mcp: the tools are built once from the declared routes; each request gets a fresh server. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let tools: ReturnType<typeof buildTools> | undefined;
  return {
    handle: (ctx) => serveMcp(strapi, (tools ??= buildTools(routes)), ctx),
    stream: notServed,
    endSession: notServed,
  };
};
