/**
 * `plugin::quire.oauthErrors` (config/middlewares.ts, before the body parser): the OAuth
 * endpoints answer in their RFCs' error format (CONTRACT 16), also when the body never reaches
 * them. A body the parser refuses (malformed JSON, too large, a bad charset) or that nests too
 * deep (global::json-depth) becomes `{error, error_description}` with `Cache-Control: no-store`:
 * `invalid_client_metadata` at /oauth/register (RFC 7591 3.2.2), `invalid_request` elsewhere
 * under /oauth (RFC 6749 5.2, RFC 7009 2.2.1). The envelope does the same for our /api prefixes
 * (kernel/envelope.ts); /oauth is not one of them, so without this Strapi's own shape answered.
 */
import { tooDeep } from '#kernel/json-depth';
import { OAuthError, PATHS } from '../domain/oauth';

const OAUTH_PREFIX = '/oauth/';

/** A client error raised by Koa's body parser or `ctx.throw` (http-errors): its status, else undefined. */
function clientErrorStatus(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown };
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  return status !== undefined && status >= 400 && status < 500 ? status : undefined;
}

/** What to tell the client, by the kind of refusal (the parser's own messages are not written for clients). */
function describe(error: { type?: string; message?: string }, status: number): string {
  if (status === 413) return 'The request body is too large: send a smaller one.';
  if (error instanceof SyntaxError || error.type === 'entity.parse.failed') return 'The request body is not valid JSON.';
  if (error.message === tooDeep().message) return `${tooDeep().message} ${tooDeep().nextAction}`;
  return 'The request body could not be read (send UTF-8 JSON, or a form for /oauth/token and /oauth/revoke).';
}

/** The OAuth error a failure to read the body of a request to `path` becomes; undefined for anything else. */
export function oauthErrorOf(path: string, error: unknown): OAuthError | undefined {
  const status = clientErrorStatus(error);
  if (status === undefined || error instanceof OAuthError) return undefined;
  const code = path === PATHS.register ? 'invalid_client_metadata' : 'invalid_request';
  return new OAuthError(code, describe(error as { type?: string; message?: string }, status), status === 413 ? 413 : 400);
}

export default () => {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(OAUTH_PREFIX)) return next();
    try {
      await next();
    } catch (error) {
      const oauthError = oauthErrorOf(ctx.path, error);
      if (!oauthError) throw error;
      ctx.status = oauthError.status;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = oauthError.body;
    }
  };
};
