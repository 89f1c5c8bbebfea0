/**
 * Quire's OAuth 2.1 authorization server state (CONTRACT §16): clients (dynamic registration,
 * or client ID metadata documents), grants (what a person approved for a client), and the
 * codes, access and refresh tokens of each grant, random, prefixed and stored as SHA-256 hashes
 * found by a unique index, like API keys.
 */
import { randomBytes } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { ApiError, notFound } from '#kernel/errors';
import { generateSecret, hashSecret, safeEqual } from '#kernel/secrets';
import { iso, lastUsedRecorder } from '#kernel/db';
import { safeFetch } from '#kernel/safe-fetch';
import { quireConfig } from '../config';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_SECONDS,
  CODE_PREFIX,
  CODE_SECONDS,
  MAX_CLIENT_METADATA_BYTES,
  METADATA_FETCH_ADDRESS_LIMIT,
  METADATA_FETCH_HOST_LIMIT,
  OAuthError,
  REGISTER_LIMIT,
  ROTATED_REFRESH_GRACE_SECONDS,
  UNUSED_CLIENT_SECONDS,
  metadataBytes,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_SECONDS,
  isClientIdUrl,
  pkceMatches,
  redirectUriAllowed,
  type OAuthScope,
} from '../domain/oauth';
import type { CallerUser } from '#kernel/auth';
import { OAUTH_GRANT_UID, oauthRepository } from '../repositories/oauth';
import { userRepository } from '../repositories/users';
import { getService } from './get-service';


export interface OAuthClient {
  clientId: string;
  name: string;
  uri: string | null;
  redirectUris: string[];
}

