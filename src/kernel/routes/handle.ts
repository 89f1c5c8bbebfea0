/**
 * The Koa door of the route pipeline (kernel/routes/dispatch.ts): a controller action takes the
 * request's raw input once (path parameters, query, body, headers), hands it to `dispatch`, and
 * writes the answer: the success envelope (the one place it is written) or Strapi's admin
 * format, for admin routes. Failures are thrown on to the envelope middleware.
 */
import { parseAdminQuery } from '../admin-routes';
import { ok } from '../respond';
import type { AnyRoute, RuleInput } from './declare';
import {
  dispatch,
  parseRequest,
  Reply,
  ROUTE_HANDLER,
  successStatus,
  type Handler,
  type HandlerFor,
  type Input,
  type RouteInput,
} from './dispatch';
import { z } from 'zod';

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** A Koa request's raw input, as the pipeline takes it. */
export function inputOf(ctx): RouteInput {
  return { params: ctx.params ?? {}, query: ctx.query ?? {}, body: ctx.request.body, headers: ctx.request.headers ?? {} };
}

/** One controller action: the request's input through `dispatch`, the answer in the success envelope. */
export function handle<R extends AnyRoute>(route: R, handler: HandlerFor<R> | Handler<R>) {
  return async (ctx) => {
    // The guard (mount.ts) left the caller and the app on the request.
    const answer = await dispatch(route, handler, inputOf(ctx), ctx.state.caller ?? null, { strapi: ctx.state.strapi, ctx });
    for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
    if (answer.status === 304) {
      // Not modified: the headers, no body (the client keeps what it has).
      ctx.status = 304;
      ctx.body = null;
      return;
    }
    ok(ctx, answer.data as Record<string, unknown>, answer.status);
  };
}

/** A controller: one handler per declared route of a resource (the compiler checks that none is missing). */
export function controller<T extends Record<string, AnyRoute>>(routes: T, handlers: { [K in keyof T]: HandlerFor<T[K]> }) {
  const actions: Record<string, (ctx) => Promise<void>> = {};
  for (const name of Object.keys(routes)) {
    const handler = handlers[name] as HandlerFor<AnyRoute>;
    // The handler rides on its Koa action, where the in-process door (dispatch.ts `handlerOf`) finds it.
    actions[name] = Object.assign(handle(routes[name], handler), { [ROUTE_HANDLER]: handler });
  }
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
      const input = { ...parseRequest({ ...route, query: undefined }, inputOf(ctx), ctx.state.caller ?? null), query };
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
