/**
 * Routes are declared, not just wired: a route of ours is one declaration object naming its
 * schemas (path parameters, query, body, and what it answers with each status), the
 * credentials it accepts, its users-permissions action, and its summary and tags. From the
 * declarations come
 * - the Strapi routes (content-api routes, and root routes mounted in bootstrap),
 * - the guard that authenticates and authorizes every request (kernel/auth, kernel/permissions),
 * - the controllers' parsing (`controller` / `handle` below: parsed input in, data out),
 * - the OpenAPI document (kernel/openapi) and the validation of every answer in the API tests,
 * - the CLI's response types (`z.infer` of the same schemas).
 *
 * A plugin declares a resource's routes with its route group:
 *
 *   export const route = routeGroup('quire', { credentials: ['api-key', 'jwt', 'session'] });
 *   export const articleRoutes = route('articles', 'Articles', {
 *     list: { method: 'GET', path: '/api/articles', summary: 'List your articles', query: listArticlesQuery, responses: { 200: articlePage } },
 *   });
 *
 * which makes `articles.list` (the controller action), `plugin::quire.articles.list` (the
 * users-permissions action) and operation `quire.articles.list`. A route under /api that takes
 * a user's credential is a content-api route (so an action on the Users & Permissions role
 * page); any other (no credential, or outside /api) is a root route that the plugin mounts in its
 * bootstrap with `mountRootRoutes`.
 */
import { z } from 'zod';
import type { Core } from '@strapi/strapi';
import { authenticate, authRequestOf, type AuthPolicy, type Caller, type CallerFor, type Credential } from './auth';
import { adminRoute, parseAdminQuery } from './admin-routes';
import { STATUS_BY_CODE } from './errors';
import { refuseForeignOrigin } from './origins';
import { parseInput, PATH_PARAM_NEXT } from './parse';
import { authorize } from './permissions';
import { ok } from './respond';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An answer that is not our JSON envelope: a page, a document, a redirect, nothing. */
export interface ContentAnswer {
  kind: 'content';
  /** Media types of the body ([] for none). */
  types: readonly string[];
  description: string;
  /** A JSON body's schema (the OpenAPI document itself), when it is JSON but not the envelope. */
  schema?: z.ZodType;
  /** Response headers worth documenting, with a description each. */
  headers?: Readonly<Record<string, string>>;
}

/** What a route answers with one status: the `data` schema of the success envelope, or another content. */
export type Answer = z.ZodType | ContentAnswer;

export const page = (description: string): ContentAnswer => ({ kind: 'content', types: ['text/html'], description });
export const content = (types: readonly string[], description: string, schema?: z.ZodType): ContentAnswer => ({ kind: 'content', types, description, schema });
/** A redirect: Location says where; the body is Koa's short "Redirecting to ..." (HTML or text). */
export const redirect = (description: string): ContentAnswer => ({
  kind: 'content',
  types: ['text/html', 'text/plain'],
  description,
  headers: { Location: 'Where to go next.' },
});
export const empty = (description: string): ContentAnswer => ({ kind: 'content', types: [], description });

/** A body the route reads itself (an image, a webhook's exact bytes, a form). */
export interface RawBody {
  kind: 'raw';
  types: readonly string[];
  description: string;
  /** What the body holds, when it is structured (the kernel does not parse it; the controller reads it, pages with this schema). */
  schema?: z.ZodType;
  required?: boolean;
}

export const rawBody = (types: readonly string[], description: string, schema?: z.ZodType): RawBody => ({ kind: 'raw', types, description, schema, required: true });
/** An HTML form post (application/x-www-form-urlencoded). */
export const form = (schema: z.ZodType, description: string): RawBody => ({ kind: 'raw', types: ['application/x-www-form-urlencoded'], description, schema, required: true });

/** An error a route may answer: a code of STATUS_BY_CODE, or a code of the route's own with its status. */
export type ErrorSpec = string | { code: string; status: number };

