/**
 * One pipeline per route, whatever the door: `dispatch(route, input, caller)` runs a declared
 * route's stages on its raw input and gives back `{ status, data, headers }`, knowing nothing of
 * Koa or MCP. The stages, in order:
 * 1. `prepare`: the route's declared stages on the raw input, after authentication (they may
 *    rewrite a path parameter: a short id becomes the full one);
 * 2. parse: path parameters (once), query, body and the declared headers with the route's
 *    schemas; the first problem is a 400 naming the field;
 * 3. `rules`: the route's access rules;
 * 4. the handler (on a suggestible route, `suggest` for a `suggest` credential's call), inside
 *    the route's `around` stages, outermost first.
 * Errors are thrown (ApiError); each door answers them its own way. The doors are thin: the Koa
 * adapter (handle.ts: the raw input from the request, the envelope written once) and the
 * in-process door (`invoke`, below: what MCP's tools/call runs).
 */
import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import type { Caller, CallerBase, CallerFor, Credential } from '../auth';
import { unauthenticated } from '../errors';
import { parseInput, PATH_PARAM_NEXT } from '../parse';
import { authorize } from '../permissions';
import type { AnyRoute, HeaderSpec, RouteSpec, RuleInput } from './declare';

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The caller a route's credentials give (null for routes that take none or make it optional). */
export type CallerOf<R> = R extends { credentials: readonly (infer C)[] }
  ? [C] extends [never]
    ? null
    : (C extends Credential ? CallerFor<C> : Caller) | (R extends { auth: { optional: true } } ? null : never)
  : Caller | null;

/** The headers a route declares, parsed: with their schema, or as text (undefined when absent). */
export type HeadersOf<R> = R extends { headers: infer H }
  ? { [K in keyof H]: H[K] extends { schema: z.ZodType } ? z.output<H[K]['schema']> : string | undefined }
  : Record<string, never>;

export interface Input<R> {
  params: R extends { params: z.ZodType } ? z.output<R['params']> : Record<string, string>;
  query: R extends { query: z.ZodType } ? z.output<R['query']> : Record<string, unknown>;
  body: R extends { body: infer B } ? Output<B> : undefined;
  headers: HeadersOf<R>;
  caller: CallerOf<R>;
}

/** The `data` a route's success statuses declare (what a controller returns). */
export type DataOf<R> = R extends { responses: infer A }
  ? { [S in keyof A]: S extends 200 | 201 | 202 ? (A[S] extends z.ZodType ? z.input<A[S]> : never) : never }[keyof A]
  : never;

/** A success answer with a status or headers of its own: `return reply(202, data, { ETag: '...' })`. */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
    readonly data: T,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}
export const reply = <T>(status: number, data: T, headers: Record<string, string> = {}) => new Reply(status, data, headers);
/** 304 Not Modified (a conditional GET whose If-None-Match names the current ETag): no body. */
export const notModifiedReply = (etag: string) => new Reply<never>(304, undefined as never, { ETag: etag });

/**
 * A route's handler: its parsed input, and, from the Koa door only, the request context for what
 * is not input (a raw body stream, the admin's user). In-process calls pass none.
 */
export type Handler<R> = (input: Input<R>, ctx) => Promise<DataOf<R> | Reply<DataOf<R>>> | DataOf<R> | Reply<DataOf<R>>;

/** The handlers of a suggestible route: `apply` writes, `suggest` files a `suggest` credential's call as a suggestion. */
export interface SuggestibleHandlers<R> {
  apply: Handler<R>;
  suggest: Handler<R>;
}

/** What a controller gives for a route: its handler, or the pair of a suggestible route. */
export type HandlerFor<R> = R extends { suggestible: object | true } ? SuggestibleHandlers<R> : Handler<R>;

/** A route's raw input, as a client sends it: text where HTTP has text. Header names in lower case. */
export interface RouteInput {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, unknown>>;
  body?: unknown;
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/** What a route answered: its status, its data (undefined for 304) and its headers. */
export interface Dispatched<T = unknown> {
  status: number;
  data: T | undefined;
  headers: Readonly<Record<string, string>>;
}

/** What a door hands the pipeline beside the input: the app, and (Koa) the request context. */
export interface DispatchContext {
  strapi?: Core.Strapi;
  ctx?: unknown;
}

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** The first success status a route declares (the status of a plain `return data`). */
export function successStatus(route: Pick<RouteSpec, 'responses'>): number {
  const statuses = Object.keys(route.responses).map(Number).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b);
  return statuses[0] ?? 200;
}

/**
 * A declared header's schema as an object of that one field (so a refusal names the header),
 * built once per header spec: building a zod object cost more than parsing with it, on every
 * request of a route with headers (issue 33 point 5: 5% of a PATCH note).
 */
const headerSchemas = new WeakMap<HeaderSpec, Map<string, z.ZodType>>();
function headerSchema(name: string, spec: HeaderSpec): z.ZodType {
  let byName = headerSchemas.get(spec);
  if (!byName) headerSchemas.set(spec, (byName = new Map()));
  let schema = byName.get(name);
  if (!schema) byName.set(name, (schema = z.object({ [name]: spec.schema })));
  return schema;
}

/** The headers a route declares, parsed with their schemas (a header without one is its text, repeated values joined). */
export function parseHeaders(route: Pick<RouteSpec, 'headers'>, raw: RouteInput['headers'], context: { params: Readonly<Record<string, string>> }): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(route.headers ?? {})) {
    const value = raw?.[name.toLowerCase()];
    if (typeof spec === 'string') headers[name] = Array.isArray(value) ? value.join(', ') : value;
    else headers[name] = (parseInput(headerSchema(name, spec as HeaderSpec), { [name]: value }, undefined, context) as Record<string, unknown>)[name];
  }
  return headers;
}

