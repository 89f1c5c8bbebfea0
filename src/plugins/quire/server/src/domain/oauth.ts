/**
 * The pure rules of Quire's OAuth 2.1 authorization server (CONTRACT §16): PKCE S256, exact
 * redirect URIs, scopes, the metadata documents (RFC 8414, RFC 9728) and the OAuth error format.
 */
import { createHash } from 'node:crypto';
import { safeEqual } from '#kernel/secrets';

export const OAUTH_SCOPES = ['write', 'suggest', 'read'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

export const ACCESS_TOKEN_PREFIX = 'qoa_';
export const REFRESH_TOKEN_PREFIX = 'qor_';
export const CODE_PREFIX = 'qoc_';
export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
export const CODE_SECONDS = 60;

/** Largest client metadata accepted at registration, as JSON (RFC 7591 3.2.2 invalid_client_metadata past it). */
export const MAX_CLIENT_METADATA_BYTES = 16 * 1024;
/** A registered client that no person authorized (approved on the consent page) is dropped this long after registering. */
export const UNUSED_CLIENT_SECONDS = 24 * 3600;
/** A rotated refresh token is kept this long, so its reuse still revokes its grant; then deleted. */
export const ROTATED_REFRESH_GRACE_SECONDS = 7 * 24 * 3600;

/** Anonymous registrations per client address (kernel limiter, RateLimit headers). */
export const REGISTER_LIMIT = { points: 30, durationSec: 3600 };
/** Fetches of client ID metadata documents (cache misses only), per requesting address and per target host. */
export const METADATA_FETCH_ADDRESS_LIMIT = { points: 10, durationSec: 60 };
export const METADATA_FETCH_HOST_LIMIT = { points: 30, durationSec: 60 };

/** The size of client metadata as JSON, in bytes. */
export const metadataBytes = (metadata: unknown): number => Buffer.byteLength(JSON.stringify(metadata) ?? '', 'utf8');

export const PATHS = {
  resourceMetadata: '/.well-known/oauth-protected-resource/api/mcp',
  resourceMetadataRoot: '/.well-known/oauth-protected-resource',
  serverMetadata: '/.well-known/oauth-authorization-server',
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** An error answered in the OAuth format ({error, error_description}) with its status (and headers: Retry-After). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description);
  }
  get body() {
    return { error: this.error, error_description: this.description };
  }
}

/** RFC 7636: BASE64URL(SHA256(verifier)) must equal the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return safeEqual(createHash('sha256').update(verifier).digest('base64url'), challenge);
}

export const isS256Challenge = (challenge: string) => /^[A-Za-z0-9_-]{43}$/.test(challenge);

/**
 * The scope asked for (space-separated), `write` when none is. Clients that ask for every
 * scope the metadata lists (as the MCP SDK does) ask for the broadest: the consent page says which.
 */
export function scopeOf(requested: string | undefined): OAuthScope | null {
  if (!requested?.trim()) return 'write';
  const asked = requested.trim().split(/\s+/);
  const known = asked.filter((s): s is OAuthScope => (OAUTH_SCOPES as readonly string[]).includes(s));
  if (known.length !== asked.length || !known.length) return null;
  return OAUTH_SCOPES.find((s) => known.includes(s)) ?? null;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A redirect URI a client may register: https, or http on a loopback host (native apps), no fragment. */
export function redirectUriAllowed(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname);
  // Custom schemes of native apps (cursor://...), never javascript: or data:.
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && !['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol);
}

/**
 * A client ID metadata document's URL: https with a path, no fragment, no credentials. Plain
 * http only for hosts the operator allowed as private (UNFURL_ALLOWED_PRIVATE_HOSTS: intranets, tests).
 */
export function isClientIdUrl(clientId: string, httpHosts: readonly string[] = []): boolean {
  try {
    const url = new URL(clientId);
    const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && (httpHosts.includes(url.host) || httpHosts.includes(url.hostname)));
    return scheme && url.pathname !== '/' && !url.hash && !url.username && !url.password;
  } catch {
    return false;
  }
}

export function protectedResourceMetadata(base: string) {
  return {
    resource: `${base}/api/mcp`,
    authorization_servers: [base],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Quire',
    resource_documentation: `${base}/api/docs`,
  };
}

export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}${PATHS.authorize}`,
    token_endpoint: `${base}${PATHS.token}`,
    registration_endpoint: `${base}${PATHS.register}`,
    revocation_endpoint: `${base}${PATHS.revoke}`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}
