/**
 * The MCP server of POST /api/mcp (CONTRACT §16): stateless, so any process can answer any
 * request.
 *
 * One SDK `Server` (its handlers, the tool list) serves every request. The SDK lets a Server own
 * one transport at a time (Protocol.connect refuses a second), while Streamable HTTP needs a
 * transport per HTTP request; so the Server is connected once to `Multiplexer`, an in-process
 * transport that gives each request message a fresh internal id and hands the answer back to the
 * HTTP request it came from (JSON-RPC ids of different clients collide: every client counts from
 * 0). Each HTTP request is answered by `answerPost`, which does what the SDK's Streamable HTTP
 * transport does in stateless JSON-response mode (validates the HTTP side: Accept, Content-Type,
 * protocol version; assembles the JSON answer) on Koa's request, without its web Request/Response.
 * Every tools/call is answered by `callDirect` alone (the Server has no tools/call handler): the
 * request parsed once with CallToolRequestSchema, the result checked with CallToolResultSchema,
 * the answer framed as the SDK's Server frames it (tests/api/mcp-transport.test.ts compares the
 * bytes); the Server answers the rest (initialize, tools/list, ping, unknown methods).
 *
 * A tool call runs its route in-process (kernel/routes `invoke`, the route pipeline) for the caller the MCP request
 * authenticated: the route's credentials, role action, key scope (a `suggest` key's write becomes
 * a suggestion), parsing, conditional headers and errors apply exactly as over HTTP, with no
 * request to ourselves.
 */
import type { Core } from '@strapi/strapi';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolRequest,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '#kernel/auth';
import { ApiError, toFailure } from '#kernel/errors';
import { invoke } from '#kernel/routes';
import { BATCH_CONCURRENCY, FIRST_VERSION_WITHOUT_BATCHES, limiter, MAX_BATCH_MESSAGES } from './limits';
import { toolError, type ToolError } from './results';
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

/**
 * Calls a tool's route in-process for `caller` (kernel/routes `invoke`: the route's own pipeline):
 * its data is the result, a thrown ApiError a tool error, with the routes named in its nextAction
 * read as tools.
 */