export interface GrantRecord {
  id: string;
  client: { id: string; name: string; uri: string | null };
  scope: OAuthScope;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface TokenSet {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: OAuthScope;
}

/** A client ID metadata document is cached this long (and at most this many of them). */
const METADATA_CACHE_MS = 10 * 60 * 1000;
/** A document that could not be fetched or was not valid is not asked for again for this long. */
const METADATA_FAILURE_CACHE_MS = 60 * 1000;
const METADATA_CACHE_SIZE = 500;
/** The answer to a document that could not be fetched: the same whatever the target did (no port-scan oracle). */
const FETCH_FAILED = (clientId: string) =>
  `The client ID metadata document at ${clientId} could not be fetched. Try again later; if it keeps failing, tell the app's developer.`;
/** How often expired tokens and unused clients are deleted (and once at boot). */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const MAX_REDIRECT_URIS = 10;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

/** Validates client metadata (RFC 7591 / client ID metadata document) into a client. */
export function clientFromMetadata(clientId: string, metadata: Record<string, unknown>): OAuthClient {
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || !uris.length || uris.length > MAX_REDIRECT_URIS || !uris.every((u) => typeof u === 'string' && u.length <= 2000 && redirectUriAllowed(u))) {
    throw new OAuthError('invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} absolute https (or loopback http) URIs without fragments.`);
  }
  const method = str(metadata.token_endpoint_auth_method) ?? 'none';
  if (method !== 'none') throw new OAuthError('invalid_client_metadata', 'Only public clients are supported: token_endpoint_auth_method must be "none" (PKCE protects the code).');
  const grantTypes = metadata.grant_types ?? ['authorization_code'];
  if (!Array.isArray(grantTypes) || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types may hold only authorization_code and refresh_token.');
  }
  const name = (str(metadata.client_name) ?? '').trim().slice(0, 100);
  const uri = str(metadata.client_uri);
  return {
    clientId,
    name: name || new URL(uris[0] as string).host || 'Unnamed client',
    uri: uri && /^https?:\/\//.test(uri) ? uri.slice(0, 2000) : null,
    redirectUris: uris as string[],
  };
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const store = oauthRepository(strapi);
  const users = userRepository(strapi);
  // A grant's lastUsedAt, written at most once a minute per grant, as for API keys.
  const recordUse = lastUsedRecorder(strapi, OAUTH_GRANT_UID);
  const rateLimit = () => getService(strapi, 'rateLimit');
  // Documents fetched (and failures, for a shorter while), and fetches under way: concurrent
  // requests for one URL share one fetch.
  const metadataCache = new Map<string, { client?: OAuthClient; failure?: OAuthError; until: number }>();
  const fetching = new Map<string, Promise<OAuthClient>>();
  let sweepTimer: NodeJS.Timeout | null = null;

  function remember(clientId: string, entry: { client?: OAuthClient; failure?: OAuthError; until: number }) {
    if (metadataCache.size >= METADATA_CACHE_SIZE) metadataCache.delete(metadataCache.keys().next().value!);
    metadataCache.set(clientId, entry);
  }

  /** Counts one request against a kernel limit; past it, 429 `too_many_requests` in the OAuth format, with Retry-After. */
  async function limit(name: string, key: string, spec: { points: number; durationSec: number }, message: string): Promise<void> {
    try {
      await rateLimit().consume(name, key, spec, 1, message);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'rate-limited')) throw error;
      throw new OAuthError('too_many_requests', `${message} ${error.nextAction ?? ''}`.trim(), 429, error.headers);
    }
  }

  async function fetchClientMetadata(clientId: string, address: string): Promise<OAuthClient> {
    const cached = metadataCache.get(clientId);
    if (cached && cached.until > Date.now()) {
      if (cached.failure) throw cached.failure;
      return cached.client!;
    }
    const pending = fetching.get(clientId);
    if (pending) return pending;
    // Registered before anything is awaited, so concurrent requests for one URL share one fetch
    // (and its refusal, if the limits refuse it).
    const fetched = (async () => {
      // Each fetch is an outbound request an anonymous caller makes us send: limited per caller and per target host.
      await limit('oauth-metadata-fetch', address, METADATA_FETCH_ADDRESS_LIMIT, 'Too many client ID metadata documents fetched for this address.');
      await limit('oauth-metadata-host', new URL(clientId).hostname, METADATA_FETCH_HOST_LIMIT, 'Too many client ID metadata documents fetched from this host.');
      try {
        const client = await loadClientMetadata(clientId);
        remember(clientId, { client, until: Date.now() + METADATA_CACHE_MS });
        return client;
      } catch (error) {
        if (error instanceof OAuthError) remember(clientId, { failure: error, until: Date.now() + METADATA_FAILURE_CACHE_MS });
        throw error;
      }
    })();
    fetching.set(clientId, fetched);
    try {
      return await fetched;
    } finally {
      fetching.delete(clientId);
    }
  }

  async function loadClientMetadata(clientId: string): Promise<OAuthClient> {
    let document: Record<string, unknown>;
    try {
      // The guarded fetcher refuses private and loopback addresses before connecting (SSRF);
      // no redirects, 64 KiB at most. Why it failed is not told (status, refusal, network):
      // the page would be an oracle for what answers where.
      const { allowedPrivateHosts } = quireConfig(strapi);
      const result = await safeFetch(clientId, { headers: { accept: 'application/json' }, htmlOnly: false, maxBytes: 64 * 1024, maxRedirects: 0, timeoutMs: 5000, allowedPrivateHosts });
      if (result.status !== 200) throw new Error('not 200');
      document = JSON.parse(result.body.toString('utf8'));
    } catch {
      throw new OAuthError('invalid_client', FETCH_FAILED(clientId), 401);
    }
    if (!document || typeof document !== 'object' || document.client_id !== clientId) {
      throw new OAuthError('invalid_client', 'The client ID metadata document must be a JSON object whose client_id is its own URL.', 401);
    }
    return clientFromMetadata(clientId, document);
  }

  async function markAuthorized(clientIds: string[]) {
    await store.markClientsAuthorized(clientIds);
  }

  /**
   * Which of these clients a person authorized although authorizedAt is unset (clients
   * registered before it was recorded have grants): they are marked, and kept.
   */
  async function authorizedBefore(clientIds: string[]): Promise<string[]> {
    const found = await store.clientsWithGrants(clientIds);
    await markAuthorized(found);
    return found;
  }

  async function issue(grantId: number, scope: OAuthScope): Promise<TokenSet> {
    const access = generateSecret(ACCESS_TOKEN_PREFIX);
    const refresh = generateSecret(REFRESH_TOKEN_PREFIX);
    await store.createToken({ hash: hashSecret(access), kind: 'access', grantId, expiresAt: later(ACCESS_TOKEN_SECONDS) });
    await store.createToken({ hash: hashSecret(refresh), kind: 'refresh', grantId, expiresAt: later(REFRESH_TOKEN_SECONDS) });
    return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh, scope };
  }

  async function liveGrant(grantId: number) {
    const grant = await store.findGrant(grantId);
    return grant && !grant.revokedAt ? grant : null;
  }

  async function revokeGrantRow(grantId: number) {
    await store.revokeGrants([grantId]);
  }

  const api = {
    /** Counts a registration from `address`: past REGISTER_LIMIT, 429 `too_many_requests` (Retry-After). */
    async limitRegistrations(address: string): Promise<void> {
      await limit('oauth-register', address, REGISTER_LIMIT, 'Too many client registrations from this address.');
    },

    /**
     * RFC 7591 dynamic registration: a public client with its exact redirect URIs. Anonymous,
     * so bounded: metadata up to 16 KiB (the controller limits registrations per address), and
     * a client that completes no authorization within a day is dropped (`client`, `sweep`).
     */
    async register(metadata: Record<string, unknown>) {
      if (metadataBytes(metadata) > MAX_CLIENT_METADATA_BYTES) {
        throw new OAuthError('invalid_client_metadata', `The client metadata is larger than ${MAX_CLIENT_METADATA_BYTES / 1024} KiB: send only what registration needs (redirect_uris, client_name, client_uri).`);
      }
      const client = clientFromMetadata(`qc_${randomBytes(16).toString('base64url')}`, metadata);
      await store.createClient({ clientId: client.clientId, name: client.name, uri: client.uri, redirectUris: client.redirectUris });
      return {
        client_id: client.clientId,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        client_name: client.name,
        ...(client.uri ? { client_uri: client.uri } : {}),
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },

    /**
     * A registered client, or the client its https client_id names (fetched for `address`,
     * cached); null when unknown, or registered over a day ago and never used to complete an
     * authorization (the sweep deletes those).
     */
    async client(clientId: string, address: string): Promise<OAuthClient | null> {
      if (isClientIdUrl(clientId, quireConfig(strapi).allowedPrivateHosts)) return fetchClientMetadata(clientId, address);
      const row = await store.findClient(clientId);
      if (!row) return null;
      if (!row.authorizedAt && new Date(row.createdAt).getTime() < Date.now() - UNUSED_CLIENT_SECONDS * 1000 && !(await authorizedBefore([clientId])).length) return null;
      return { clientId: row.clientId, name: row.name, uri: row.uri ?? null, redirectUris: row.redirectUris };
    },

    /** The person approved: a grant, and its one-time code (60 seconds). */
    async approve(input: { userId: number; client: OAuthClient; scope: OAuthScope; resource: string; redirectUri: string; codeChallenge: string }): Promise<string> {
      const grant = await store.createGrant({ userId: input.userId, clientId: input.client.clientId, clientName: input.client.name, clientUri: input.client.uri, scope: input.scope, resource: input.resource });
      // A person authorized the client: a registered one is kept from now on.
      await markAuthorized([input.client.clientId]);
      const code = generateSecret(CODE_PREFIX);
      await store.createToken({ hash: hashSecret(code), kind: 'code', grantId: grant.id, expiresAt: later(CODE_SECONDS), redirectUri: input.redirectUri, codeChallenge: input.codeChallenge });
      return code;
    },

    /** The authorization_code grant: one use, same client and redirect URI, PKCE, same resource. */
    async exchangeCode(input: { code: string; clientId: string; redirectUri: string; codeVerifier: string; resource?: string }): Promise<TokenSet> {
      const invalid = (why: string) => new OAuthError('invalid_grant', why);
      const row = await store.findToken(hashSecret(input.code), 'code');
      if (!row) throw invalid('The code is not valid (unknown, or already used).');
      // One use: whoever marks it used first wins; a second use revokes the grant (RFC 6749 4.1.2).
      if (!(await store.markTokenUsed(row.id))) {
        await revokeGrantRow(row.grantId);
        throw invalid('The code was already used; the tokens issued with it are revoked.');
      }
      const grant = await liveGrant(row.grantId);
      if (!grant) throw invalid('The authorization was revoked.');
      if (new Date(row.expiresAt).getTime() < Date.now()) throw invalid('The code has expired; authorize again.');
      if (grant.clientId !== input.clientId) throw invalid('The code was issued to another client.');
      if (row.redirectUri !== input.redirectUri) throw invalid('redirect_uri differs from the one of the authorization request.');
      if (!pkceMatches(input.codeVerifier, row.codeChallenge)) throw invalid('The code_verifier does not match the code_challenge (PKCE S256).');
      if (input.resource !== undefined && input.resource !== grant.resource) throw new OAuthError('invalid_target', `The code was issued for ${grant.resource}.`);
      await store.removeToken(row.id);
      return issue(grant.id, grant.scope);
    },

    /** The refresh_token grant, with rotation: a refresh token works once; using it again revokes the whole grant. */
    async refresh(input: { refreshToken: string; clientId: string; resource?: string }): Promise<TokenSet> {
      const row = await store.findToken(hashSecret(input.refreshToken), 'refresh');
      if (!row) throw new OAuthError('invalid_grant', 'The refresh token is not valid (unknown, revoked or expired).');
      const grant = await liveGrant(row.grantId);
      if (!grant || new Date(row.expiresAt).getTime() < Date.now()) throw new OAuthError('invalid_grant', 'The refresh token has expired or its authorization was revoked.');
      if (grant.clientId !== input.clientId) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client.');
      if (input.resource !== undefined && input.resource !== grant.resource) throw new OAuthError('invalid_target', `The grant is for ${grant.resource}.`);
      if (!(await store.markTokenUsed(row.id))) {
        // Reuse of a rotated refresh token: someone holds a copy. Revoke everything of the grant.
        await revokeGrantRow(grant.id);
        throw new OAuthError('invalid_grant', 'This refresh token was already used; the authorization is revoked. Authorize again.');
      }
      return issue(grant.id, grant.scope);
    },

    /** RFC 7009: revokes the grant of an access or refresh token; unknown tokens are not an error. */
    /**
     * Revokes the grant of an access or refresh token (RFC 7009). A client that names itself
     * (`clientId`) may revoke only what was issued to it (2.1): another's token is refused as
     * `unauthorized_client`, and stays valid. An unknown token is no error.
     */
    async revoke(token: string, clientId?: string): Promise<void> {
      const row = await store.findToken(hashSecret(token));
      if (!row || row.kind === 'code') return;
      if (clientId !== undefined) {
        const grant = await store.findGrant(row.grantId);
        if (grant && grant.clientId !== clientId) throw new OAuthError('unauthorized_client', 'This token was not issued to this client: only the client it was issued to can revoke it.');
      }
      await revokeGrantRow(row.grantId);
    },

    /** The user, scope and client of a live access token, or null. */
    async verifyAccess(token: string, resources: readonly string[]): Promise<{ user: CallerUser; scope: OAuthScope; grantId: number; clientName: string } | null> {
      const hash = hashSecret(token);
      const row = await store.findToken(hash, 'access');
      if (!row || !safeEqual(row.hash, hash) || new Date(row.expiresAt).getTime() < Date.now()) return null;
      const grant = await liveGrant(row.grantId);
      if (!grant || !resources.includes(grant.resource)) return null;
      const user = await users.findById(grant.userId);
      if (!user || user.blocked) return null;
      await recordUse(Number(grant.id));
      return { user: { id: user.id, username: user.username, email: user.email }, scope: grant.scope, grantId: grant.id, clientName: grant.clientName };
    },

    async listGrants(userId: number): Promise<GrantRecord[]> {
      const rows = await store.liveGrantsOf(userId);
      return rows.map((g) => ({
        id: g.documentId,
        client: { id: g.clientId, name: g.clientName, uri: g.clientUri ?? null },
        scope: g.scope,
        createdAt: iso(g.createdAt)!,
        lastUsedAt: iso(g.lastUsedAt),
      }));
    },

    /**
     * Revokes every grant of a user, with all their codes and tokens (a password change or a
     * block: credential-changes.ts); returns how many grants. A grant's revokedAt is what every
     * check reads, so it is set first; deleting the tokens is the cleanup.
     */
    async revokeAllFor(userId: number): Promise<number> {
      const ids = (await store.liveGrantsOf(userId)).map((g: { id: number }) => g.id);
      if (!ids.length) return 0;
      await store.revokeGrants(ids);
      return ids.length;
    },

    /**
     * Deletes what can no longer be used: expired codes and access tokens, refresh tokens that
     * expired or were rotated a week ago (kept that long so a reuse still revokes the grant),
     * and registered clients that completed no authorization within a day.
     */
    async sweep(now = Date.now()): Promise<{ tokens: number; clients: number }> {
      const tokens = await store.removeSpentTokens(new Date(now), new Date(now - ROTATED_REFRESH_GRACE_SECONDS * 1000));
      let clients = 0;
      for (;;) {
        const unused = await store.unusedClients(new Date(now - UNUSED_CLIENT_SECONDS * 1000));
        if (!unused.length) break;
        const kept = new Set(await authorizedBefore(unused.map((c: { clientId: string }) => c.clientId)));
        const dropped = unused.filter((c: { clientId: string }) => !kept.has(c.clientId)).map((c: { id: number }) => c.id);
        if (dropped.length) clients += await store.removeClients(dropped);
        if (unused.length < 500) break;
      }
      return { tokens, clients };
    },

    /** Sweeps now, then hourly in the background (every process may: the deletes do not conflict). */
    async startSweeps(): Promise<void> {
      const run = () => api.sweep().catch((error) => strapi.log.warn(`oauth: sweep failed: ${error?.message ?? error}`));
      await run();
      sweepTimer = setInterval(run, SWEEP_INTERVAL_MS);
      sweepTimer.unref();
    },

    stopSweeps(): void {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
    },

    async revokeGrant(userId: number, id: string): Promise<void> {
      const grant = await store.findLiveGrantOf(userId, id);
      if (!grant) throw notFound(`No connected app with id ${id}.`, 'Call GET /api/oauth/grants for yours.');
      await revokeGrantRow(grant.id);
    },
  };
  return api;
};
