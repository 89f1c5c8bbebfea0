/**
 * The MCP server of POST /api/mcp (CONTRACT §16): stateless, so any process can answer any
 * request.
 *
 * One SDK `Server` (its handlers, the tool list) serves every request. The SDK lets a Server own
 * one transport at a time (Protocol.connect refuses a second), while Streamable HTTP needs a
 * transport per HTTP request; so the Server is connected once to `Multiplexer`, an in-process
 * transport that gives each request message a fresh internal id and hands the answer back to the
 * HTTP request it came from (JSON-RPC ids of different clients collide: every client counts from
 * 0). Each HTTP request gets its own web-standard transport, which validates the HTTP side
 * (Accept, Content-Type, protocol version) and assembles the JSON answer.
 *
 * A tool call runs its route in-process (kernel/invoke.ts) for the caller the MCP request
 * authenticated: the route's credentials, role action, key scope (a `suggest` key's write becomes
 * a suggestion), parsing, conditional headers and errors apply exactly as over HTTP, with no
 * request to ourselves.
 */
import type { Core } from '@strapi/strapi';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isInitializeRequest,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '#kernel/auth';
import { invokeRoute } from '#kernel/invoke';
import { BATCH_CONCURRENCY, FIRST_VERSION_WITHOUT_BATCHES, limiter, MAX_BATCH_MESSAGES } from './limits';
import { callSkill, listSkillTools } from './skills';
import { routeFor, type Tool } from './tools';

export const SERVER_INFO = { name: 'quire', title: 'Quire', version: '1' };

const INSTRUCTIONS = [
  'Quire keeps long-form articles as ordered sections of Markdown, with a Brief (premise and notes) per article.',
  'Work section by section: get_article or get_outline for the anchors, get_section to read one, add_sections / replace_section to write.',
  'Anchors are short unique prefixes of ids. Read the Brief (get_brief) before writing.',
  'A failed call returns a tool error with a code, a message and a nextAction saying what to do.',
  'With an organization key, the tools are instead the organization\'s skills (its workflows): a call runs the workflow and returns its output.',
].join(' ');

export interface ToolError {
  code: string;
  message: string;
  nextAction?: string;
}

export const toolError = (error: ToolError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: [`${error.code}: ${error.message}`, error.nextAction && `Next: ${error.nextAction}`].filter(Boolean).join('\n') }],
  // Exactly the envelope's three fields: the tools' output schemas declare this shape (tools.ts).
  structuredContent: { error: { code: error.code, message: error.message, ...(error.nextAction ? { nextAction: error.nextAction } : {}) } },
});

/** The tools a caller is offered, and how a route named in a nextAction reads as a tool. */
export interface Toolset {
  tools: readonly Tool[];
  byName: ReadonlyMap<string, Tool>;
  /** The answer to tools/list (built once). */
  listing: { tools: Array<Record<string, unknown>> };
  /** `GET /api/articles/x/outline` in an error's nextAction becomes "the get_outline tool". */
  nameRoutes(text: string): string;
}

/** Chooses the article tools a caller is offered (an organization key gets its organization's skills instead: mcp/skills.ts). */
export type ToolProvider = (caller: Caller) => Toolset;

