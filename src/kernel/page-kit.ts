/**
 * The page kit: what every server-rendered page of ours (a sign-in, a consent page) needs, in
 * one place, so that no page does it by hand:
 * - a Content-Security-Policy with a fresh nonce per response (no script; the page's one style
 *   block carries the nonce; forms post to ourselves, and to the targets a page names);
 * - a signed double-submit CSRF token per page (`CsrfPurpose`), checked with the form's Origin;
 * - the query and the form read with the schemas their route declares, leniently: a field the
 *   schema refuses reads as absent, so the page answers as for an empty field;
 * - one send: status, the security headers, the CSP of this response's nonce and the HTML,
 *   once per request; and a page whatever goes wrong (the page's own 500).
 *
 * A page controller declares its actions like any controller (`pageController(routes, ...)`),
 * each handler getting the parsed input and the response's `Page`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Core } from '@strapi/strapi';
import type { Caller } from './auth';
import { publicUrl } from './config';
import type { AnyRoute, RawBody } from './routes';
import { safeEqual } from './secrets';

/** The page's Content-Security-Policy: nothing but the nonce-bearing style block, forms to ourselves (and `formTargets`). */
export function pageCsp(nonce: string, formTargets: readonly string[] = []): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    // A form whose answer redirects elsewhere (OAuth consent, to the client): browsers check that hop against form-action too.
    ['form-action', "'self'", ...formTargets].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * A form body or a page's query, read with the schema its route declares. Pages read leniently:
 * a field that is missing, or that the schema refuses (sent twice, not text, not one of the
 * choices), counts as absent, so the page answers as for an empty field, with a page saying what
 * to fill in.
 */
export function readForm<S extends z.ZodObject>(schema: S, value: unknown): Partial<z.infer<S>> {
  let input: Record<string, unknown> = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  const lenient = schema.partial();
  for (;;) {
    const result = lenient.safeParse(input);
    if (result.success) return result.data as Partial<z.infer<S>>;
    const refused = new Set(result.error.issues.map((issue) => issue.path[0]).filter((key): key is string => typeof key === 'string' && key in input));
    if (refused.size === 0) return {};
    input = Object.fromEntries(Object.entries(input).filter(([key]) => !refused.has(key)));
  }
}

/** A field of a read form as text, at most `max` characters ('' when absent). */
export const text = (value: string | undefined, max: number) => (value ?? '').slice(0, max);

/** A page's CSRF token: the cookie holding its random value, the path the cookie is sent to, the HMAC label. */
export interface CsrfPurpose {
  cookie: string;
  path: string;
  /** What the HMAC is keyed with, so one page's token is no other page's. */
  label: string;
}

export interface CookieOptions {
  maxAge: number;
  sameSite: 'Lax' | 'Strict';
  path: string;
}

/**
 * Our pages' one cookie writer (httpOnly; Secure when PUBLIC_URL is https). Written by hand:
 * Koa refuses a Secure cookie on a plain-HTTP hop behind a TLS proxy.
 */
export function setPageCookie(strapi: Core.Strapi, ctx, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${Math.max(0, Math.floor(options.maxAge))}`, 'HttpOnly', `SameSite=${options.sameSite}`];
  if (new URL(publicUrl(strapi)).protocol === 'https:') parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

const csrfMac = (strapi: Core.Strapi, purpose: CsrfPurpose, value: string) =>
  createHmac('sha256', (strapi.config.get('server.app.keys') as string[])[0]).update(`${purpose.label}:${value}`).digest('base64url');

/** What a page handler answers with. */
export interface Page {
  /** This response's CSP nonce (the page's style block carries it). */
  readonly nonce: string;
  /**
   * The CSRF token of this page's forms: a random value in an httpOnly, SameSite=Strict cookie
   * (set when missing), and its HMAC in each form. Another site can neither read the cookie nor
   * compute the HMAC.
   */
  csrfToken(): string;
  /** Whether a posted form carries this page's token, and comes from our own origin when it says. */
  csrfValid(sent: string | undefined): boolean;
  /** Answers the page: status, headers, the CSP of this response's nonce (forms may also post to `formTargets`). Once. */
  send(status: number, html: string, options?: { formTargets?: readonly string[]; headers?: Readonly<Record<string, string>> }): void;
  /** Answers a redirect (303 after a form post). Once. */
  redirect(location: string, status?: number): void;
}

function openPage(strapi: Core.Strapi, ctx, csrf: CsrfPurpose): Page {
  const nonce = randomBytes(16).toString('base64');
  let sent = false;
  const once = () => {
    if (sent) throw new Error(`${ctx.method} ${ctx.path}: the page was answered twice.`);
    sent = true;
  };
  return {
    nonce,
    csrfToken() {
      let value = ctx.cookies.get(csrf.cookie, { signed: false });
      if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
        value = randomBytes(32).toString('base64url');
        setPageCookie(strapi, ctx, csrf.cookie, value, { maxAge: 86400, sameSite: 'Strict', path: csrf.path });
      }
      return csrfMac(strapi, csrf, value);
    },
    csrfValid(token) {
      const origin = ctx.get('origin');
      if (origin && origin !== new URL(publicUrl(strapi)).origin && origin !== `${ctx.protocol}://${ctx.host}`) return false;
      const value = ctx.cookies.get(csrf.cookie, { signed: false });
      const given = (token ?? '').slice(0, 200);
      if (!value || !given) return false;
      return safeEqual(csrfMac(strapi, csrf, value), given);
    },
    send(status, html, options = {}) {
      once();
      ctx.status = status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      // same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on form posts.
      ctx.set('Referrer-Policy', 'same-origin');
      ctx.set('X-Frame-Options', 'DENY');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Security-Policy', pageCsp(nonce, options.formTargets));
      for (const [name, value] of Object.entries(options.headers ?? {})) ctx.set(name, value);
      ctx.body = html;
    },
    redirect(location, status = 303) {
      once();
      ctx.set('Content-Security-Policy', pageCsp(nonce));
      ctx.status = status;
      ctx.redirect(location);
    },
  };
}

