import { CliError, type Envelope } from './errors';

export const USER_AGENT = `quire-cli (node ${process.version}; ${process.platform})`;
const DEFAULT_TIMEOUT_MS = 60_000;

export interface CallOptions {
  /** A JSON body. */
  body?: unknown;
  /** A raw body (upload): bytes and their headers. */
  raw?: { data: Uint8Array; headers: Record<string, string> };
  query?: Record<string, string | number | undefined>;
  /** Request headers (If-Match). */
  headers?: Record<string, string | undefined>;
  /** false for the two login routes, which take no credential. */
  auth?: boolean;
  timeoutMs?: number;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  /** The response body exactly as the server sent it (printed as is under --json). */
  text: string;
  envelope: Envelope<T> & { data: T };
}

/** One path segment: ids and anchors never change the path's shape. */
export const seg = (value: string) => encodeURIComponent(value);

const NOT_LOGGED_IN_NEXT = 'Run "quire login" (or "quire login --key -"), or set QUIRE_API_KEY.';

/** The HTTP API, spoken the way every client of it does: JSON in, the envelope out. */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly apiKey?: string,
    /** The error for a call that needs a credential when there is none. */
    private readonly notLoggedIn: () => CliError = () => new CliError('unauthenticated', `Not logged in to ${baseUrl}.`, NOT_LOGGED_IN_NEXT),
    /** --reason and --run: sent with every write as Quire-Reason and Quire-Run (CONTRACT 23). */
    private readonly write: { reason?: string; run?: string } = {},
  ) {}

  /** `T`: the route's response data, from the server's schemas (`Data<'articlePage'>`, see render.ts). */
  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const url = new URL(this.baseUrl + '/api' + path);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
    if (options.auth !== false) {
      if (!this.apiKey) throw this.notLoggedIn();
      headers.authorization = `Bearer ${this.apiKey}`;
    }
    if (method !== 'GET' && path.startsWith('/articles/')) {
      // Header values are Latin-1: a reason with other characters is sent percent-encoded (the server decodes it).
      if (this.write.reason !== undefined) headers['quire-reason'] = /^[\x20-\x7e]*$/.test(this.write.reason) ? this.write.reason : encodeURIComponent(this.write.reason);
      if (this.write.run !== undefined) headers['quire-run'] = this.write.run;
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
    let body: Uint8Array | string | undefined;
    if (options.raw) {
      Object.assign(headers, options.raw.headers);
      body = options.raw.data;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let response: Response;
    try {
      response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = (error as Error).name === 'TimeoutError' ? 'no answer in time' : cause?.code ?? cause?.message ?? (error as Error).message;
      throw new CliError('network-error', `Could not reach ${this.baseUrl} (${why}).`, 'Check that the server is running and that --url or QUIRE_URL points at it.');
    }
    const text = await response.text();
    let envelope: Envelope | undefined;
    try {
      const parsed = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && typeof parsed.success === 'boolean') envelope = parsed;
    } catch {
      // not JSON: handled below
    }
    if (!envelope) {
      throw new CliError(
        'bad-response',
        `${this.baseUrl} answered HTTP ${response.status} without a Quire envelope.`,
        'Check that --url or QUIRE_URL points at a Quire server (not a proxy or another site).',
        { status: response.status },
      );
    }
    if (!envelope.success) {
      const error = envelope.error ?? { code: 'internal', message: `HTTP ${response.status}` };
      throw new CliError(error.code, error.message, error.nextAction, { body: text, status: response.status, headers: response.headers });
    }
    return { status: response.status, headers: response.headers, text, envelope: envelope as Envelope<T> & { data: T } };
  }
}