export interface RouteSpec {
  method: Method;
  /** As served, Koa style: '/api/articles/:id', '/webhook/:processInstanceId/:workflowId'. */
  path: string;
  summary: string;
  description?: string;
  /** Accepted credentials, in the order they are tried ([]: none). Default: the group's. */
  credentials?: readonly Credential[];
  /** The rest of the authentication policy (optional credential, the 401's nextAction, target checks). */
  auth?: Omit<AuthPolicy, 'credentials'>;
  /** `write` routes are refused to read-only credentials. Default: GET reads, the rest write. */
  access?: 'read' | 'write';
  /** A `suggest` credential's call becomes a suggestion (the route handles it) instead of a 403. */
  suggestible?: boolean;
  /**
   * Refuse, before authenticating, a request whose `Origin` header is neither PUBLIC_URL's origin
   * nor one of CORS_ORIGINS: 403 `permission-denied` (kernel/origins.ts; the MCP endpoint, against
   * DNS rebinding). Requests without `Origin` pass.
   */
  checkOrigin?: boolean;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body's schema (parsed before the controller runs), or a body the controller reads. */
  body?: z.ZodType | RawBody;
  responses: Readonly<Record<number, Answer>>;
  /** Error codes beyond those every route of its kind can give (see `errorCodesOf`). */
  errors?: readonly ErrorSpec[];
  /** Request headers the route reads, with a description each (documentation): `If-Match`... */
  headers?: Readonly<Record<string, string>>;
  /** Headers of its success answers, with a description each (documentation): `ETag`... */
  responseHeaders?: Readonly<Record<string, string>>;
  /**
   * An admin route (the admin panel's API, served under /<plugin>/...): Strapi's admin
   * authentication and these RBAC actions, all required (kernel/admin-routes.ts). Its answers
   * are Strapi's admin format, declared as `content` answers.
   */
  admin?: { actions: readonly string[] };
}

type CredentialsOf<S extends RouteSpec, D extends readonly Credential[]> = S['credentials'] extends readonly Credential[] ? S['credentials'] : D;

/** A declared route: its spec, completed by its group. */
export type Route<S extends RouteSpec = RouteSpec, D extends readonly Credential[] = readonly Credential[]> = Omit<S, 'credentials'> & {
  /** The operation id: 'quire.articles.list'. */
  readonly id: string;
  readonly plugin: string;
  /** The controller action: 'articles.list'. */
  readonly handler: string;
  readonly credentials: CredentialsOf<S, D>;
  /** The users-permissions action (content-api routes), or null. */
  readonly action: string | null;
  readonly access: 'read' | 'write';
  readonly tags: readonly string[];
  readonly type: 'content-api' | 'root' | 'admin';
};

export type AnyRoute = Route<RouteSpec, readonly Credential[]>;

const USER_CREDENTIALS: readonly Credential[] = ['api-key', 'jwt', 'session', 'oauth'];

/**
 * A plugin's route builder: `route(controller, tag, { action: spec, ... })` declares a resource's
 * routes, with the group's credentials unless a spec names its own.
 */
export function routeGroup<const D extends readonly Credential[]>(plugin: string, defaults: { credentials: D }) {
  return function resource<const T extends Record<string, RouteSpec>>(
    controller: string,
    tag: string,
    specs: T,
  ): { readonly [K in keyof T]: Route<T[K], D> } {
    const routes: Record<string, AnyRoute> = {};
    for (const [name, spec] of Object.entries(specs)) {
      const credentials = spec.admin ? (['admin'] as const) : (spec.credentials ?? defaults.credentials);
      const handler = `${controller}.${name}`;
      const contentApi = !spec.admin && spec.path.startsWith('/api/') && !spec.auth?.optional && credentials.some((c) => USER_CREDENTIALS.includes(c));
      routes[name] = Object.freeze({
        ...spec,
        id: `${plugin}.${handler}`,
        plugin,
        handler,
        credentials,
        action: contentApi ? `plugin::${plugin}.${handler}` : null,
        access: spec.access ?? (spec.method === 'GET' ? 'read' : 'write'),
        tags: [tag],
        type: spec.admin ? 'admin' : contentApi ? 'content-api' : 'root',
      }) as AnyRoute;
    }
    return routes as never;
  };
}

