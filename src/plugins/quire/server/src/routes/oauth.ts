import { z } from 'zod';
import { RATE_LIMIT_HEADERS } from '#kernel/rate-limit';
import { content, empty, form, page, rawBody, redirect } from '#kernel/routes';
import { PATHS } from '../domain/oauth';
import { oauthDecisionForm, oauthSignInForm } from '../schemas/inputs/pages';
import { authorizationServerMetadata, clientRegistered, grantList, grantRevoked, oauthError, protectedResourceMetadata, tokenIssued } from '../schemas/responses';
import { disconnectsApps } from './access';
import { route } from './route';

const json = (description: string, schema: z.ZodType) => content(['application/json'], description, schema);
const failure = (description: string) => json(description, oauthError);
const pages = {
  400: page('The request cannot be honoured (unknown client, unregistered redirect_uri...).'),
  401: page('Wrong credentials.'),
  403: page('The form was stale or came from elsewhere.'),
  429: page('Too many sign-in attempts, or too many client ID metadata documents fetched for this address or from that host.'),
  500: page('Something went wrong on our side.'),
};
/** An answer that counted against a rate limit: its RateLimit headers (and Retry-After on 429). */
const limited = (answer: ReturnType<typeof json>, retry = false) => ({ ...answer, headers: { ...RATE_LIMIT_HEADERS, ...(retry ? { 'Retry-After': 'Seconds to wait before retrying.' } : {}) } });
const tooMany = (what: string) => limited(failure(`too_many_requests: ${what}; Retry-After says when to try again.`), true);
const serverError = { 500: failure('server_error: something went wrong on the server; try again in a moment.') };

const scopeNote = 'Scopes are those of API keys: write, suggest or read.';

const tokenForm = z.object({
  grant_type: z.enum(['authorization_code', 'refresh_token']),
  client_id: z.string(),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  code_verifier: z.string().optional(),
  refresh_token: z.string().optional(),
  resource: z.string().optional().describe('RFC 8707: must be the resource the authorization was for.'),
});

/**
 * Quire's OAuth 2.1 authorization server (CONTRACT §16): root routes, no credential (the
 * authorize page uses the session cookie of its own sign-in), answering in the OAuth formats.
 */
export const oauthRoutes = route('oauth', 'OAuth', {
  resourceMetadata: {
    method: 'GET',
    path: PATHS.resourceMetadata,
    summary: 'Protected resource metadata of /api/mcp (RFC 9728)',
    credentials: [],
    responses: { 200: json('Where to get tokens for /api/mcp.', protectedResourceMetadata) },
  },
  resourceMetadataRoot: {
    method: 'GET',
    path: PATHS.resourceMetadataRoot,
    summary: 'Protected resource metadata at the root (for clients that do not insert the path)',
    credentials: [],
    responses: { 200: json('The same document as the path-inserted one.', protectedResourceMetadata) },
  },
  serverMetadata: {
    method: 'GET',
    path: PATHS.serverMetadata,
    summary: 'Authorization server metadata (RFC 8414)',
    credentials: [],
    responses: { 200: json('The endpoints and what they support (PKCE S256, client ID metadata documents).', authorizationServerMetadata) },
  },
  register: {
    method: 'POST',
    path: PATHS.register,
    summary: 'Register a client (RFC 7591 dynamic client registration)',
    description:
      'Public clients only (token_endpoint_auth_method "none"); redirect_uris are matched exactly later. Anonymous, so bounded: 30 registrations per address per hour, metadata up to 16 KiB, and a client that completes no authorization within a day is deleted.',
    credentials: [],
    body: rawBody(['application/json'], 'The client metadata: redirect_uris, client_name, client_uri... (16 KiB at most).'),
    responses: {
      201: limited(json('The registered client.', clientRegistered)),
      400: limited(failure('invalid_redirect_uri or invalid_client_metadata (also metadata over 16 KiB).')),
      429: tooMany('too many registrations from this address'),
      ...serverError,
    },
  },
  authorize: {
    method: 'GET',
    path: PATHS.authorize,
    summary: 'The authorize page: sign in, then approve or deny the client',
    description: `Authorization code with PKCE S256 only (response_type=code, code_challenge, code_challenge_method=S256, client_id, redirect_uri, state, scope, resource). ${scopeNote} A request that cannot be honoured is a page, never a redirect: only the person's decision on the consent page goes back to the client (RFC 9700 4.11.2).`,
    credentials: ['session'],
    auth: { optional: true },
    responses: { 200: page('Sign-in or consent.'), ...pages },
  },
  signIn: {
    method: 'POST',
    path: `${PATHS.authorize}/session`,
    summary: 'Sign in on the authorize page',
    credentials: [],
    body: form(oauthSignInForm, 'The sign-in form.'),
    responses: { 200: page('Sign-in again, with the problem.'), 303: redirect('Signed in: back to the consent page.'), ...pages },
  },
  decide: {
    method: 'POST',
    path: `${PATHS.authorize}/decision`,
    summary: 'Approve or deny the client',
    credentials: ['session'],
    auth: { optional: true },
    body: form(oauthDecisionForm, 'The consent form.'),
    responses: { 302: redirect('Back to the client\'s redirect_uri with code, state and iss (or error=access_denied).'), ...pages },
  },
  token: {
    method: 'POST',
    path: PATHS.token,
    summary: 'Token endpoint: authorization_code and refresh_token grants',
    description: 'Access tokens live 1 hour; refresh tokens rotate: a refresh token used twice revokes its whole grant.',
    credentials: [],
    body: form(tokenForm, 'application/x-www-form-urlencoded, as RFC 6749 says.'),
    responses: {
      200: json('The tokens.', tokenIssued),
      400: failure('invalid_request, invalid_grant, invalid_target, unsupported_grant_type.'),
      401: failure('invalid_client: register again (an unknown client, or one registered over a day ago that never completed an authorization).'),
      429: tooMany('a client ID metadata document fetched too often for this address or from its host'),
      ...serverError,
    },
  },
  revoke: {
    method: 'POST',
    path: PATHS.revoke,
    summary: 'Revoke a token (RFC 7009): its whole grant',
    credentials: [],
    body: form(
      z.object({
        token: z.string(),
        token_type_hint: z.string().optional(),
        client_id: z.string().optional().describe('The client revoking: a token issued to another client is refused (unauthorized_client).'),
      }),
      'The token to revoke.',
    ),
    responses: { 200: empty('Revoked (or unknown: the answer is the same).'), 400: failure('invalid_request, or unauthorized_client: the token was issued to another client.'), ...serverError },
  },
});

/** What a person has connected (the grants of their OAuth clients), with their own credentials. */
export const oauthGrantRoutes = route('oauthGrants', 'OAuth', {
  list: {
    method: 'GET',
    path: '/api/oauth/grants',
    summary: 'List the apps connected to your account with OAuth',
    responses: { 200: grantList },
  },
  revoke: {
    method: 'DELETE',
    path: '/api/oauth/grants/:id',
    summary: 'Disconnect an app: revoke its grant and every token of it',
    description: 'With your login (a JWT, the browser session, or the key "quire login" saved): an API key made for an agent, or an OAuth token, gets 403.',
    params: z.object({ id: z.string().describe('The grant\'s id.') }),
    rules: [disconnectsApps],
    responses: { 200: grantRevoked },
  },
});
