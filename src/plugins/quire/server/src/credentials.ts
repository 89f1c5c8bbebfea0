/**
 * How the API description (OpenAPI) presents the user's credentials this plugin registers with
 * the kernel's authenticator (services/auth.ts registerUserCredentials): one security scheme per
 * kind. scripts/openapi.js reads them too, to write docs/openapi.json without booting.
 */
import type { SecurityScheme } from '#kernel/auth';
import { API_KEY_PREFIX } from './services/keys';
import { SESSION_COOKIE } from './services/web-sessions';
import { PATHS } from './domain/oauth';

export const USER_CREDENTIAL_SCHEMES = {
  'api-key': {
    name: 'apiKey',
    scheme: { type: 'http', scheme: 'bearer', description: `An API key: \`Authorization: Bearer ${API_KEY_PREFIX}...\` (POST /api/keys, or \`quire login\`).` },
  },
  jwt: {
    name: 'jwt',
    scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A users-permissions JWT: `Authorization: Bearer <jwt>` (POST /api/auth/local).' },
  },
  session: {
    name: 'sessionCookie',
    scheme: {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description: 'The browser session set by the CLI login page (httpOnly, a random session id). It counts only when the request has no Authorization header, and on /api only for same-origin requests.',
    },
  },
  oauth: {
    name: 'oauth',
    scheme: {
      type: 'oauth2',
      description: 'OAuth 2.1 access tokens (authorization code with PKCE S256), for agents a person connects to their account.',
      flows: {
        authorizationCode: {
          authorizationUrl: PATHS.authorize,
          tokenUrl: '/oauth/token',
          refreshUrl: '/oauth/token',
          scopes: { write: 'Read and change articles.', suggest: 'Read, and suggest section edits.', read: 'Read only.' },
        },
      },
    },
  },
} as const satisfies Record<'api-key' | 'jwt' | 'session' | 'oauth', SecurityScheme>;
