/** The errors a route can answer (its OpenAPI responses, and what the API tests check answers against). */
import { z } from 'zod';
import { STATUS_BY_CODE } from '../errors';
import type { AnyRoute, ErrorSpec } from './declare';

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

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