export async function callTool(strapi: Core.Strapi, tools: Toolset, tool: Tool, args: Record<string, unknown>, caller: Caller): Promise<CallToolResult> {
  const { route, placement, pathParams, headerNames } = routeFor(tool, args ?? {});
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
    else if (where === 'header') headers[(headerNames[name] ?? name).toLowerCase()] = String(value);
    else body[name] = value;
  }
  const missing = pathParams.find((name) => params[name] === undefined);
  if (missing) return toolError({ code: 'invalid-argument', message: `${missing} is required.`, nextAction: `Pass "${missing}".` });
  const hasBody = route.body !== undefined && route.method !== 'GET';
  try {
    const answer = await invoke(strapi, route, caller, { params, query, body: hasBody ? body : undefined, headers });
    const data = answer.data as Record<string, unknown> | undefined;
    if (!data) {
      return toolError({ code: 'internal', message: `${tool.spec.name} got HTTP ${answer.status} without an answer it could read.`, nextAction: 'Retry; if it keeps failing, report it.' });
    }
    const etag = Object.entries(answer.headers).find(([name]) => name.toLowerCase() === 'etag')?.[1];
    // The first block is the data as JSON and nothing else (CONTRACT 16); the ETag, for models that read text only, has its own block.
    return {
      content: [{ type: 'text', text: JSON.stringify(data) }, ...(etag ? [{ type: 'text' as const, text: `ETag: ${etag}` }] : [])],
      structuredContent: data,
      ...(etag ? { _meta: { etag } } : {}),
    };
  } catch (error) {
    // As the envelope middleware answers over HTTP: an ApiError as it is, anything else a logged 500.
    const failure = toFailure(error);
    if (failure.status >= 500) {
      if (error instanceof ApiError) strapi.log.warn(`${route.method} ${route.path} (in-process): ${error.message}`);
      else strapi.log.error(`${route.method} ${route.path} (in-process) failed: ${(error as Error)?.stack ?? error}`);
    }
    const { nextAction, ...rest } = failure.body.error;
    return toolError({ ...rest, ...(nextAction ? { nextAction: tools.nameRoutes(nextAction) } : {}) });
  }
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
    this.connected = this.server.connect(this.multiplexer);
  }

  /** A tools/call's result for `caller`: an article tool's route run in-process, or an organization's skill. */
  private callFor(params: CallToolRequest['params'], caller: Caller): Promise<CallToolResult> | CallToolResult {
    if (caller.kind === 'organization') {
      return callSkill(this.strapi, caller.organizationId, params.name, params.arguments, params._meta as Record<string, unknown> | undefined);
    }
    const tools = this.toolsFor(caller);
    const tool = tools.byName.get(params.name);
    if (!tool) return toolError({ code: 'not-found', message: `There is no tool "${params.name}".`, nextAction: 'Call tools/list for the tools there are.' });
    return callTool(this.strapi, tools, tool, (params.arguments ?? {}) as Record<string, unknown>, caller);
  }

  /**
   * The one path of tools/call, answered as the SDK's Server would answer it with a tools/call
   * handler, without its per-message dispatch (the Protocol's zod checks of each message's kind,
   * two of which fail and build zod issues on every request, an AbortController, the request
   * parsed twice): the request parsed once with CallToolRequestSchema, the result checked with
   * CallToolResultSchema as Server does (McpError InvalidParams when it fails), the answer and the
   * error built as Protocol builds them. A call related to a task (`_meta`) runs as any other (no
   * task store, as the Server did); one asking to run as a task is refused in words.
   */
  private callDirect(message: JSONRPCRequest, caller: Caller): Promise<JSONRPCMessage> {
    const parsed = CallToolRequestSchema.safeParse(message);
    // A call whose params are not a call's (`arguments: "aaa"`) is invalid params (-32602), said
    // in words; the SDK's Server would answer -32603 with zod's raw issues (issue 32).
    if (!parsed.success) return Promise.resolve(invalidCallParams(message.id, parsed.error.issues));
    if (parsed.data.params.task !== undefined) return Promise.resolve(taskRefused(message.id));
    const { id } = message;
    return Promise.resolve()
      .then(() => this.callFor(parsed.data.params, caller))
      .then((result) => {
        const checked = CallToolResultSchema.safeParse(result);
        if (!checked.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
        return { result: checked.data, jsonrpc: '2.0' as const, id };
      })
      .catch((error) => ({
        jsonrpc: '2.0' as const,
        id,
        error: { code: Number.isSafeInteger(error?.code) ? (error.code as number) : ErrorCode.InternalError, message: error?.message ?? 'Internal error', ...(error?.data !== undefined && { data: error.data }) },
      }));
  }

  /**
   * Answers one POST /api/mcp for `caller`: the JSON-RPC message(s) in, the answer out (JSON, no
   * session), as the SDK's Streamable HTTP transport answers in stateless JSON-response mode
   * (WebStandardStreamableHTTPServerTransport with no session id generator and
   * enableJsonResponse; `answerPost` below follows its handlePostRequest and send step by step).
   * Not that transport itself: it costs a web Request, Headers and Response per POST, reads the
   * answer back through a stream, and checks each message's kind with zod five to seven times
   * more (issue 21 point 8: a one-at-a-time get_section over MCP was 0.64x the plain GET).
   */
  async serve(ctx, caller: Caller): Promise<void> {
    if (refuseBatch(ctx)) return;
    await this.connected;
    const answer = await answerPost(ctx, { authInfo: { token: '', clientId: '', scopes: [], extra: { caller } }, requestInfo: { headers: ctx.request.headers } }, (message, extra) => (message.method === 'tools/call' ? this.callDirect(message, caller) : this.multiplexer.request(message, extra)));
    if (answer.text === undefined) {
      // Status after body: Koa turns a null body into 204, and this answer is a 202.
      ctx.body = null;
      ctx.status = answer.status;
      return;
    }
    ctx.status = answer.status;
    ctx.set('Content-Type', 'application/json');
    // The JSON as the SDK's transport writes it: not an object Koa would stringify, nor one the envelope would read.
    ctx.body = answer.text;
  }
}

