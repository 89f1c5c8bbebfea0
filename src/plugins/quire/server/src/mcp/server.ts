/**
 * The MCP server of POST /api/mcp (CONTRACT §16): stateless, so any process can answer any
 * request. Each HTTP request builds a fresh server and transport (as Strapi's own /mcp does), answers
 * with JSON, and is gone.
 *
 * A tool call is its route's own HTTP request, sent to this server's listening address with the
 * caller's Authorization header: the route's guard, role check, key scope, suggestion, parsing,
 * conditional headers and errors all apply exactly as they do to any other client, and a route
 * that changes (ETags, scopes) changes its tool with it.
 */
import type { AddressInfo } from 'node:net';
import type { Core } from '@strapi/strapi';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { routeFor, type Tool } from './tools';

/** Longer than any route takes (imports fetch a page, then go through the worker pool). */
const ROUTE_TIMEOUT_MS = 120_000;

export const SERVER_INFO = { name: 'quire', title: 'Quire', version: '1' };

const INSTRUCTIONS = [
  'Quire keeps long-form articles as ordered sections of Markdown, with a Brief (premise and notes) per article.',
  'Work section by section: get_article or get_outline for the anchors, get_section to read one, add_sections / replace_section to write.',
  'Anchors are short unique prefixes of ids. Read the Brief (get_brief) before writing.',
  'A failed call returns a tool error with a code, a message and a nextAction saying what to do.',
].join(' ');

/** What a tool call needs to reach its route. */
export interface RouteCaller {
  /** The base URL the route is requested at (this server's own listening address). */
  baseUrl: string;
  /** The caller's `Authorization` header, passed on as it came. */
  authorization?: string;
}

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

/** Calls a tool's route with its arguments; the envelope's `data` is the result, its `error` a tool error. */
export async function callTool(tool: Tool, args: Record<string, unknown>, caller: RouteCaller): Promise<CallToolResult> {
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'quire-mcp' };
  if (caller.authorization) headers.authorization = caller.authorization;
  const { route, placement } = routeFor(tool, args ?? {});
  let path = route.path;
  for (const [name, value] of Object.entries(args ?? {})) {
    const where = placement[name];
    if (!where) return toolError({ code: 'invalid-argument', message: `${tool.spec.name} takes no argument "${name}".`, nextAction: `Pass only: ${Object.keys(tool.inputSchema.properties).join(', ')}.` });
    if (value === undefined) continue;
    if (where === 'params') path = path.replace(`:${name}`, encodeURIComponent(String(value)));
    else if (where === 'query') query.set(name, String(value));
    else if (where === 'header') headers[name.replace(/[A-Z]/g, (c) => `-${c}`).toLowerCase()] = String(value);
    else body[name] = value;
  }
  const missing = /:([A-Za-z]+)/.exec(path);
  if (missing) return toolError({ code: 'invalid-argument', message: `${missing[1]} is required.`, nextAction: `Pass "${missing[1]}".` });
  const url = `${caller.baseUrl}${path}${query.size ? `?${query}` : ''}`;
  const hasBody = route.body !== undefined && route.method !== 'GET';
  if (hasBody) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, { method: route.method, headers, body: hasBody ? JSON.stringify(body) : undefined, redirect: 'manual', signal: AbortSignal.timeout(ROUTE_TIMEOUT_MS) });
  } catch (error) {
    const why = (error as Error).name === 'TimeoutError' ? 'no answer in time' : (error as Error).message;
    return toolError({ code: 'internal', message: `${tool.spec.name} could not reach its route (${why}).`, nextAction: 'Retry with backoff; if it keeps failing, report it.' });
  }
  const text = await response.text();
  let envelope: { success?: boolean; data?: Record<string, unknown>; error?: ToolError } | undefined;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = undefined;
  }
  if (envelope?.success === true && envelope.data) {
    const etag = response.headers.get('etag');
    // The first block is the data as JSON and nothing else (CONTRACT 16); the ETag, for models that read text only, has its own block.
    return {
      content: [{ type: 'text', text: JSON.stringify(envelope.data) }, ...(etag ? [{ type: 'text' as const, text: `ETag: ${etag}` }] : [])],
      structuredContent: envelope.data,
      ...(etag ? { _meta: { etag } } : {}),
    };
  }
  if (envelope?.success === false && envelope.error) return toolError(envelope.error);
  return toolError({ code: 'internal', message: `${tool.spec.name} got HTTP ${response.status} without an answer it could read.`, nextAction: 'Retry; if it keeps failing, report it.' });
}

/** A fresh MCP server offering `tools`, calling their routes for `caller`. */
export function mcpServer(tools: readonly Tool[], caller: RouteCaller): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((t) => [t.spec.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
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
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return toolError({ code: 'not-found', message: `There is no tool "${request.params.name}".`, nextAction: 'Call tools/list for the tools there are.' });
    return callTool(tool, (request.params.arguments ?? {}) as Record<string, unknown>, caller);
  });
  return server;
}

/** Where this process's HTTP server listens, as a base URL for its own routes. */
export function localBaseUrl(strapi: Core.Strapi): string {
  const address = strapi.server.httpServer.address() as AddressInfo | string | null;
  if (!address || typeof address === 'string') throw new Error('The MCP endpoint needs the HTTP server to listen on a TCP port.');
  const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * Answers one POST /api/mcp: the JSON-RPC message in, the answer out (JSON, no session). The
 * SDK's web-standard transport hands back a Response that Koa then writes like any other answer
 * (so the envelope, logging and response checks see it).
 */
export async function serveMcp(strapi: Core.Strapi, tools: readonly Tool[], ctx): Promise<void> {
  const server = mcpServer(tools, { baseUrl: localBaseUrl(strapi), authorization: ctx.request.headers.authorization });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries<string | string[] | undefined>(ctx.request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const request = new Request(`http://mcp.invalid${ctx.path}`, { method: ctx.method, headers });
    const response = await transport.handleRequest(request, { parsedBody: ctx.request.body });
    const text = await response.text();
    response.headers.forEach((value, name) => ctx.set(name, value));
    ctx.status = response.status;
    if (text) ctx.body = response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
    else {
      ctx.body = null;
      ctx.status = response.status;
    }
  } finally {
    await transport.close();
    await server.close();
  }
}
