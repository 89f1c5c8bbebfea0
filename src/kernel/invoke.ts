/**
 * Calling a declared route in-process (the MCP tools, kernel/routes declarations): the same
 * pipeline as an HTTP request after its guard, without a request to ourselves.
 *
 * The caller is already authenticated (by the request that carries the call: POST /api/mcp), so
 * it is not authenticated again; what the route itself asks of a caller still applies exactly as
 * over HTTP: its credentials (a route that takes no API key refuses one), its access and the
 * credential's scope (a `suggest` key's write on a suggestible route becomes a suggestion), and
 * the users-permissions action of the caller's role. Then its path parameters are parsed with the
 * route's own schema before anything runs (no URL exists to climb: `..` is just an invalid value),
 * and the route's controller action runs as Koa would run it: the same wrappers (short article
 * ids), the same parsing of query, body and headers, the same handler and conditional headers.
 *
 * The answer is what the client would have received: status, headers (ETag) and the envelope,
 * errors included, turned into the failure envelope the way the HTTP error middleware does.
 */
import type { Core } from '@strapi/strapi';
import type { Caller } from './auth';
import { ApiError, toFailure, unauthenticated } from './errors';
import { parseInput, PATH_PARAM_NEXT } from './parse';
import { authorize } from './permissions';
import type { AnyRoute } from './routes';

/** A route's raw input, as a client would send it (strings where HTTP has strings). */
export interface RouteInput {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string>>;
  body?: unknown;
  /** Request headers by name (any case): `If-Match`... */
  headers?: Readonly<Record<string, string>>;
}

/** What the route answered: its status, headers (lower-case names) and body (the envelope). */
export interface RouteResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

type Action = (ctx: unknown) => Promise<void>;

/** The controller action the route names, as Strapi instantiated it (with the plugin's wrappers). */
function actionOf(strapi: Core.Strapi, route: AnyRoute): Action {
  const dot = route.handler.lastIndexOf('.');
  const controller = strapi.plugin(route.plugin).controller(route.handler.slice(0, dot)) as unknown as Record<string, Action> | undefined;
  const action = controller?.[route.handler.slice(dot + 1)];
  if (typeof action !== 'function') throw new Error(`Route ${route.id} has no controller action ${route.handler}.`);
  return action;
}

/**
 * The request context a controller action reads (what kernel/routes/handle.ts `handle` and the
 * plugin's wrappers use: params, query, body, headers, the caller) and writes (status, body,
 * headers): the part of a Koa context a declared route may touch.
 */
function requestContext(route: AnyRoute, caller: Caller, input: RouteInput) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  const responseHeaders: Record<string, string> = {};
  const query = { ...(input.query ?? {}) };
  return {
    method: route.method,
    path: route.path,
    params: { ...(input.params ?? {}) },
    query,
    request: { method: route.method, headers, body: input.body ?? {}, query },
    state: { caller, route: { declaration: route } },
    status: 404,
    body: undefined as unknown,
    responseHeaders,
    set(name: string | Record<string, string>, value?: string) {
      if (typeof name === 'string') responseHeaders[name.toLowerCase()] = String(value);
      else for (const [n, v] of Object.entries(name)) responseHeaders[n.toLowerCase()] = String(v);
    },
    get(name: string) {
      return headers[name.toLowerCase()] ?? '';
    },
  };
}

/** Runs `route` for `caller` with `input`, in-process; never throws for what the route answers. */
export async function invokeRoute(strapi: Core.Strapi, route: AnyRoute, caller: Caller, input: RouteInput): Promise<RouteResult> {
  try {
    if (!(route.credentials as readonly string[]).includes(caller.credential)) {
      throw unauthenticated(`${route.method} ${route.path} does not accept this credential (${caller.credential}).`, `Use one of: ${route.credentials.join(', ')}.`);
    }
    // Routes that check their target against the raw request (signed webhooks) need that request.
    if (route.auth?.grants) throw new Error(`Route ${route.id} checks its request's target and cannot be invoked in-process.`);
    await authorize(strapi, caller, route);
    const params = input.params ?? {};
    if (route.params) parseInput(route.params, params, PATH_PARAM_NEXT, { params });
    const ctx = requestContext(route, caller, input);
    await actionOf(strapi, route)(ctx);
    return { status: ctx.status, headers: ctx.responseHeaders, body: ctx.body };
  } catch (error) {
    const failure = toFailure(error);
    if (failure.status >= 500) {
      if (error instanceof ApiError) strapi.log.warn(`${route.method} ${route.path} (in-process): ${error.message}`);
      else strapi.log.error(`${route.method} ${route.path} (in-process) failed: ${(error as Error)?.stack ?? error}`);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(failure.headers)) headers[name.toLowerCase()] = value;
    return { status: failure.status, headers, body: failure.body };
  }
}
