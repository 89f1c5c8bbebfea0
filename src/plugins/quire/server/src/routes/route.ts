import { z } from 'zod';
import { empty, routeGroup, type RouteSpec } from '#kernel/routes';
import { fullArticleId, writeContextStage } from './stages';
import { WRITE_HEADERS } from '../schemas/change-sets';

/** The credentials of a user: an API key, an OAuth access token, a users-permissions JWT (Bearer), or the session cookie. */
export const USER_CREDENTIALS = ['api-key', 'oauth', 'jwt', 'session'] as const;

const group = routeGroup('quire', { credentials: USER_CREDENTIALS, userCredentials: USER_CREDENTIALS });

/**
 * An article's id in a path may be shortened to a unique prefix of it (the declared stage
 * `fullArticleId` expands it, routes/stages.ts); a prefix that matches several of the caller's
 * articles is 400.
 */
function withShortArticleIds<T extends Record<string, RouteSpec>>(specs: T): T {
  const out: Record<string, RouteSpec> = {};
  for (const [name, spec] of Object.entries(specs)) {
    out[name] = spec.path.startsWith('/api/articles/:id')
      ? { ...spec, prepare: [fullArticleId, ...(spec.prepare ?? [])], errors: [...(spec.errors ?? []), 'invalid-argument'] }
      : spec;
  }
  return out as T;
}

/** A suggestible write may file a suggestion, and an article or credential with too many pending ones is 429 (services/suggestions). */
function withSuggestionLimits<T extends Record<string, RouteSpec>>(specs: T): T {
  const out: Record<string, RouteSpec> = {};
  for (const [name, spec] of Object.entries(specs)) {
    out[name] = spec.suggestible && !(spec.errors ?? []).includes('rate-limited') ? { ...spec, errors: [...(spec.errors ?? []), 'rate-limited'] } : spec;
  }
  return out as T;
}

/**
 * Every write to an article takes the writer's reason and run as headers (CONTRACT 23,
 * schemas/change-sets WRITE_HEADERS): checked by the route's pipeline, read by
 * the declared stage around its handler (routes/stages.ts writeContextStage).
 */
function withChangeHeaders<T extends Record<string, RouteSpec>>(specs: T): T {
  const out: Record<string, RouteSpec> = {};
  for (const [name, spec] of Object.entries(specs)) {
    out[name] =
      spec.method !== 'GET' && spec.path.startsWith('/api/articles/:id/')
        ? { ...spec, headers: { ...(spec.headers ?? {}), ...WRITE_HEADERS }, around: [writeContextStage, ...(spec.around ?? [])] }
        : spec;
  }
  return out as T;
}

/** Quire's routes take the user's credential unless they say otherwise (see kernel/routes.ts). */
export const route: typeof group = (controller, tag, specs) => group(controller, tag, withChangeHeaders(withSuggestionLimits(withShortArticleIds(specs))));

/**
 * An id or anchor in a path: letters, digits, `-` and `_`. Anything else (`..`, `/`, `%2F`) is
 * 400 at the schema, before anything runs: an MCP tool's argument cannot name another route.
 */
export const pathSegment = (what: string) => z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, `must be ${what}: letters, digits and dashes only`);

export const articleId = pathSegment('an article id').describe('The article\'s id.');
export const sectionAnchor = pathSegment('a section anchor').describe('A section\'s anchor: a unique prefix of its id (any case), at least 6 characters in outlines.');
export const noteAnchor = pathSegment('a note anchor').describe('A note\'s anchor: a unique prefix of its id.');

/**
 * The errors of routes whose Markdown, HTML or SVG goes through the worker pool (services/workers):
 * a document too complex to finish within its deadline is 400, a pool with no free worker 429.
 */
export const WORKER_ERRORS = ['invalid-argument', 'rate-limited'];

export const articleParams = z.object({ id: articleId });
export const sectionParams = z.object({ id: articleId, sid: sectionAnchor });
export const noteParams = z.object({ id: articleId, nid: noteAnchor });

// ---- Conditional requests (CONTRACT section 10) ----

const ETAG_HEADER = 'The ETag of what was written: the section\'s, the note\'s, or the outline\'s.';

/** A GET that sends an ETag and answers 304 to an If-None-Match naming it. */
export function conditionalRead(what: string) {
  return {
    headers: { 'If-None-Match': `An ETag of ${what} you hold: 304 with no body when it is still current.` },
    responseHeaders: { ETag: `A strong entity tag of ${what}'s current revision (opaque: send it back as it is).` },
    notModified: empty(`Not modified: the ETag in If-None-Match is ${what}'s current one.`),
  };
}

/** A write that takes If-Match (the ETag of `what`) and answers the new ETag. */
export function conditionalWrite(what: string) {
  return {
    headers: { 'If-Match': `The ETag of ${what} as you read it (or *): 412 precondition-failed, nothing changed, when it is no longer current.` },
    responseHeaders: { ETag: ETAG_HEADER },
    errors: ['precondition-failed'] as string[],
  };
}