const ROUTE_MENTION = /\b(GET|POST|PUT|PATCH|DELETE) (\/api\/[^\s,;:)'"`]*[^\s,;:)'"`.])/g;

export function toolset(tools: readonly Tool[]): Toolset {
  const patterns = tools.flatMap((tool) =>
    tool.routes.map(({ route }) => ({
      method: route.method,
      path: new RegExp(`^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/?]+')}(\\?.*)?$`),
      name: tool.spec.name,
    })),
  );
  return {
    tools,
    byName: new Map(tools.map((t) => [t.spec.name, t])),
    listing: {
      tools: tools.map((t) => ({
        name: t.spec.name,
        title: t.spec.title,
        description: t.spec.description,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema,
        annotations: {
          title: t.spec.title,
          readOnlyHint: t.access === 'read',
          destructiveHint: t.method === 'DELETE',
          idempotentHint: t.method !== 'POST',
          openWorldHint: t.spec.name === 'unfurl' || t.spec.name === 'import_article',
        },
      })),
    },
    nameRoutes: (text) =>
      text.replace(ROUTE_MENTION, (mention, method: string, path: string) => {
        const tool = patterns.find((p) => p.method === method && p.path.test(path));
        return tool ? `the ${tool.name} tool` : mention;
      }),
  };
}

/** Calls a tool's route in-process for `caller`; the envelope's `data` is the result, its `error` a tool error. */
export async function callTool(strapi: Core.Strapi, tools: Toolset, tool: Tool, args: Record<string, unknown>, caller: Caller): Promise<CallToolResult> {
  const { route, placement, pathParams } = routeFor(tool, args ?? {});
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(args ?? {})) {
    const where = placement[name];
    if (!where) return toolError({ code: 'invalid-argument', message: `${tool.spec.name} takes no argument "${name}".`, nextAction: `Pass only: ${Object.keys(tool.inputSchema.properties).join(', ')}.` });
    if (value === undefined) continue;
    // Path, query and headers are text over HTTP too; the route's schemas parse them from text.
    if (where === 'params') params[name] = String(value);
    else if (where === 'query') query[name] = String(value);
    else if (where === 'header') headers[name.replace(/[A-Z]/g, (c) => `-${c}`).toLowerCase()] = String(value);
    else body[name] = value;
  }
  const missing = pathParams.find((name) => params[name] === undefined);
  if (missing) return toolError({ code: 'invalid-argument', message: `${missing} is required.`, nextAction: `Pass "${missing}".` });
  const hasBody = route.body !== undefined && route.method !== 'GET';
  const answer = await invokeRoute(strapi, route, caller, { params, query, body: hasBody ? body : undefined, headers });
  const envelope = answer.body as { success?: boolean; data?: Record<string, unknown>; error?: ToolError } | undefined;
  if (envelope?.success === true && envelope.data) {
    const etag = answer.headers.etag;
    // The first block is the data as JSON and nothing else (CONTRACT 16); the ETag, for models that read text only, has its own block.
    return {
      content: [{ type: 'text', text: JSON.stringify(envelope.data) }, ...(etag ? [{ type: 'text' as const, text: `ETag: ${etag}` }] : [])],
      structuredContent: envelope.data,
      ...(etag ? { _meta: { etag } } : {}),
    };
  }
  if (envelope?.success === false && envelope.error) {
    const { nextAction } = envelope.error;
    return toolError({ ...envelope.error, ...(nextAction ? { nextAction: tools.nameRoutes(nextAction) } : {}) });
  }
  return toolError({ code: 'internal', message: `${tool.spec.name} got HTTP ${answer.status} without an answer it could read.`, nextAction: 'Retry; if it keeps failing, report it.' });
}

/**
 * The Server's one transport: each request message gets an internal id (unique in this process)
 * and its answer goes back, with the client's id, to whoever asked. The server sends nothing else
 * (stateless: no notifications, no requests to the client).
 */
class Multiplexer implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 0;
  private readonly pending = new Map<number, { id: RequestId; resolve: (answer: JSONRPCMessage) => void }>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // An answer has an id and a result or error (the SDK's type guards would parse the whole result with zod again).
    if (!('id' in message) || !('result' in message || 'error' in message)) return;
    const waiting = this.pending.get(message.id as number);
    if (!waiting) return;
    this.pending.delete(message.id as number);
    waiting.resolve({ ...message, id: waiting.id });
  }

  /** Hands one request to the server; resolves with its answer. */
  request(message: JSONRPCRequest, extra?: MessageExtraInfo): Promise<JSONRPCMessage> {
    const internal = (this.next = (this.next + 1) % Number.MAX_SAFE_INTEGER);
    return new Promise((resolve) => {
      this.pending.set(internal, { id: message.id, resolve });
      this.onmessage?.({ ...message, id: internal }, extra);
    });
  }
}

const callerOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }): Caller => {
  const caller = extra.authInfo?.extra?.caller as Caller | undefined;
  if (!caller) throw new Error('An MCP request reached a handler without its caller.');
  return caller;
};

