/**
 * Which web origins may send requests to routes that check the `Origin` header (a route's
 * `checkOrigin`, kernel/routes/declare.ts): the server's own public origin (PUBLIC_URL) and the origins of
 * CORS_ORIGINS, read from the `strapi::cors` middleware's configuration (config/middlewares.ts),
 * so that CORS and this check never disagree.
 *
 * The MCP Streamable HTTP transport requires it ("Servers MUST validate the Origin header ... to
 * prevent DNS rebinding attacks"): a page on another site whose name was made to resolve to this
 * server would otherwise reach it as same-origin. Requests without an `Origin` header (agents,
 * the CLI, curl) are not from a browser page and pass.
 */
import { publicUrl } from './config';
import { permissionDenied } from './errors';

interface ConfigSource {
  config: { get(path: string): unknown };
}

/** The origins of the `strapi::cors` middleware's configuration (CORS_ORIGINS, else PUBLIC_URL's). */
function corsOrigins(strapi: ConfigSource): string[] {
  const middlewares = strapi.config.get('middlewares');
  if (!Array.isArray(middlewares)) return [];
  const cors = middlewares.find((m) => typeof m === 'object' && m !== null && (m as { name?: unknown }).name === 'strapi::cors') as
    | { config?: { origin?: unknown } }
    | undefined;
  const origin = cors?.config?.origin;
  return (Array.isArray(origin) ? origin : typeof origin === 'string' ? origin.split(',') : []).filter((o): o is string => typeof o === 'string');
}

/** The serialized origin of a URL, lower-cased; null when it is not one. */
function originOf(value: string): string | null {
  try {
    const origin = new URL(value.trim()).origin;
    return origin === 'null' ? null : origin.toLowerCase();
  } catch {
    return null;
  }
}

/** PUBLIC_URL's origin and CORS_ORIGINS, as serialized origins. */
export function allowedOrigins(strapi: ConfigSource): Set<string> {
  const origins = new Set<string>();
  for (const candidate of [publicUrl(strapi), ...corsOrigins(strapi)]) {
    const origin = originOf(candidate);
    if (origin) origins.add(origin);
  }
  return origins;
}

/**
 * Throws 403 `permission-denied` when a request carries an `Origin` header that is not one of
 * `allowedOrigins` (a malformed or opaque `null` origin included); no `Origin` header passes.
 */
export function refuseForeignOrigin(strapi: ConfigSource, header: string | string[] | undefined): void {
  if (header === undefined) return;
  const sent = Array.isArray(header) ? header.join(', ') : header;
  const origin = originOf(sent);
  if (origin && allowedOrigins(strapi).has(origin)) return;
  const shown = JSON.stringify(sent.length > 200 ? `${sent.slice(0, 200)}...` : sent);
  throw permissionDenied(
    `Requests from the origin ${shown} are refused: it is neither this server's own (PUBLIC_URL) nor one of CORS_ORIGINS.`,
    'If that web origin is yours, add it to CORS_ORIGINS (comma-separated) and restart the server. Agents and command-line clients send no Origin header and are not affected.',
  );
}
