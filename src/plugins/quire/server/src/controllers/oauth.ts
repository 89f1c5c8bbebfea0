import type { Core } from '@strapi/strapi';
import { publicUrl } from '#kernel/config';
import { ApiError } from '#kernel/errors';
import type { UserCaller } from '../../../../../contracts/credentials';
import { pageController, text, type CsrfPurpose, type Page } from '#kernel/page-kit';
import { controller } from '#kernel/routes';
import { OAuthError, PATHS, authorizationServerMetadata, isS256Challenge, protectedResourceMetadata, scopeOf, type OAuthScope } from '../domain/oauth';
import { consentPage, oauthProblemPage, oauthSignInPage } from '../pages/oauth-page';
import { oauthGrantRoutes, oauthRoutes } from '../routes/oauth';
import { oauthResources } from '../services/auth';
import { getService } from '../services/get-service';
import type { OAuthClient } from '../services/oauth';
import { SIGN_IN_IP_LIMIT, SIGN_IN_LIMIT } from '../services/sign-in';

/** The CSRF token of the authorize page's forms (kernel/page-kit), apart from the CLI login page's. */
const CSRF: CsrfPurpose = { cookie: 'quire_oauth_csrf', path: PATHS.authorize, label: 'oauth-csrf' };
/** The authorization request's query string as carried in the forms. */
const REQUEST_MAX = 4000;

/** A validated authorization request (the query of GET /oauth/authorize, carried through the forms). */
interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state?: string;
  scope: OAuthScope;
  resource: string;
  codeChallenge: string;
  /** The query string as received, for the forms' hidden field. */
  raw: string;
}

/**
 * A request error, always shown on the page. Errors are never sent back to the redirect URI
 * before the person has seen the consent page (RFC 9700 4.11.2): a crafted link with a bad
 * parameter would otherwise bounce the browser to whatever https URI anyone registered, with no
 * user action (an open redirector). Only the person's own decision goes back to the client.
 */
type Invalid = { page: string; status?: number; headers?: Readonly<Record<string, string>> };