/** All routes of some resources, as a list. */
export const routeList = (...resources: Array<Record<string, AnyRoute>>): AnyRoute[] => resources.flatMap((r) => Object.values(r));

// ---- the registry: every declared route of every plugin (OpenAPI, tests) ----

const routesByApp = new WeakMap<object, Map<string, readonly AnyRoute[]>>();

/** Declares a plugin's routes (in its register): they are described in /api/openapi.json. */
export function declareRoutes(strapi: Core.Strapi, owner: string, routes: readonly AnyRoute[]): void {
  let owners = routesByApp.get(strapi);
  if (!owners) routesByApp.set(strapi, (owners = new Map()));
  owners.set(owner, [...routes]);
}

/** Every declared route, by declaring owner order. */
export function declaredRoutes(strapi: Core.Strapi): AnyRoute[] {
  return [...(routesByApp.get(strapi)?.values() ?? [])].flat();
}

// ---- binding declarations to Strapi ----

/** The guard of a route: authenticates (kernel/auth) and authorizes (kernel/permissions), leaving ctx.state.caller. */
export async function guard(strapi: Core.Strapi, route: AnyRoute, ctx): Promise<void> {
  if (route.checkOrigin) refuseForeignOrigin(strapi, ctx.request.headers.origin);
  const { caller, refused } = await authenticate(strapi, { ...authRequestOf(ctx), action: route.action }, { ...route.auth, credentials: route.credentials });
  await authorize(strapi, caller, route);
  ctx.state.caller = caller;
  ctx.state.credentialRefused = refused;
}

/**
 * The route middleware of content-api routes (each plugin exports it as its `guard`
 * middleware): runs the guard of the route being served.
 */
export function guardMiddleware(_config: unknown, { strapi }: { strapi: Core.Strapi }) {
  return async (ctx, next) => {
    const route: AnyRoute | undefined = ctx.state.route?.declaration;
    if (!route) throw new Error(`${ctx.method} ${ctx.path} has no route declaration.`);
    await guard(strapi, route, ctx);
    return next();
  };
}

/**
 * The plugin's content-api router: every content-api route, served at its /api path with
 * Strapi's auth off (our guard answers in our envelope, never in Strapi's 401/403 shape).
 */
export function contentApiRouter(plugin: string, routes: readonly AnyRoute[]) {
  return {
    type: 'content-api',
    routes: routes
      .filter((r) => r.type === 'content-api')
      .map((r) => ({
        method: r.method,
        path: r.path.slice('/api'.length),
        handler: r.handler,
        config: { prefix: '', auth: false as const, middlewares: [`plugin::${plugin}.guard`] },
        declaration: r,
      })),
  };
}

/**
 * The plugin's admin router: its admin routes, served under /<plugin> (the path declared is the
 * served one, /quire/articles; Strapi's admin router adds the plugin's prefix itself).
 */
export function adminRouter(plugin: string, routes: readonly AnyRoute[]) {
  const prefix = `/${plugin}`;
  return {
    type: 'admin',
    routes: routes
      .filter((r) => r.type === 'admin')
      .map((r) => {
        if (!r.path.startsWith(`${prefix}/`)) throw new Error(`Admin route ${r.id} must be served under ${prefix}/ (it says ${r.path}).`);
        return { ...adminRoute(r.method, r.path.slice(prefix.length), r.handler, [...r.admin!.actions]), declaration: r };
      }),
  };
}

/**
 * Mounts the plugin's root routes (in its bootstrap), the way the GraphQL plugin mounts /graphql:
 * the guard, then the controller action the route names.
 */
export function mountRootRoutes(strapi: Core.Strapi, plugin: string, routes: readonly AnyRoute[]): void {
  const mounted = routes
    .filter((r) => r.type === 'root')
    .map((route) => {
      const [controller, action] = [route.handler.slice(0, route.handler.lastIndexOf('.')), route.handler.slice(route.handler.lastIndexOf('.') + 1)];
      const run = (ctx) => (strapi.plugin(plugin).controller(controller) as unknown as Record<string, (ctx) => Promise<void>>)[action](ctx);
      return {
        method: route.method,
        path: route.path,
        handler: [
          async (ctx, next) => {
            ctx.state.route = { ...ctx.state.route, declaration: route };
            await guard(strapi, route, ctx);
            return next();
          },
          run,
        ],
        config: { auth: false },
      };
    });
  if (mounted.length) strapi.server.routes(mounted as never);
}

