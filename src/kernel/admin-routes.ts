/**
 * Admin routes of our plugins: the API that the plugins' admin pages call (with
 * `useFetchClient`, which sends the signed-in admin's token). See docs/admin.md.
 *
 * Conventions, the same in every plugin:
 * - Declared in the plugin's `admin` router (`type: 'admin'`), so they are served under the
 *   plugin's own prefix: `/<plugin>/...` (never under `/api`, and not at the
 *   root paths of public pages: `/p`, `/cli`, `/webhook`, `/status`).
 * - Every route is built with `adminRoute()`: an authenticated admin (`admin::isAuthenticatedAdmin`)
 *   holding every RBAC action it names (`admin::hasPermissions`), e.g. `plugin::<plugin>.read`.
 * - Success: `{ data, meta? }` (Strapi's shape). Errors: Strapi's admin error format,
 *   `{ data: null, error: { status, name, message, details } }`, which the admin's fetch client
 *   and `useAPIErrorHandler` understand. Our services' errors (the envelope's codes) are
 *   translated here, keeping `code` and `nextAction` in `details`.
 */
import { errors } from '@strapi/utils';
import { z } from 'zod';
import { ApiError } from './errors';
import type { ContentAnswer } from './routes/answers';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Strapi error names by status, as Strapi's own admin routes answer them. */
const ERROR_NAMES: Record<number, string> = {
  400: 'ValidationError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  412: 'PreconditionFailedError',
  413: 'PayloadTooLargeError',
  429: 'RateLimitError',
  500: 'InternalServerError',
};

/**
 * Route middleware of every admin route: an ApiError of our services becomes Strapi's admin
 * error body.
 * Strapi's own errors (validation, policies) are already in that shape; anything else is a
 * bug, left to `strapi::errors` (500, logged with its stack). A deliberate 500 (an ApiError: a
 * link that cannot be fetched, say) is expected: one warning line, no stack, as on the API.
 */
async function adminErrors(ctx, next) {
  try {
    await next();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status >= 500) strapi.log.warn(`${ctx.method} ${ctx.path}: ${error.message}`);
    for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
    ctx.status = error.status;
    ctx.body = {
      data: null,
      error: {
        status: error.status,
        name: ERROR_NAMES[error.status] ?? 'ApplicationError',
        message: error.message,
        details: error.nextAction ? { code: error.code, nextAction: error.nextAction } : { code: error.code },
      },
    };
  }
}

/**
 * An admin route: `path` is relative to the plugin's prefix (`/articles` is served at
 * `/<plugin>/<resource>`), `actions` are the RBAC action uids the admin must all hold.
 */
export function adminRoute(method: Method, path: string, handler: string, actions: string[]) {
  if (!actions.length) throw new Error(`Admin route ${method} ${path} must name at least one permission action.`);
  return {
    method,
    path,
    handler,
    config: {
      policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions } }],
      middlewares: [adminErrors],
    },
  };
}

/** Page and page size of an admin list (`?page=1&pageSize=10`), as the admin's Pagination component sends them. */
const wholeNumber = (min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);

export const pagingQuery = {
  page: wholeNumber(1, 1_000_000).default(1),
  pageSize: wholeNumber(1, 100).default(10),
};

export interface Pagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

export const paginationOf = (page: number, pageSize: number, total: number): Pagination => ({
  page,
  pageSize,
  pageCount: Math.ceil(total / pageSize),
  total,
});

/**
 * Parses an admin route's query with its schema; a problem is a 400 ValidationError whose
 * message names the parameter, with every problem in `details.errors`.
 */
export function parseAdminQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const result = schema.safeParse(query ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
  const first = problems[0];
  throw new errors.ValidationError(`Query parameter ${first.path.join('.') || 'query'}: ${first.message}`, { errors: problems });
}

/** A LIKE pattern matching `text` anywhere, with the wildcards in it escaped (use with `escape '\'`). */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// ---- what admin routes answer, for their declarations (kernel/routes/declare.ts `admin`) ----

const json = (description: string, schema: z.ZodType): ContentAnswer => ({ kind: 'content', types: ['application/json'], description, schema });

export const paginationSchema = z.strictObject({
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  total: z.number().int(),
});

/** `{ data: [...], meta: { pagination } }`: a page of an admin list. */
export const adminPage = (item: z.ZodType, description: string) =>
  json(description, z.strictObject({ data: z.array(item), meta: z.strictObject({ pagination: paginationSchema }) }));

/** `{ data }`: one thing, or a short list. */
export const adminData = (data: z.ZodType, description: string) => json(description, z.strictObject({ data }));

/** Strapi's admin error body: `{ data: null, error: { status, name, message, details } }` (our codes in details.code). */
export const adminErrorBody = z.strictObject({
  data: z.null(),
  error: z.strictObject({
    status: z.number().int(),
    name: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).describe('Our error code and nextAction (`code`, `nextAction`), or Strapi\'s validation `errors`.'),
  }),
});

const ADMIN_ERROR_TEXT: Record<number, string> = {
  400: 'A query parameter or the body is not valid (the message names it).',
  409: 'The thing is not in a state that allows this (e.g. a suggestion already decided).',
  412: 'The thing changed since the If-Match ETag was read.',
  413: 'The body is too large.',
  429: 'Too many requests, or no free worker: retry later.',
  401: 'No valid admin token.',
  403: 'The admin lacks one of the route\'s permissions.',
  404: 'No such thing, or the admin API is off on this server (SERVE_ADMIN_PANEL=false).',
  500: 'Something went wrong on our side.',
};

/**
 * The error answers of an admin route, in Strapi's admin format: 401, 403, 404 (every admin
 * route answers it when the admin API is off) and 500 always, and `statuses`.
 */
export const adminErrorAnswers = (...statuses: number[]): Record<number, ContentAnswer> =>
  Object.fromEntries([...new Set([401, 403, 404, ...statuses, 500])].map((status) => [status, json(ADMIN_ERROR_TEXT[status] ?? 'An error.', adminErrorBody)]));
