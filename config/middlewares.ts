import { z } from 'zod';
import { list, readSettings, type EnvSource } from '../src/kernel/config';
import { uploadSettings } from './plugins';
import { settings as serverSettings } from './server';

export const corsSettings = {
  // Origins whose pages may call the API with credentials; unset: PUBLIC_URL's origin alone.
  corsOrigins: list('CORS_ORIGINS', {
    optional: true,
    expected: 'a comma-separated list of origins (scheme://host[:port])',
    item: z.string().refine((value) => {
      try {
        return new URL(value).origin === value;
      } catch {
        return false;
      }
    }),
  }),
};

/** The origins CORS allows: CORS_ORIGINS, else the origin of PUBLIC_URL (or of HOST:PORT). */
export function corsOrigins(env: EnvSource): string[] {
  const configured = readSettings(corsSettings, env).corsOrigins;
  if (configured?.length) return configured;
  const server = readSettings(serverSettings, env);
  return [new URL(server.publicUrl ?? `http://${server.host}:${server.port}`).origin];
}

/** Where S3 uploads are served from, so the admin panel may show them (its CSP is 'self' otherwise). */
function uploadOrigins(env: EnvSource): string[] {
  const s3 = readSettings(uploadSettings, env);
  if (s3.provider !== 'aws-s3') return [];
  const explicit = [s3.baseUrl, s3.endpoint].filter((u): u is string => Boolean(u)).map((u) => new URL(u).origin);
  return [...explicit, `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`, `https://${s3.bucket}.s3.amazonaws.com`];
}

export default ({ env }: { env: EnvSource }) => {
  const origins = uploadOrigins(env);
  return [
    // Before the logger, which logs ctx.url: takes ?api_key= (a trigger credential) out of the URL.
    'plugin::triggers.redactQuery',
    'strapi::logger',
    'strapi::errors',
    origins.length
      ? {
          name: 'strapi::security',
          config: {
            contentSecurityPolicy: {
              useDefaults: true,
              directives: {
                'img-src': ["'self'", 'data:', 'blob:', 'market-assets.strapi.io', ...origins],
                'media-src': ["'self'", 'data:', 'blob:', 'market-assets.strapi.io', ...origins],
              },
            },
          },
        }
      : 'strapi::security',
    // nosniff and a sandboxing CSP on files served from /uploads.
    'plugin::quire.uploadHeaders',
    // Credentialed CORS for the configured origins only (Strapi's default reflects any Origin).
    { name: 'strapi::cors', config: { origin: corsOrigins(env) } },
    // No 'strapi::poweredBy': X-Powered-By tells an attacker which exploits to try.
    'strapi::query',
    // The kernel's error envelope (src/kernel/envelope.ts), before the body parser, so malformed
    // JSON under the prefixes our plugins declare answers in our envelope.
    'global::envelope',
    // Likewise for the OAuth endpoints, in their RFCs' error format: a body the parser or
    // global::json-depth refuses at /oauth/register, /oauth/token, /oauth/revoke.
    'plugin::quire.oauthErrors',
    // users-permissions' sign-in and account routes, per address, with RateLimit headers (AUTH_RATELIMIT_*).
    'plugin::quire.authRateLimit',
    // Before the body parser: keeps the raw bytes of trigger requests (signatures cover them), 1 MiB cap.
    'plugin::triggers.rawBody',
    // Multipart is parsed by global::multipart alone: on the paths that take it, files removed after.
    { name: 'strapi::body', config: { jsonLimit: '5mb', textLimit: '5mb', formLimit: '1mb', multipart: false } },
    // The admin Media Library's routes are the only ones that take multipart: the legacy dialog's
    // upload (and replace, ?id=), and the Media Library page's upload, replace and edit.
    {
      name: 'global::multipart',
      config: {
        routes: ['POST /upload', 'POST /upload/files', 'POST /upload/files/:id/replace', 'PUT /upload/files/:id'],
        maxFileSize: 200 * 1024 * 1024,
      },
    },
    // A JSON body nested too deep answers 400 here, before anything walks it recursively.
    'global::json-depth',
    'strapi::session',
    'strapi::favicon',
    'strapi::public',
  ];
};
