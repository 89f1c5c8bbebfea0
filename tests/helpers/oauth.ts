/**
 * An MCP client's OAuth side, as the official SDK implements it: an OAuthClientProvider that
 * keeps what the SDK asks it to keep, and records the authorization URL it would open in a
 * browser. Tests then approve that URL (on the page itself, over HTTP or in Chromium).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import supertest from 'supertest';

export const REDIRECT_URI = 'http://127.0.0.1:7777/callback';

export class RecordingProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(
    readonly name = 'Test Agent',
    readonly clientMetadataUrl?: string,
    readonly scope?: string,
    readonly redirectUri = REDIRECT_URI,
  ) {}
  get redirectUrl() {
    return this.redirectUri;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      client_uri: 'https://agent.example',
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export const hiddenField = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&');

/**
 * A person signs in on the authorize page and approves (or denies), over plain HTTP with a
 * cookie jar; returns where the page sent the browser back to.
 */
export async function approveOverHttp(httpServer: any, authorizationUrl: URL, user: { username: string; password: string }, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const agent = supertest.agent(httpServer);
  const path = authorizationUrl.pathname + authorizationUrl.search;
  const signInPage = await agent.get(path);
  if (signInPage.status !== 200) throw new Error(`authorize page: ${signInPage.status} ${signInPage.text}`);
  const signedIn = await agent
    .post('/oauth/authorize/session')
    .type('form')
    .send({ csrf: hiddenField(signInPage.text, 'csrf'), request: hiddenField(signInPage.text, 'request'), identifier: user.username, password: user.password });
  if (signedIn.status !== 303) throw new Error(`sign in: ${signedIn.status} ${signedIn.text}`);
  const consent = await agent.get(signedIn.headers.location);
  if (!/Connect .* to your account/.test(consent.text)) throw new Error(`consent page: ${consent.status} ${consent.text}`);
  const decided = await agent.post('/oauth/authorize/decision').type('form').send({ csrf: hiddenField(consent.text, 'csrf'), request: hiddenField(consent.text, 'request'), decision });
  if (decided.status !== 302) throw new Error(`decision: ${decided.status} ${decided.text}`);
  return new URL(decided.headers.location);
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