/** -32602 for a tools/call whose params the schema refuses, naming each field and what it must be. */
export function invalidCallParams(id: JSONRPCRequest['id'], issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): JSONRPCMessage {
  const fields = issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.') || 'params';
    return path === 'params.arguments' ? 'params.arguments must be an object of the tool\'s arguments' : `${path}: ${issue.message}`;
  });
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params for tools/call: ${[...new Set(fields)].join('; ')}. Send {"name": "<tool>", "arguments": {...}} (tools/list gives each tool's arguments).` },
  } as JSONRPCMessage;
}

/**
 * -32602 for a tools/call asking to run as a task (params.task): the server declares no tasks
 * capability (the SDK's Server answered the same code, with zod's issues of a CreateTaskResult).
 */
export function taskRefused(id: JSONRPCRequest['id']): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InvalidParams, message: 'Invalid params for tools/call: this server runs no tool as a task (its capabilities declare no tasks). Send the call again without params.task.' },
  } as JSONRPCMessage;
}

/** A JSON-RPC error for the whole POST, as the SDK's transport writes it (createJsonErrorResponse). */
const transportError = (status: number, code: number, message: string) => ({ status, text: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }) });

/** A request header as the web Headers the SDK's transport reads would give it: repeated values joined, null when absent. */
const headerOf = (ctx, name: string): string | null => {
  const value: string | string[] | undefined = ctx.request.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
};

/**
 * A message's kind, cheaply where the SDK's zod type guards are costly: a guard that fails builds
 * zod's issues. Each message has passed JSONRPCMessageSchema, so one with a method is a request
 * or a notification (isJSONRPCRequest, which passes at little cost, decides); initialize is
 * parsed only when the method says so.
 */
const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest => 'method' in message && 'id' in message && isJSONRPCRequest(message);
const isInitialize = (message: JSONRPCMessage) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message);

/**
 * One POST of Streamable HTTP in stateless JSON-response mode, exactly as the SDK's
 * WebStandardStreamableHTTPServerTransport (1.x) answers it: Accept must list application/json
 * and text/event-stream (406), Content-Type be JSON (415), the body one JSON-RPC message or a
 * batch of at most MAX_BATCH_SIZE (400 -32600), each message valid (400 -32700), at most one
 * initialize and only alone (400 -32600); after initialize, a Mcp-Protocol-Version header, when
 * sent, must be a supported version (400). Notifications and responses alone: 202 without a body
 * (a stateless server acts on none). Requests: each handed to `dispatch` (at most
 * BATCH_CONCURRENCY at once), and once all are answered, 200 with the answer, or the array of
 * answers in the order of their requests.
 */
export async function answerPost(
  ctx,
  extra: MessageExtraInfo,
  dispatch: (message: JSONRPCRequest, extra: MessageExtraInfo) => Promise<JSONRPCMessage>,
): Promise<{ status: number; text?: string }> {
  const accept = headerOf(ctx, 'accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return transportError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(headerOf(ctx, 'content-type'))) return transportError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  const raw: unknown = ctx.request.body;
  if (Array.isArray(raw) && raw.length > MAX_BATCH_SIZE) return transportError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  let messages: JSONRPCMessage[];
  try {
    messages = Array.isArray(raw) ? raw.map((message) => JSONRPCMessageSchema.parse(message)) : [JSONRPCMessageSchema.parse(raw)];
  } catch {
    return transportError(400, -32700, 'Parse error: Invalid JSON-RPC message');
  }
  if (messages.some(isInitialize)) {
    if (messages.length > 1) return transportError(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  } else {
    const version = headerOf(ctx, 'mcp-protocol-version');
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return transportError(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    }
  }
  const requests = messages.filter(isRequest);
  // Notifications and responses need no answer from a stateless server.
  if (!requests.length) return { status: 202 };
  // One answer per request id (a batch that repeats an id gets the first answer to it, as from the SDK's transport).
  const answers = new Map<RequestId, JSONRPCMessage | undefined>(requests.map((request) => [request.id, undefined]));
  const limit = limiter(BATCH_CONCURRENCY);
  await Promise.all(
    requests.map((request) =>
      limit(() => dispatch(request, extra)).then((answer) => {
        if (answers.get(request.id) === undefined) answers.set(request.id, answer);
      }),
    ),
  );
  const list = [...answers.values()];
  return { status: 200, text: JSON.stringify(list.length === 1 ? list[0] : list) };
}
