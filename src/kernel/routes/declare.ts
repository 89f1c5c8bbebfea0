/**
 * Route declarations. Routes are declared, not just wired: a route of ours is one declaration object naming its
 * schemas (path parameters, query, body, and what it answers with each status), the
 * credentials it accepts, its users-permissions action, and its summary and tags. From the
 * declarations come
 * - the Strapi routes (content-api routes, and root routes mounted in bootstrap),
 * - the guard that authenticates and authorizes every request (kernel/auth, kernel/permissions),
 * - the controllers' parsing (routes/handle.ts `controller`: parsed input in, data out),
 * - the OpenAPI document (kernel/openapi) and the validation of every answer in the API tests,
 * - the CLI's response types (`z.infer` of the same schemas).
 *
 * A plugin declares a resource's routes with its route group:
 *
 *   export const route = routeGroup('blog', { credentials: ['api-key', 'jwt'], userCredentials: ['api-key', 'jwt'] });
 *   export const postRoutes = route('posts', 'Posts', {
 *     list: { method: 'GET', path: '/api/posts', summary: 'List your posts', query: listPostsQuery, responses: { 200: postPage } },
 *   });
 *
 * which makes `posts.list` (the controller action), `plugin::blog.posts.list` (the
 * users-permissions action) and operation `blog.posts.list`. A route under /api that takes
 * a user's credential is a content-api route (so an action on the Users & Permissions role
 * page); any other (no credential, or outside /api) is a root route that the plugin mounts in its
 * bootstrap with `mountRootRoutes`.
 */
import type { Core } from '@strapi/strapi';
import type { z } from 'zod';
import type { AuthPolicy, Caller, Credential } from '../auth';
import type { Answer, Method, RawBody } from './answers';

/** An error a route may answer: a code of STATUS_BY_CODE, or a code of the route's own with its status. */
export type ErrorSpec = string | { code: string; status: number };

/** A request header a route reads: its description, and the schema that parses its raw value (a string, or several). */
export interface HeaderSpec {
  description: string;
  schema: z.ZodType;
}

/** A header read with a schema of its own (without one, a header is its text, or undefined). */
export const header = <S extends z.ZodType>(description: string, schema: S) => ({ description, schema });

/** The parsed request and its caller, as the pipeline's access rules and the handler see them. */
export interface RuleInput {
  params: Readonly<Record<string, unknown>>;
  query: unknown;
  body: unknown;
  headers: Readonly<Record<string, unknown>>;
  caller: Caller | null;
}

/**
 * An access rule of a route, beyond its credentials, scope and role: checked by the pipeline
 * after the request is parsed and before the handler runs, over HTTP and in-process (MCP)
 * alike. It throws (403 `permission-denied`) to refuse.
 */
export interface AccessRule {
  /** What it asks, in a few words (for readers of the route). */
  readonly name: string;
  check(input: RuleInput): void | Promise<void>;
}

/**
 * A write a `suggest` credential may call: the pipeline serves such a call with the
 * controller's `suggest` handler (it files a suggestion) instead of its `apply` handler.
 * `unless` names the calls that write nothing (a dry run), which `apply` serves for every scope.
 */
export type Suggestible = true | { unless: (input: RuleInput) => boolean };

/**
 * A declared stage that runs before the request is parsed, after authentication, over HTTP and
 * in-process alike (kernel/routes/dispatch.ts): it may rewrite the raw path parameters (a plugin
 * expands a short article id to the full one, for the caller).
 */
export interface PrepareStage {
  /** What it does, in a few words (for readers of the route). */
  readonly name: string;
  run(params: Record<string, string>, caller: Caller | null, strapi: Core.Strapi): Promise<void>;
}

/**
 * A declared stage around the handler, after parsing and the access rules, over HTTP and
 * in-process alike (kernel/routes/dispatch.ts): it may run the handler inside a context of its
 * own and add to what the handler answers (a plugin records why a write was made and names the
 * change set it made).
 */
export interface AroundStage {
  /** What it does, in a few words (for readers of the route). */
  readonly name: string;
  /** `raw` is the input as sent (a schema may transform what the handler sees, e.g. drop a field the stage reads). */
  run(input: RuleInput, next: () => Promise<unknown>, raw: { body?: unknown; headers?: Readonly<Record<string, string | string[] | undefined>> }): Promise<unknown>;
}

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
  /** A `suggest` credential's call becomes a suggestion (the controller's `suggest` handler) instead of a 403. */
  suggestible?: Suggestible;
  /** Access rules the caller must also pass (key management is the person's...), in order. */
  rules?: readonly AccessRule[];
  /** Stages on the raw input before it is parsed (after authentication), in order. */
  prepare?: readonly PrepareStage[];
  /** Stages around the handler (after parsing and the rules), outermost first. */
  around?: readonly AroundStage[];
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
  /**
   * Request headers the route reads, with a description each: `If-Match`... The handler sees
   * them parsed (`input.headers`, by the names declared): with their schema, or as text.
   */
  headers?: Readonly<Record<string, string | HeaderSpec>>;
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
  /** The operation id: '<plugin>.<controller>.<action>'. */
  readonly id: string;
  readonly plugin: string;
  /** The controller action: '<controller>.<action>'. */
  readonly handler: string;
  readonly credentials: CredentialsOf<S, D>;
  /** The users-permissions action (content-api routes), or null. */
  readonly action: string | null;
  readonly access: 'read' | 'write';
  readonly tags: readonly string[];
  readonly type: 'content-api' | 'root' | 'admin';
};

export type AnyRoute = Route<RouteSpec, readonly Credential[]>;

export interface GroupDefaults<D extends readonly Credential[]> {
  /** The credentials of the group's routes, unless a route names its own. */
  credentials: D;
  /**
   * The credentials that act for a users-permissions user (the role decides): a route under
   * /api that takes one of them is a content-api route, an action on the role page. None by default.
   */
  userCredentials?: readonly Credential[];
}

/**
 * A plugin's route builder: `route(controller, tag, { action: spec, ... })` declares a resource's
 * routes, with the group's credentials unless a spec names its own.
 */
export function routeGroup<const D extends readonly Credential[]>(plugin: string, defaults: GroupDefaults<D>) {
  return function resource<const T extends Record<string, RouteSpec>>(
    controller: string,
    tag: string,
    specs: T,
  ): { readonly [K in keyof T]: Route<T[K], D> } {
    const routes: Record<string, AnyRoute> = {};
    for (const [name, spec] of Object.entries(specs)) {
      const credentials = spec.admin ? (['admin'] as const) : (spec.credentials ?? defaults.credentials);
      const handler = `${controller}.${name}`;
      const contentApi = !spec.admin && spec.path.startsWith('/api/') && !spec.auth?.optional && credentials.some((c) => (defaults.userCredentials ?? []).includes(c));
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
