/**
 * The one authentication policy of our routes.
 *
 * Each route declares the credentials it accepts, in order (kernel/routes/declare.ts). One
 * authenticator resolves the caller from what the request presents: its headers, its cookies,
 * the `api_key` values taken out of its query string, its path parameters and (for signed
 * webhooks) its raw body. It never sees a Koa context: `authRequestOf(ctx)` is the one place
 * that reads one.
 *
 * It knows no credential of its own: each plugin teaches it its kinds in its `register`
 * (`registerCredential`), with the OpenAPI security scheme that describes each, and declares
 * the caller each gives (CredentialCallers, in src/contracts). A route of one plugin may accept
 * another plugin's credentials by kind, without importing anything of it.
 *
 * The rule: the route's credentials are tried in its order; a credential the request does not
 * present is skipped; the first presented one that is valid (and, where the route checks it,
 * grants the route's target) wins. When none does, the answer is 401 `unauthenticated` with the
 * problem of the first credential presented, or "No credential was sent.".
 */
import type { Core } from '@strapi/strapi';
import { ApiError } from './errors';

/** What a credential may do (key scopes; JWTs and sessions write). */
export type Scope = 'write' | 'suggest' | 'read';

/** A users-permissions user, as a caller acting for one carries it. */
export interface CallerUser {
  id: number;
  username: string;
  email: string;
}

/** What every caller has, whatever its credential. */
export interface CallerBase {
  /** The family of caller (a person, an organization...): what handlers switch on. */
  kind: string;
  /** The credential kind it came with (one a plugin registered). */
  credential: string;
  scope: Scope;
  /**
   * Whether the user's role has each action the credential's own lookup answered (the request's
   * `actions`, in the same query), by action: kernel/permissions then needs no query of its own.
   */
  permissions?: Readonly<Record<string, boolean>>;
  /** The users-permissions user it acts for, when it acts for one (its role decides). */
  userId?: number;
  /** What checking the route's target found, for the controller. */
  target?: unknown;
}

/**
 * The caller each kind of credential gives, by kind. The kernel knows only `admin` (the admin
 * panel's token, checked by Strapi's admin policies, not here); the plugins add theirs by
 * declaration merging, in the contracts between them (src/contracts/credentials.ts), so that a
 * route of one plugin may accept another plugin's credentials by kind.
 */
export interface CredentialCallers {
  admin: never;
}

/** Every kind of credential a route may accept. */
export type Credential = Extract<keyof CredentialCallers, string>;

/** The caller a kind of credential gives. */
export type CallerFor<C extends Credential> = CredentialCallers[C];

/** Any caller. */
export type Caller = { [K in Credential]: CredentialCallers[K] }[Credential];

/** What the authenticator sees of a request. */
export interface AuthRequest {
  method: string;
  path: string;
  /** Lower-case names, as Node gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Cookies by name (the first of each name). */
  cookies: Readonly<Record<string, string>>;
  /** The `api_key` query values, taken out of the URL before anything logs it. */
  queryKeys: readonly string[];
  params: Readonly<Record<string, string>>;
  /** The exact bytes of the body, on routes that keep them (signed webhooks). */
  rawBody?: Buffer;
  /** The client address (the proxy-appended one behind TRUST_PROXY), for per-address limits. */
  ip?: string;
  /** Lookups shared by the checks of one request (a workflow loaded once). */
  memo: Map<string, Promise<unknown>>;
  /**
   * The users-permissions actions the request will be authorized for: the route's, then those its
   * body names (the route of an MCP tools/call). A verifier may check the role's permissions in its lookup.
   */
  actions?: readonly string[];
}

/** One credential's verdict on a request. */
export type Verdict =
  /** The request does not present this credential. */
  | undefined
  | { caller: Caller }
  /** Presented, but not valid: the 401's message, and its nextAction when the route names none. */
  | { refused: string; nextAction?: string };

/** How the API description (OpenAPI) presents a kind of credential: a security scheme, by name. */
export interface SecurityScheme {
  /** The scheme's name in `components.securitySchemes` (apiKey, sessionCookie...). */
  name: string;
  /** The OpenAPI Security Scheme Object. */
  scheme: Readonly<Record<string, unknown>>;
}

export interface CredentialVerifier {
  verify(request: AuthRequest): Verdict | Promise<Verdict>;
  /** The 401's nextAction when a route that accepts this credential receives no credential at all. */
  whenMissing?: string;
  /** How the API description presents it (the routes that accept it list it as their security). */
  scheme?: SecurityScheme;
}