/** A JSON-RPC error answer for the whole POST (no message of it ran). */
const batchRefused = (ctx, message: string) => {
  ctx.status = 400;
  ctx.body = { jsonrpc: '2.0', id: null, error: { code: -32600, message } };
};

/**
 * Refuses a batch the negotiated protocol does not have (2025-06-18 and later: the
 * Mcp-Protocol-Version header, or an initialize's own protocolVersion), or one larger than
 * MAX_BATCH_MESSAGES. True when it answered.
 */
function refuseBatch(ctx): boolean {
  const body = ctx.request.body;
  if (!Array.isArray(body)) return false;
  const initialize = body.find((m) => isInitializeRequest(m)) as { params: { protocolVersion: string } } | undefined;
  const header = ctx.request.headers['mcp-protocol-version'];
  const version = String(initialize?.params.protocolVersion ?? (Array.isArray(header) ? header[0] : header) ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
  if (version >= FIRST_VERSION_WITHOUT_BATCHES) {
    batchRefused(ctx, `Invalid Request: MCP protocol version ${version} has no JSON-RPC batches. Send one message per POST.`);
    return true;
  }
  if (body.length > MAX_BATCH_MESSAGES) {
    batchRefused(ctx, `Invalid Request: a batch may hold at most ${MAX_BATCH_MESSAGES} messages (this one has ${body.length}). Send the rest in further POSTs.`);
    return true;
  }
  return false;
}

/** The MCP endpoint of one Strapi app: one Server and handler set for every request. */
export class McpEndpoint {
  private readonly server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  private readonly multiplexer = new Multiplexer();
  private readonly connected: Promise<void>;

  constructor(
    private readonly strapi: Core.Strapi,
    private readonly toolsFor: ToolProvider,
  ) {
    this.server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      const caller = callerOf(extra);
      // An organization's skills change as its workflows do: read on every list, never cached.
      if (caller.kind === 'organization') return (await listSkillTools(this.strapi, caller.organizationId)) as never;
      return this.toolsFor(caller).listing as never;
    });
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const caller = callerOf(extra);
      if (caller.kind === 'organization') {
        return callSkill(this.strapi, caller.organizationId, request.params.name, request.params.arguments, request.params._meta as Record<string, unknown> | undefined);
      }
      const tools = this.toolsFor(caller);
      const tool = tools.byName.get(request.params.name);
      if (!tool) return toolError({ code: 'not-found', message: `There is no tool "${request.params.name}".`, nextAction: 'Call tools/list for the tools there are.' });
      return callTool(this.strapi, tools, tool, (request.params.arguments ?? {}) as Record<string, unknown>, caller);
    });
    this.connected = this.server.connect(this.multiplexer);
  }

  /**
   * Answers one POST /api/mcp for `caller`: the JSON-RPC message(s) in, the answer out (JSON, no
   * session). The web-standard transport hands back a Response that Koa then writes like any
   * other answer (so the envelope, logging and response checks see it).
   */
  async serve(ctx, caller: Caller): Promise<void> {
    if (refuseBatch(ctx)) return;
    await this.connected;
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const limit = limiter(BATCH_CONCURRENCY);
    transport.onmessage = (message, extra) => {
      // Notifications and responses need no answer from a stateless server.
      if (!isJSONRPCRequest(message)) return;
      limit(() => this.multiplexer.request(message, extra))
        .then((answer) => transport.send(answer))
        .catch((error) => this.strapi.log.error(`MCP message ${String(message.id)} failed: ${(error as Error)?.stack ?? error}`));
    };
    await transport.start();
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries<string | string[] | undefined>(ctx.request.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const request = new Request(`http://mcp.invalid${ctx.path}`, { method: ctx.method, headers });
      const response = await transport.handleRequest(request, { parsedBody: ctx.request.body, authInfo: { token: '', clientId: '', scopes: [], extra: { caller } } });
      const text = await response.text();
      response.headers.forEach((value, name) => ctx.set(name, value));
      ctx.status = response.status;
      // The JSON as the transport wrote it (its Content-Type is set above): not parsed to be written again.
      if (text) ctx.body = text;
      else {
        ctx.body = null;
        ctx.status = response.status;
      }
    } finally {
      await transport.close();
    }
  }
}
