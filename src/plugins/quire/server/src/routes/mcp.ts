import { z } from 'zod';
import { content, empty, rawBody } from '#kernel/routes';
import { publicUrl } from '#kernel/config';
import { PATHS } from '../domain/oauth';
import { jsonRpcAnswer } from '../schemas/responses';
import { FIRST_VERSION_WITHOUT_BATCHES, MAX_BATCH_MESSAGES } from '../domain/mcp-limits';
import { getService } from '../services/get-service';
import { route } from './route';

/** The MCP endpoint's answer to the methods it does not serve (a stateless server offers no SSE stream nor session). */
const notServed = (method: 'GET' | 'DELETE', why: string) => ({
  method,
  path: '/api/mcp',
  summary: `Not served: ${method} /api/mcp is 405`,
  description:
    `${why} The answer is 405 method-not-allowed with \`Allow: POST\`, which is how Streamable HTTP says so (the MCP SDK's client expects exactly that). ` +
    'No credential is read.',
  credentials: [],
  responses: {},
  errors: [{ code: 'method-not-allowed', status: 405 }],
} as const);


export const mcpRoutes = route('mcp', 'MCP', {
  handle: {
    method: 'POST',
    path: '/api/mcp',
    summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless)',
    description:
      'One JSON-RPC message per POST (initialize, tools/list, tools/call...), answered as JSON. Batches (an array of messages) only under protocol 2025-03-26, ' +
      `at most ${MAX_BATCH_MESSAGES} per POST; later versions have none (400). A tool call runs its route in-process with your credential, ` +
      'so their scopes and errors are the routes\' own. ' +
      'With an organization key (X-Process-Manager-Key, or Authorization: Bearer cko_...) the tools are the organization\'s skills instead (GET /api/skills): ' +
      'a call triggers the workflow and waits up to 30 s for its output. Without a valid credential: 401 with WWW-Authenticate naming the OAuth protected resource metadata. ' +
      'A request with an Origin header that is neither PUBLIC_URL\'s origin nor one of CORS_ORIGINS is 403 permission-denied, before any credential is read (DNS rebinding); ' +
      'requests without Origin (agents, the CLI) are not affected. See docs/mcp.md.',
    // The organization key first: a Bearer cko_ value is its, not a malformed user token.
    credentials: ['organization-key', 'api-key', 'oauth', 'jwt'],
    // Connecting only reads; each tool's route checks its own access (a read-only key gets tool errors on writes).
    access: 'read',
    // The transport requires it: a browser page of another origin is refused (kernel/origins.ts).
    checkOrigin: true,
    auth: {
      challenge: (strapi) => `Bearer resource_metadata="${publicUrl(strapi)}${PATHS.resourceMetadata}"`,
      // A tools/call's route permission comes with the credential's lookup (mcp/catalog.ts, through the mcp service).
      actionsOf: (body, strapi) => getService(strapi, 'mcp').toolActions(body),
    },
    body: rawBody(['application/json'], 'A JSON-RPC 2.0 message of the Model Context Protocol.'),
    headers: {
      'Mcp-Protocol-Version': 'The protocol version negotiated at initialize.',
      Origin: 'Sent by browsers: it must be PUBLIC_URL\'s origin or one of CORS_ORIGINS, else 403. Agents and the CLI send none.',
    },
    responses: {
      200: content(['application/json'], 'The JSON-RPC response (an array of them for a batch).', z.union([jsonRpcAnswer, z.array(jsonRpcAnswer)])),
      400: content(
        ['application/json'],
        `A JSON-RPC error for the whole POST: not JSON-RPC, or a batch (an array of messages) where the protocol version has none (${FIRST_VERSION_WITHOUT_BATCHES} and later), or of more than ${MAX_BATCH_MESSAGES} messages.`,
        jsonRpcAnswer,
      ),
      202: empty('A notification or response was accepted.'),
      406: content(['application/json'], 'The Accept header does not list application/json and text/event-stream (a JSON-RPC error).', jsonRpcAnswer),
      415: content(['application/json'], 'The body is not application/json (a JSON-RPC error).', jsonRpcAnswer),
    },
  },
  stream: notServed('GET', 'This server is stateless: it opens no server-to-client SSE stream.'),
  endSession: notServed('DELETE', 'This server is stateless: there is no session to end.'),
});