/**
 * The OAuth 2.1 authorization server (CONTRACT §16): metadata documents, registration, the
 * authorize page, token and revocation. These endpoints answer in the OAuth formats of their
 * RFCs, not in the envelope.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const oauth = () => getService(strapi, 'oauth');
  const rateLimit = () => getService(strapi, 'rateLimit');
  const base = () => publicUrl(strapi);
  const sessions = () => getService(strapi, 'webSessions');

  function json(ctx, status: number, body: unknown) {
    ctx.status = status;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  }

  const logFailure = (ctx, error: unknown) => strapi.log.error(`${ctx.method} ${ctx.path} failed: ${(error as Error)?.stack ?? error}`);

  /** Runs an endpoint, answering OAuthErrors in the RFC 6749 format, and anything unexpected as `server_error`. */
  const oauthJson = (fn: (ctx) => Promise<void>) => async (ctx) => {
    try {
      await fn(ctx);
    } catch (error) {
      if (!(error instanceof OAuthError)) {
        logFailure(ctx, error);
        return json(ctx, 500, { error: 'server_error', error_description: 'Something went wrong on the server. Try again in a moment.' });
      }
      json(ctx, error.status, error.body);
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      if (error.status === 401) ctx.set('WWW-Authenticate', 'Bearer error="invalid_client"');
    }
  };

  const problem = (page: Page, status: number, title: string, message: string, headers?: Readonly<Record<string, string>>) =>
    page.send(status, oauthProblemPage({ nonce: page.nonce, title, message }), { headers });

  function errorRedirect(redirectUri: string, error: string, description: string, state?: string): string {
    const url = new URL(redirectUri);
    url.searchParams.set('error', error);
    url.searchParams.set('error_description', description);
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('iss', base());
    return url.toString();
  }

  /** Validates an authorization request (RFC 6749 4.1.1, PKCE, RFC 8707), in the order the RFCs ask. */
  async function authorizationRequest(raw: string, address: string): Promise<AuthorizationRequest | Invalid> {
    const q = new URLSearchParams(raw);
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!clientId) return { page: 'The request names no client (client_id).' };
    let client: OAuthClient | null;
    try {
      client = await oauth().client(clientId, address);
    } catch (error) {
      if (error instanceof OAuthError) return { page: error.description, status: error.status === 429 ? 429 : 400, headers: error.headers };
      throw error;
    }
    if (!client) return { page: 'This app is not registered here (unknown client_id).' };
    // Exact match only: a redirect URI the client did not register is never redirected to.
    if (!client.redirectUris.includes(redirectUri)) return { page: 'The redirect_uri is not one this app registered.' };
    const state = q.get('state') ?? undefined;
    // The remaining errors are the app's mistakes: shown here, with the OAuth code for its developer.
    const fail = (error: string, description: string): Invalid => ({ page: `${description} (${error})` });
    if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
    const codeChallenge = q.get('code_challenge') ?? '';
    if (q.get('code_challenge_method') !== 'S256' || !isS256Challenge(codeChallenge)) return fail('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256.');
    const scope = scopeOf(q.get('scope') ?? undefined);
    if (!scope) return fail('invalid_scope', 'scope must be one of write, suggest, read.');
    const resource = q.get('resource') ?? `${base()}/api/mcp`;
    if (!oauthResources(strapi).includes(resource)) return fail('invalid_target', `resource must be ${base()}/api/mcp.`);
    return { client, redirectUri, state, scope, resource, codeChallenge, raw };
  }

  function pageUser(input: { caller: unknown; credentialRefused: boolean }, ctx): UserCaller['user'] | null {
    const caller = input.caller as UserCaller | null;
    if (caller) return caller.user;
    if (input.credentialRefused) sessions().clearCookie(ctx);
    return null;
  }

  /** The page of a request that cannot be honoured (Retry-After on a 429). */
  const refuse = (page: Page, invalid: Invalid) => problem(page, invalid.status ?? 400, 'This connection cannot be made', invalid.page, invalid.headers);

  async function showRequest(page: Page, input: { caller: unknown; credentialRefused: boolean; ip: string }, ctx, raw: string, status = 200, error?: string, identifier?: string) {
    const request = await authorizationRequest(raw, input.ip);
    if ('page' in request) return refuse(page, request);
    const csrf = page.csrfToken();
    const user = pageUser(input, ctx);
    if (!user) return page.send(status, oauthSignInPage({ nonce: page.nonce, csrf, request: raw, clientName: request.client.name, error, identifier }));
    const target = new URL(request.redirectUri);
    page.send(
      status,
      consentPage({ nonce: page.nonce, csrf, request: raw, user, client: { name: request.client.name, id: request.client.clientId, uri: request.client.uri }, redirectUri: request.redirectUri, scope: request.scope }),
      { formTargets: [target.protocol === 'http:' || target.protocol === 'https:' ? target.origin : `${target.protocol}`] },
    );
  }

  /** The authorize page, its sign-in and its decision: pages, answered whatever happens. */
  const pages = pageController(
    strapi,
    { authorize: oauthRoutes.authorize, signIn: oauthRoutes.signIn, decide: oauthRoutes.decide },
    {
      csrf: CSRF,
      failure: (page) => ({ status: 500, html: oauthProblemPage({ nonce: page.nonce, title: 'Something went wrong', message: 'Something went wrong on our side. Try again in a moment.' }) }),
    },
    {
      authorize: async (input, page, ctx) => showRequest(page, input, ctx, input.querystring),

      signIn: async (input, page, ctx) => {
        const { form } = input;
        const raw = text(form.request, REQUEST_MAX);
        if (!page.csrfValid(form.csrf)) return problem(page, 403, 'This form has expired', 'Reload the page and try again.');
        const identifier = text(form.identifier, 200).trim();
        const password = text(form.password, 500);
        if (!identifier || !password) return showRequest(page, input, ctx, raw, 400, 'Enter your username or email and your password.', identifier);
        const ipKey = `ip:${input.ip}`;
        const idKey = `id:${input.ip}:${identifier.toLowerCase()}`;
        const wait = Math.max(await rateLimit().blockedFor('cli-sign-in', idKey, SIGN_IN_LIMIT), await rateLimit().blockedFor('cli-sign-in-ip', ipKey, SIGN_IN_IP_LIMIT));
        if (wait) return showRequest(page, input, ctx, raw, 429, `Too many sign-in attempts. Try again in ${Math.ceil(wait / 60)} minutes.`, identifier);
        const result = await getService(strapi, 'signIn').verifyPassword(identifier, password);
        if (!result.ok) {
          try {
            await rateLimit().consume('cli-sign-in', idKey, SIGN_IN_LIMIT);
            await rateLimit().consume('cli-sign-in-ip', ipKey, SIGN_IN_IP_LIMIT);
          } catch (error) {
            if (!(error instanceof ApiError && error.code === 'rate-limited')) throw error;
          }
          return showRequest(page, input, ctx, raw, result.status, result.message, identifier);
        }
        await rateLimit().reset('cli-sign-in', idKey, SIGN_IN_LIMIT);
        // The same revocable web session as the CLI login page (services/web-sessions).
        await sessions().start(ctx, result.userId);
        page.redirect(`${PATHS.authorize}?${raw}`);
      },

      decide: async (input, page, ctx) => {
        const { form } = input;
        const raw = text(form.request, REQUEST_MAX);
        if (!page.csrfValid(form.csrf)) return problem(page, 403, 'This form has expired', 'Reload the page and try again.');
        const user = pageUser(input, ctx);
        if (!user) return showRequest(page, input, ctx, raw, 401, 'Sign in first.');
        const request = await authorizationRequest(raw, input.ip);
        if ('page' in request) return refuse(page, request);
        if (form.decision !== 'approve') return page.redirect(errorRedirect(request.redirectUri, 'access_denied', 'The person denied the connection.', request.state), 302);
        const code = await oauth().approve({ userId: user.id, client: request.client, scope: request.scope, resource: request.resource, redirectUri: request.redirectUri, codeChallenge: request.codeChallenge });
        const url = new URL(request.redirectUri);
        url.searchParams.set('code', code);
        if (request.state !== undefined) url.searchParams.set('state', request.state);
        url.searchParams.set('iss', base());
        page.redirect(url.toString(), 302);
      },
    },
  );

  const handlers = {
    ...pages,
    resourceMetadata: async (ctx) => json(ctx, 200, protectedResourceMetadata(base())),
    resourceMetadataRoot: async (ctx) => json(ctx, 200, protectedResourceMetadata(base())),
    serverMetadata: async (ctx) => json(ctx, 200, authorizationServerMetadata(base())),

    register: oauthJson(async (ctx) => {
      // Anyone may register, so each address only so often (RateLimit headers on every answer).
      await oauth().limitRegistrations(ctx.request.ip);
      const body = ctx.request.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'Send the client metadata as a JSON object.');
      json(ctx, 201, await oauth().register(body));
    }),

    token: oauthJson(async (ctx) => {
      const body = ctx.request.body ?? {};
      const field = (name: string) => {
        const value = body[name];
        if (value !== undefined && typeof value !== 'string') throw new OAuthError('invalid_request', `${name} must be given once, as a string.`);
        return value as string | undefined;
      };
      const clientId = field('client_id');
      if (!clientId) throw new OAuthError('invalid_client', 'client_id is required (public clients authenticate with it and PKCE).', 401);
      const client = await oauth().client(clientId, ctx.request.ip);
      if (!client) throw new OAuthError('invalid_client', 'Unknown client_id: register again.', 401);
      const grantType = field('grant_type');
      const resource = field('resource');
      if (grantType === 'authorization_code') {
        const code = field('code');
        const redirectUri = field('redirect_uri');
        const codeVerifier = field('code_verifier');
        if (!code || !redirectUri || !codeVerifier) throw new OAuthError('invalid_request', 'code, redirect_uri and code_verifier are required.');
        return json(ctx, 200, await oauth().exchangeCode({ code, clientId, redirectUri, codeVerifier, resource }));
      }
      if (grantType === 'refresh_token') {
        const refreshToken = field('refresh_token');
        if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required.');
        return json(ctx, 200, await oauth().refresh({ refreshToken, clientId, resource }));
      }
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }),

    revoke: oauthJson(async (ctx) => {
      const { token, client_id: clientId } = ctx.request.body ?? {};
      if (typeof token !== 'string' || !token) throw new OAuthError('invalid_request', 'token is required.');
      if (clientId !== undefined && typeof clientId !== 'string') throw new OAuthError('invalid_request', 'client_id must be text.');
      await oauth().revoke(token, clientId);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = null;
      ctx.status = 200;
    }),
  };

  return handlers;
};

/** GET /api/oauth/grants and DELETE /api/oauth/grants/{id}: what a person has connected. */
export const oauthGrants = ({ strapi }: { strapi: Core.Strapi }) => {
  const oauth = () => getService(strapi, 'oauth');
  return controller(oauthGrantRoutes, {
    list: async ({ caller }) => ({ grants: await oauth().listGrants(caller.userId) }),
    // Disconnecting apps is the person's: the route's access rule (routes/access.ts).
    revoke: async ({ params, caller }) => {
      await oauth().revokeGrant(caller.userId, params.id);
      return { revoked: true as const, id: params.id };
    },
  });
};