/** Parses a raw input with its route's schemas (path parameters once): the first problem is a 400 naming the field. */
export function parseRequest<R extends AnyRoute>(route: R, raw: RouteInput, caller: Caller | null): Input<R> {
  const params = raw.params ?? {};
  const context = { params };
  return {
    params: route.params ? parseInput(route.params, params, PATH_PARAM_NEXT, context) : params,
    query: isZod(route.query) ? parseInput(route.query, raw.query ?? {}, undefined, context) : (raw.query ?? {}),
    body: isZod(route.body) ? parseInput(route.body, raw.body ?? {}, undefined, context) : undefined,
    headers: parseHeaders(route, raw.headers, context),
    caller,
  } as Input<R>;
}

/** The route's declared stages before parsing (`prepare`); they may rewrite the raw path parameters. Returns the input to parse. */
export async function prepare(route: AnyRoute, raw: RouteInput, caller: Caller | null, strapi: Core.Strapi | undefined): Promise<RouteInput> {
  if (!route.prepare?.length) return raw;
  if (!strapi) throw new Error(`Route ${route.id} declares stages that need the app, and its door gave none.`);
  const params: Record<string, string> = { ...(raw.params ?? {}) };
  for (const stage of route.prepare) await stage.run(params, caller, strapi);
  return { ...raw, params };
}

/**
 * The declared stages after parsing: the route's access rules, then the handler, chosen by the
 * caller's scope on a suggestible route (a `suggest` credential's call is filed as a suggestion).
 */
export async function runHandler<R extends AnyRoute>(route: R, handler: HandlerFor<R> | Handler<R>, input: Input<R>, ctx) {
  for (const rule of route.rules ?? []) await rule.check(input as unknown as RuleInput);
  if (typeof handler === 'function') {
    if (route.suggestible) throw new Error(`Route ${route.id} is suggestible: its controller gives { apply, suggest }.`);
    return handler(input, ctx);
  }
  const pair = handler as SuggestibleHandlers<R>;
  const suggestion =
    (input.caller as CallerBase | null)?.scope === 'suggest' &&
    !(typeof route.suggestible === 'object' && route.suggestible.unless(input as unknown as RuleInput));
  return suggestion ? pair.suggest(input, ctx) : pair.apply(input, ctx);
}

/** Runs `route` for an authenticated `caller`: prepare, parse, rules, handler; its answer as data. Throws ApiError for failures. */
export async function dispatch<R extends AnyRoute>(
  route: R,
  handler: HandlerFor<R> | Handler<R>,
  input: RouteInput,
  caller: Caller | null,
  context: DispatchContext = {},
): Promise<Dispatched<DataOf<R>>> {
  const raw = await prepare(route, input, caller, context.strapi);
  const parsed = parseRequest(route, raw, caller);
  const call = () => runHandler(route, handler, parsed, context.ctx);
  const around = (route.around ?? []).reduceRight<() => Promise<unknown>>((next, stage) => () => stage.run(parsed as unknown as RuleInput, next, raw), call);
  const result = await around();
  if (result instanceof Reply) return { status: result.status, data: result.status === 304 ? undefined : (result.data as DataOf<R>), headers: result.headers };
  return { status: successStatus(route), data: result as DataOf<R>, headers: {} };
}

// ---- the handlers behind the declarations ----

/** Where `controller()` leaves an action's handler, for the in-process door to find. */
export const ROUTE_HANDLER = Symbol('route handler');

/** The handler of the controller action a route names, as Strapi instantiated the plugin's controllers. */
export function handlerOf(strapi: Core.Strapi, route: AnyRoute): HandlerFor<AnyRoute> | Handler<AnyRoute> {
  const dot = route.handler.lastIndexOf('.');
  const controller = strapi.plugin(route.plugin).controller(route.handler.slice(0, dot)) as unknown as Record<string, unknown> | undefined;
  const action = controller?.[route.handler.slice(dot + 1)] as { [ROUTE_HANDLER]?: HandlerFor<AnyRoute> } | undefined;
  const handler = action?.[ROUTE_HANDLER];
  if (!handler) throw new Error(`Route ${route.id} has no controller action ${route.handler} made by controller().`);
  return handler;
}

/**
 * The in-process door (MCP tools): `route` run for a `caller` already authenticated by the
 * request that carries the call (POST /api/mcp). What the route asks of a caller still applies
 * as over HTTP: its credentials (a route that takes no API key refuses one), its access and the
 * credential's scope, the users-permissions action of the caller's role. Then `dispatch`.
 */
export async function invoke<R extends AnyRoute>(strapi: Core.Strapi, route: R, caller: Caller, input: RouteInput): Promise<Dispatched<DataOf<R>>> {
  if (!(route.credentials as readonly string[]).includes(caller.credential)) {
    throw unauthenticated(`${route.method} ${route.path} does not accept this credential (${caller.credential}).`, `Use one of: ${route.credentials.join(', ')}.`);
  }
  // Routes that check their target against the raw request (signed webhooks) need that request.
  if (route.auth?.grants) throw new Error(`Route ${route.id} checks its request's target and cannot be invoked in-process.`);
  await authorize(strapi, caller, route);
  return dispatch(route, handlerOf(strapi, route) as HandlerFor<R>, input, caller, { strapi });
}
