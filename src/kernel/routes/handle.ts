/**
 * Controllers: parsed input in, data out. A controller action parses the request with its
 * route's schemas, runs its handler, and answers with the success envelope (or Strapi's admin
 * format, for admin routes).
 */
import { z } from 'zod';
import { parseAdminQuery } from '../admin-routes';
import type { Caller, CallerBase, CallerFor, Credential } from '../auth';
import { parseInput, PATH_PARAM_NEXT } from '../parse';
import { ok } from '../respond';
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

export type Handler<R> = (input: Input<R>, ctx) => Promise<DataOf<R> | Reply<DataOf<R>>> | DataOf<R> | Reply<DataOf<R>>;

/** The handlers of a suggestible route: `apply` writes, `suggest` files a `suggest` credential's call as a suggestion. */
export interface SuggestibleHandlers<R> {
  apply: Handler<R>;
  suggest: Handler<R>;
}

/** What a controller gives for a route: its handler, or the pair of a suggestible route. */
export type HandlerFor<R> = R extends { suggestible: object | true } ? SuggestibleHandlers<R> : Handler<R>;

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** The first success status a route declares (the status of a plain `return data`). */
export function successStatus(route: Pick<RouteSpec, 'responses'>): number {
  const statuses = Object.keys(route.responses).map(Number).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b);
  return statuses[0] ?? 200;
}

/** A request header as Node gives it: text, or several values (undefined when absent). */
const rawHeader = (ctx, name: string): string | string[] | undefined => ctx.request.headers?.[name.toLowerCase()];

/** The headers a route declares, parsed with their schemas (a header without one is its text, repeated values joined). */
export function parseHeaders(route: Pick<RouteSpec, 'headers'>, ctx, context: { params: Readonly<Record<string, string>> }): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(route.headers ?? {})) {
    const raw = rawHeader(ctx, name);
    if (typeof spec === 'string') headers[name] = Array.isArray(raw) ? raw.join(', ') : raw;
    else headers[name] = parseInput(z.object({ [name]: (spec as HeaderSpec).schema }), { [name]: raw }, undefined, context)[name];
  }
  return headers;
}

/** Parses a request with its route's schemas: the first problem is a 400 naming the field. */
export function parseRequest<R extends AnyRoute>(route: R, ctx): Input<R> {
  const params = ctx.params ?? {};
  const context = { params };
  return {
    params: route.params ? parseInput(route.params, params, PATH_PARAM_NEXT, context) : params,
    query: isZod(route.query) ? parseInput(route.query, ctx.query ?? {}, undefined, context) : (ctx.query ?? {}),
    body: isZod(route.body) ? parseInput(route.body, ctx.request.body ?? {}, undefined, context) : undefined,
    headers: parseHeaders(route, ctx, context),
    caller: ctx.state.caller ?? null,
  } as Input<R>;
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

/** One controller action: parse with the route's schemas, run, answer with the success envelope. */
export function handle<R extends AnyRoute>(route: R, handler: HandlerFor<R> | Handler<R>) {
  return async (ctx) => {
    const result = await runHandler(route, handler, parseRequest(route, ctx), ctx);
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
export function controller<T extends Record<string, AnyRoute>>(routes: T, handlers: { [K in keyof T]: HandlerFor<T[K]> }) {
  const actions: Record<string, (ctx) => Promise<void>> = {};
  for (const name of Object.keys(routes)) actions[name] = handle(routes[name], handlers[name] as HandlerFor<AnyRoute>);
  return actions as { [K in keyof T]: (ctx) => Promise<void> };
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
      const input = { ...parseRequest({ ...route, query: undefined }, ctx), query };
      for (const rule of route.rules ?? []) await rule.check(input as unknown as RuleInput);
      const result = await handler(input as never, ctx);
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