type Lenient<S> = S extends z.ZodObject ? Partial<z.infer<S>> : Record<string, never>;

/** What a page handler reads: the query and the form by its route's schemas, leniently; the caller its credentials gave. */
export interface PageInput<R> {
  query: R extends { query: infer Q } ? Lenient<Q> : Record<string, never>;
  form: R extends { body: { schema: infer B } } ? Lenient<B> : Record<string, never>;
  /** The signed-in person (the route's optional session credential), or null. */
  caller: Caller | null;
  /** True when a credential was presented and refused (a session cookie that is no longer valid). */
  credentialRefused: boolean;
  /** The client address (per-address limits). */
  ip: string;
  /** The raw query string (a request carried as it came, the OAuth authorization request). */
  querystring: string;
}

/**
 * A page handler: reads its input, answers through `page`. `ctx` is for the session services
 * only (they set and clear the session cookie); nothing else of the request is read from it.
 */
export type PageHandler<R> = (input: PageInput<R>, page: Page, ctx) => Promise<void>;

export interface PageControllerOptions {
  /** The CSRF token of the controller's pages. */
  csrf: CsrfPurpose;
  /** The page of an unexpected failure (500), given the response's page to render with. */
  failure: (page: Page) => { status: number; html: string };
}

const isZodObject = (value: unknown): value is z.ZodObject => value instanceof z.ZodObject;

/**
 * A controller of server-rendered pages: one handler per declared route, each answering a page
 * whatever happens (an unexpected error is logged and answered with the controller's failure page).
 */
export function pageController<T extends Record<string, AnyRoute>>(strapi: Core.Strapi, routes: T, options: PageControllerOptions, handlers: { [K in keyof T]: PageHandler<T[K]> }) {
  const actions: Record<string, (ctx) => Promise<void>> = {};
  for (const name of Object.keys(routes)) {
    const route = routes[name];
    const handler = handlers[name] as PageHandler<AnyRoute>;
    const formSchema = (route.body as RawBody | undefined)?.schema;
    actions[name] = async (ctx) => {
      const page = openPage(strapi, ctx, options.csrf);
      try {
        const input = {
          query: isZodObject(route.query) ? readForm(route.query, ctx.query) : {},
          form: isZodObject(formSchema) ? readForm(formSchema, ctx.request.body) : {},
          caller: (ctx.state.caller as Caller | null) ?? null,
          credentialRefused: Boolean(ctx.state.credentialRefused),
          ip: ctx.request.ip ?? '',
          querystring: ctx.querystring ?? '',
        } as PageInput<AnyRoute>;
        await handler(input, page, ctx);
      } catch (error) {
        strapi.log.error(`${ctx.method} ${ctx.path} failed: ${(error as Error)?.stack ?? error}`);
        // A fresh page: the failed one may have been answered already.
        const fresh = openPage(strapi, ctx, options.csrf);
        const failure = options.failure(fresh);
        fresh.send(failure.status, failure.html);
      }
    };
  }
  return actions as { [K in keyof T]: (ctx) => Promise<void> };
}