/** How a route authenticates: its credentials and what a caller must also grant. */
export interface AuthPolicy {
  /** Accepted credentials, in the order they are tried. `[]`: the route takes none. */
  credentials: readonly Credential[];
  /** No valid credential is not an error: the caller is null (a login page, say). */
  optional?: boolean;
  /** The nextAction of every 401 of this route (else the refusing credential's, or `whenMissing`). */
  nextAction?: string;
  /**
   * Checks that a valid caller may reach this request's target (what its path names): null
   * when it may, else the reason, and the next credential is tried. It may leave what it found
   * in `caller.target`, and throw (404 for a target that does not exist).
   */
  grants?: (caller: Caller, request: AuthRequest, strapi: Core.Strapi) => Promise<string | null>;
  /**
   * The users-permissions actions, beyond the route's own, that the parsed body says the request
   * will be authorized for (the MCP endpoint: a tools/call's route): the credential's lookup
   * answers them too, so running the tool needs no permission query of its own.
   */
  actionsOf?: (body: unknown, strapi: Core.Strapi) => readonly string[];
  /**
   * The `WWW-Authenticate` value of this route's 401 (RFC 6750 / RFC 9728: the MCP endpoint
   * points an agent at its OAuth metadata there).
   */
  challenge?: (strapi: Core.Strapi) => string;
}

export interface Authentication {
  caller: Caller | null;
  /** True when a credential was presented and refused (an optional route answers without one). */
  refused: boolean;
}

const verifiersByApp = new WeakMap<object, Map<Credential, CredentialVerifier>>();

/** Teaches the authenticator one kind of credential (in a plugin's `register`). */
export function registerCredential(strapi: Core.Strapi, kind: Credential, verifier: CredentialVerifier): void {
  let verifiers = verifiersByApp.get(strapi);
  if (!verifiers) verifiersByApp.set(strapi, (verifiers = new Map()));
  verifiers.set(kind, verifier);
}

/** The credential kinds some plugin registered. */
export function registeredCredentials(strapi: Core.Strapi): Credential[] {
  return [...(verifiersByApp.get(strapi)?.keys() ?? [])];
}

/** The security schemes of the registered kinds, by kind (with the admin panel's, which is the kernel's). */
export function registeredSchemes(strapi: Core.Strapi): Record<string, SecurityScheme> {
  const schemes: Record<string, SecurityScheme> = { admin: ADMIN_SCHEME };
  for (const [kind, verifier] of verifiersByApp.get(strapi) ?? []) if (verifier.scheme) schemes[kind] = verifier.scheme;
  return schemes;
}

/** The admin panel's token: admin routes (kernel/admin-routes.ts), checked by Strapi's admin policies. */
export const ADMIN_SCHEME: SecurityScheme = {
  name: 'adminToken',
  scheme: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The admin panel\'s token of a signed-in admin (Strapi\'s admin authentication); the route\'s RBAC actions are in x-admin-permissions.',
  },
};

function verifierOf(strapi: Core.Strapi, kind: Credential): CredentialVerifier {
  const verifier = verifiersByApp.get(strapi)?.get(kind);
  if (!verifier) throw new Error(`No plugin registered the credential "${kind}" (registerCredential in its register).`);
  return verifier;
}

/** Resolves the caller of a request under a route's policy; 401 when the route needs one and none is valid. */
export async function authenticate(strapi: Core.Strapi, request: AuthRequest, policy: AuthPolicy): Promise<Authentication> {
  if (!policy.credentials.length) return { caller: null, refused: false };
  const refusals: Array<{ refused: string; nextAction?: string }> = [];
  for (const kind of policy.credentials) {
    const verdict = await verifierOf(strapi, kind).verify(request);
    if (!verdict) continue;
    if ('refused' in verdict) {
      refusals.push(verdict);
      continue;
    }
    const reason = policy.grants ? await policy.grants(verdict.caller, request, strapi) : null;
    if (reason === null) return { caller: verdict.caller, refused: false };
    refusals.push({ refused: reason });
  }
  if (policy.optional) return { caller: null, refused: refusals.length > 0 };
  const first = refusals[0];
  const whenMissing = policy.credentials.map((kind) => verifierOf(strapi, kind).whenMissing).find(Boolean);
  const headers = policy.challenge ? { 'WWW-Authenticate': policy.challenge(strapi) } : undefined;
  throw new ApiError('unauthenticated', first?.refused ?? 'No credential was sent.', policy.nextAction ?? first?.nextAction ?? whenMissing, { headers });
}

/** Cookies of a Cookie header, by name (the first of each name, as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in cookies) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies[name] = value;
  }
  return cookies;
}

/** The one place a Koa context becomes an AuthRequest. */
export function authRequestOf(ctx): AuthRequest {
  const headers = ctx.request.headers ?? {};
  const cookie = headers.cookie;
  return {
    method: ctx.method,
    path: ctx.path,
    headers,
    cookies: parseCookies(Array.isArray(cookie) ? cookie.join('; ') : cookie),
    queryKeys: ctx.state.queryCredentials ?? [],
    params: ctx.params ?? {},
    rawBody: ctx.state.rawBody,
    ip: ctx.request.ip,
    memo: new Map(),
  };
}

/** A header's value as one string (repeated headers joined the way Node joins them), or undefined. */
export const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);

/** The value of `Authorization: Bearer <token>`: undefined without the header, null when it is not of that form. */
export function bearerToken(request: AuthRequest): string | null | undefined {
  const header = headerValue(request.headers.authorization);
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