// ---- controllers: parsed input in, data out ----

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The caller a route's credentials give (null for routes that take none or make it optional). */
export type CallerOf<R> = R extends { credentials: readonly (infer C)[] }
  ? [C] extends [never]
    ? null
    : (C extends Credential ? CallerFor<C> : Caller) | (R extends { auth: { optional: true } } ? null : never)
  : Caller | null;

export interface Input<R> {
  params: R extends { params: z.ZodType } ? z.output<R['params']> : Record<string, string>;
  query: R extends { query: z.ZodType } ? z.output<R['query']> : Record<string, unknown>;
  body: R extends { body: infer B } ? Output<B> : undefined;
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

export type Handler<R> = (input: Input<R>, ctx) => Promise<DataOf<R> | Reply<DataOf<R>>> | DataOf<R> | Reply<DataOf<R>>;

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** The first success status a route declares (the status of a plain `return data`). */
export function successStatus(route: Pick<RouteSpec, 'responses'>): number {
  const statuses = Object.keys(route.responses).map(Number).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b);
  return statuses[0] ?? 200;
}

/** Parses a request with its route's schemas: the first problem is a 400 naming the field. */
export function parseRequest<R extends AnyRoute>(route: R, ctx): Input<R> {
  const params = ctx.params ?? {};
  const context = { params };
  return {
    params: route.params ? parseInput(route.params, params, PATH_PARAM_NEXT, context) : params,
    query: isZod(route.query) ? parseInput(route.query, ctx.query ?? {}, undefined, context) : (ctx.query ?? {}),
    body: isZod(route.body) ? parseInput(route.body, ctx.request.body ?? {}, undefined, context) : undefined,
    caller: ctx.state.caller ?? null,
  } as Input<R>;
}

/** One controller action: parse with the route's schemas, run, answer with the success envelope. */
export function handle<R extends AnyRoute>(route: R, handler: Handler<R>) {
  return async (ctx) => {
    const result = await handler(parseRequest(route, ctx), ctx);
    if (result instanceof Reply) {
      for (const [name, value] of Object.entries(result.headers)) ctx.set(name, value);
      if (result.status === 304) {
        // Not modified: the headers, no body (the client keeps what it has).
        ctx.status = 304;
        ctx.body = null;
        return;
      }
      return ok(ctx, result.data as Record<string, unknown>, result.status);
    }
    ok(ctx, result as Record<string, unknown>, successStatus(route));
  };
}

/** A controller: one handler per declared route of a resource (the compiler checks that none is missing). */
export function controller<T extends Record<string, AnyRoute>>(routes: T, handlers: { [K in keyof T]: Handler<T[K]> }) {
  const actions: Record<string, (ctx) => Promise<void>> = {};
  for (const name of Object.keys(routes)) actions[name] = handle(routes[name], handlers[name] as Handler<AnyRoute>);
  return actions as { [K in keyof T]: (ctx) => Promise<void> };
}

// ---- errors a route can answer ----

export interface ErrorCode {
  code: string;
  status: number;
}

/**
 * The error codes a route can answer: the ones it declares, plus those every route of its
 * kind can give (routes that answer in the envelope: JSON routes, and anything under /api):
 * `internal` (500) always; `unauthenticated` (401) when it takes a credential;
 * `permission-denied` (403) when it is a users-permissions action (a role or a key's scope can refuse it); `invalid-argument` (400) when
 * it reads a query or a body, and `payload-too-large` (413) when that body is JSON (the body
 * parser's limit); `not-found` (404) when it has path parameters.
 */
