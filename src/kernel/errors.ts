/**
 * The one error type of the API. Thrown anywhere, it becomes the failure envelope
 * `{success:false,error:{code,message,nextAction?}}` in the envelope middleware.
 */
export const STATUS_BY_CODE: Record<string, number> = {
  'invalid-argument': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  conflict: 409,
  'precondition-failed': 412,
  'payload-too-large': 413,
  unprocessable: 422,
  'rate-limited': 429,
  internal: 500,
};

export interface ApiErrorOptions {
  status?: number;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: string;
  readonly nextAction?: string;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: string, message: string, nextAction?: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.nextAction = nextAction;
    this.status = options.status ?? STATUS_BY_CODE[code] ?? 400;
    this.headers = options.headers ?? {};
  }
}

export const invalidArgument = (message: string, nextAction?: string) =>
  new ApiError('invalid-argument', message, nextAction);

export const notFound = (message: string, nextAction?: string) => new ApiError('not-found', message, nextAction);

export const unauthenticated = (message: string, nextAction?: string) =>
  new ApiError('unauthenticated', message, nextAction);

/** The credential is valid, but its role or scope does not allow this (CONTRACT part two). */
export const permissionDenied = (message: string, nextAction?: string) => new ApiError('permission-denied', message, nextAction);

export const rateLimited = (retryAfterSeconds: number, message = 'Too many requests.') =>
  new ApiError('rate-limited', message, `Retry after ${retryAfterSeconds} seconds.`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

export interface Failure {
  status: number;
  headers: Record<string, string>;
  body: { success: false; error: { code: string; message: string; nextAction?: string } };
}

const INTERNAL_MESSAGE = 'Something went wrong on our side.';
const INTERNAL_NEXT = 'Retry with backoff; if it keeps failing, report it.';

/** Status of an HTTP error thrown by Koa's body parser or http-errors, if it is a client error. */
function clientHttpStatus(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown; expose?: unknown };
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  return status !== undefined && status >= 400 && status < 500 ? status : undefined;
}

/** Turns anything thrown into the failure envelope; never exposes internals of unknown errors. */
export function toFailure(error: unknown): Failure {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      headers: error.headers,
      body: envelopeError(error.code, error.message, error.nextAction),
    };
  }
  const status = clientHttpStatus(error);
  if (status !== undefined) {
    const type = (error as { type?: string }).type;
    if (status === 413) {
      return {
        status: 413,
        headers: {},
        body: envelopeError('payload-too-large', 'The request body is too large.', 'Send a smaller body.'),
      };
    }
    if (error instanceof SyntaxError || type === 'entity.parse.failed') {
      return {
        status: 400,
        headers: {},
        body: envelopeError('invalid-argument', 'The request body is not valid JSON.', 'Send a JSON object with Content-Type: application/json.'),
      };
    }
    const code = status === 401 ? 'unauthenticated' : status === 404 ? 'not-found' : status === 429 ? 'rate-limited' : 'invalid-argument';
    return { status: code === 'invalid-argument' ? 400 : status, headers: {}, body: envelopeError(code, 'The request could not be read.') };
  }
  return { status: 500, headers: {}, body: envelopeError('internal', INTERNAL_MESSAGE, INTERNAL_NEXT) };
}

/** Translates Strapi's own error body `{data:null,error:{status,name,message}}` into ours. */
export function fromStrapiErrorBody(status: number, body: unknown): Failure | undefined {
  const b = body as { data?: unknown; error?: { status?: unknown; name?: unknown } } | undefined;
  if (!b || typeof b !== 'object' || b.data !== null || !b.error || typeof b.error.status !== 'number') return undefined;
  if (status === 401 || status === 403) {
    return { status: 401, headers: {}, body: envelopeError('unauthenticated', 'Missing or invalid credential.') };
  }
  if (status === 404) return { status: 404, headers: {}, body: envelopeError('not-found', 'Not found.') };
  if (status === 413) return toFailure({ status: 413 });
  if (status === 429) return { status: 429, headers: {}, body: envelopeError('rate-limited', 'Too many requests.') };
  if (status >= 400 && status < 500) {
    return { status: 400, headers: {}, body: envelopeError('invalid-argument', 'The request could not be processed.') };
  }
  return toFailure(new Error('strapi error body'));
}

function envelopeError(code: string, message: string, nextAction?: string): Failure['body'] {
  return { success: false, error: nextAction ? { code, message, nextAction } : { code, message } };
}