export function errorCodesOf(route: AnyRoute): ErrorCode[] {
  const codes = new Map<string, number>();
  // Pages (the login page, public copies) answer their errors as pages, declared as responses.
  const enveloped = route.path.startsWith('/api/') || Object.values(route.responses).some(isZod);
  if (!enveloped) return [];
  const add = (spec: ErrorSpec) => {
    const code = typeof spec === 'string' ? spec : spec.code;
    const status = typeof spec === 'string' ? STATUS_BY_CODE[spec] : spec.status;
    if (status === undefined) throw new Error(`Route ${route.id}: error code "${code}" has no status (declare { code, status }).`);
    codes.set(code, status);
  };
  if (route.credentials.length && !route.auth?.optional) add('unauthenticated');
  if (route.action || route.checkOrigin) add('permission-denied');
  if (route.query || route.body) add('invalid-argument');
  if (isZod(route.body)) add('payload-too-large');
  if (/:[A-Za-z]/.test(route.path)) add('not-found');
  for (const spec of route.errors ?? []) add(spec);
  add('internal');
  return [...codes].map(([code, status]) => ({ code, status })).sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** An admin route's handler: the whole body in Strapi's admin format, or a `reply()` for another status or headers. */
export type AdminHandler<R> = (input: Input<R>, ctx) => Promise<AdminBody | Reply> | AdminBody | Reply;
export interface AdminBody {
  data: unknown;
  meta?: unknown;
}

/**
 * An admin routes' controller (kernel/admin-routes.ts): each handler gets the request parsed by
 * its route's schemas (a bad query is Strapi's ValidationError naming the parameter, as
 * `parseAdminQuery` makes it) and returns the body in Strapi's admin format, `{ data, meta? }`,
 * answered with the route's success status; or a `reply()`, whose data becomes `{ data }` (a
 * 304 has no body). The admin is `ctx.state.user`.
 */
export function adminController<T extends Record<string, AnyRoute>>(routes: T, handlers: { [K in keyof T]: AdminHandler<T[K]> }) {
  const actions: Record<string, (ctx) => Promise<void>> = {};
  for (const name of Object.keys(routes)) {
    const route = routes[name];
    const handler = handlers[name] as AdminHandler<AnyRoute>;
    actions[name] = async (ctx) => {
      const query = isZod(route.query) ? parseAdminQuery(route.query, ctx.query) : (ctx.query ?? {});
      const result = await handler({ ...parseRequest({ ...route, query: undefined }, ctx), query } as never, ctx);
      if (result instanceof Reply) {
        for (const [header, value] of Object.entries(result.headers)) ctx.set(header, value);
        ctx.status = result.status;
        ctx.body = result.status === 304 ? null : { data: result.data };
        return;
      }
      ctx.status = successStatus(route);
      ctx.body = result;
    };
  }
  return actions as { [K in keyof T]: (ctx) => Promise<void> };
}

/**
 * Makes every route of the app case-sensitive, as URLs are. Koa's router matches
 * case-insensitively by default, while the middleware that guards a path prefix (the trigger
 * route's raw body and its 1 MiB cap, the error envelope, the upload headers) compares it
 * exactly: `POST /WEBHOOK/...` reached the trigger controller without any of them. With
 * case-sensitive routes the router and every prefix check agree. Applied when the server mounts
 * its router (Strapi builds one Router per API without options, so it cannot be asked earlier).
 */
export function caseSensitiveRoutes(strapi: Core.Strapi): void {
  const server = strapi.server as unknown as { mount(...args: unknown[]): unknown; router: { stack: RouterLayer[] } };
  const mount = server.mount;
  server.mount = function mountCaseSensitive(this: unknown, ...args: unknown[]) {
    const result = mount.apply(this, args);
    for (const layer of server.router.stack) makeCaseSensitive(layer);
    return result;
  };
}

interface RouterLayer {
  regexp: RegExp;
  opts: { sensitive?: boolean };
}

function makeCaseSensitive(layer: RouterLayer): void {
  layer.opts.sensitive = true;
  if (layer.regexp.flags.includes('i')) layer.regexp = new RegExp(layer.regexp.source, layer.regexp.flags.replace('i', ''));
}
