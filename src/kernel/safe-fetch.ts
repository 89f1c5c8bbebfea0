import dns from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector, fetch } from 'undici';
import { isExempt, isLocalName, isPublicAddress, parseHostExemptions, stripBrackets, type HostExemption } from './address-policy';

/**
 * The one outbound fetcher for URLs that users give us (link previews, the workflow `http`
 * action, import from a URL). It guards against server-side request forgery:
 *
 * - only http and https, no user name or password in the URL;
 * - the host, and every address a name resolves to, must be public (address-policy.ts);
 * - the check happens inside the connection: the name is resolved once, all answers are
 *   checked, and the socket goes to the checked address (no second DNS answer in between).
 *   IP-literal hosts go through the same check (a DNS `lookup` hook alone never sees them);
 * - redirects are followed by hand, and each hop is checked again (at most `maxRedirects`);
 *   the caller's headers and body never go to another origin than the one it named (a 307 or
 *   308 there is not followed; other redirects there go on as a bare GET);
 * - one deadline for everything (DNS, connect, headers, body);
 * - the body is counted after decompression, so a gzip bomb stops at `maxBytes`;
 * - HTML only by default.
 *
 * It uses undici's own `fetch` with a dispatcher: Node's global fetch ignores an `agent`.
 */

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 8000;
export const DEFAULT_MAX_REDIRECTS = 5;
export const MAX_URL_LENGTH = 2048;

const USER_AGENT = 'QuireBot/1.0';
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Messages of BlockedUrlError. The private-address message is the same for every range. */
export const BLOCKED_MESSAGES = {
  invalid: 'The URL is not a valid absolute http(s) URL.',
  scheme: 'Only http and https URLs can be fetched.',
  credentials: 'The URL must not contain a user name or password.',
  private: 'The URL points to a local or private-network address, which cannot be fetched.',
} as const;

/** A URL we refuse to fetch (bad syntax, scheme, credentials, or a non-public address). Callers answer 400. */
export class BlockedUrlError extends Error {
  constructor(message: string = BLOCKED_MESSAGES.private) {
    super(message);
    this.name = 'BlockedUrlError';
  }
}

export type FetchFailureReason = 'timeout' | 'too-large' | 'not-html' | 'network' | 'too-many-redirects';

/** The URL was acceptable but could not be fetched. */
export class FetchFailedError extends Error {
  readonly reason: FetchFailureReason;
  constructor(reason: FetchFailureReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FetchFailedError';
    this.reason = reason;
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Most bytes of decoded body read (default 2 MiB); more is a `too-large` failure. */
  maxBytes?: number;
  /** Deadline for the whole fetch, redirects and body included (default 8000). */
  timeoutMs?: number;
  /** Redirects followed (default 5); one more is a `too-many-redirects` failure. */
  maxRedirects?: number;
  /** Refuse a 2xx answer that is not text/html or application/xhtml+xml (default true). */
  htmlOnly?: boolean;
  /** `host` or `host:port` entries that may be private (intranets, tests). */
  allowedPrivateHosts?: string[];
  /** DNS resolution (default: the system resolver, all addresses). For tests and custom resolvers. */
  resolve?: Resolver;
}

export interface SafeFetchResult {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** The media type of the answer, lower-case and without parameters ("text/html"); "" when absent. */
  contentType: string;
  body: Buffer;
}

const systemResolver: Resolver = async (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * Parses and checks a URL before any connection: syntax, scheme, credentials, local names and
 * IP-literal hosts. Names are checked again, with their addresses, when connecting.
 */
export function checkUrl(raw: string | URL, exemptions: HostExemption[] = []): URL {
  let url: URL;
  try {
    const text = String(raw);
    if (text.length > MAX_URL_LENGTH) throw new Error('too long');
    url = new URL(text);
  } catch {
    throw new BlockedUrlError(BLOCKED_MESSAGES.invalid);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrlError(BLOCKED_MESSAGES.scheme);
  if (url.username || url.password) throw new BlockedUrlError(BLOCKED_MESSAGES.credentials);
  if (!url.hostname) throw new BlockedUrlError(BLOCKED_MESSAGES.invalid);
  if (isExempt(url, exemptions)) return url;
  if (isLocalName(url.hostname)) throw new BlockedUrlError();
  const host = stripBrackets(url.hostname);
  if (net.isIP(host) && !isPublicAddress(host)) throw new BlockedUrlError();
  return url;
}

interface ConnectOptions {
  hostname: string;
  host?: string;
  protocol: string;
  port: string | number;
  servername?: string | null;
  localAddress?: string | null;
  httpSocket?: unknown;
}

/**
 * undici connector that resolves the host, refuses it unless every address is public (or the
 * host is exempt), and connects to the address it checked. It sees IP-literal hosts too.
 */
function guardedConnector(exemptions: HostExemption[], resolve: Resolver, timeoutMs: number) {
  const connect = buildConnector({ timeout: timeoutMs });
  return (options: ConnectOptions, callback: (error: Error | null, socket: any) => void) => {
    const hostname = stripBrackets(options.hostname);
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const origin = new URL(`${options.protocol}//${net.isIPv6(hostname) ? `[${hostname}]` : hostname}:${port}`);
    const exempt = isExempt(origin, exemptions);

    const addresses: Promise<ResolvedAddress[]> = net.isIP(hostname)
      ? Promise.resolve([{ address: hostname, family: net.isIP(hostname) }])
      : isLocalName(hostname) && !exempt
        ? Promise.reject(new BlockedUrlError())
        : resolve(hostname);

    addresses
      .then((list) => {
        if (!list.length) throw new FetchFailedError('network', `${hostname} did not resolve to any address.`);
        if (!exempt && list.some((a) => !isPublicAddress(a.address))) throw new BlockedUrlError();
        const target = list[0].address;
        // `host` (name:port) stays as it was: TLS takes the server name from it.
        connect({ ...options, hostname: target, port } as any, callback);
      })
      .catch((error) => callback(error, null));
  };
}

/**
 * An undici dispatcher whose every connection goes through the address check. safeFetch makes
 * one per call (no connection is shared between calls); exported so the guard can be tested on
 * its own, without the URL pre-check in front of it.
 */
export function guardedAgent(options: { allowedPrivateHosts?: string[]; resolve?: Resolver; timeoutMs?: number } = {}): Agent {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Agent({
    connect: guardedConnector(parseHostExemptions(options.allowedPrivateHosts ?? []), options.resolve ?? systemResolver, timeoutMs) as any,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connections: 1,
  });
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current && chain.length < 8) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function headersObject(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  return result;
}

export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Fetches a user-given URL under the guard above. Non-OK statuses are returned, not thrown.
 * Throws BlockedUrlError for a URL that may not be fetched, FetchFailedError for the rest.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const htmlOnly = options.htmlOnly ?? true;
  const exemptions = parseHostExemptions(options.allowedPrivateHosts ?? []);
  let current = checkUrl(rawUrl, exemptions);

  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new FetchFailedError('timeout', `No complete answer within ${timeoutMs} ms.`)),
    timeoutMs,
  );
  const agent = guardedAgent({ allowedPrivateHosts: options.allowedPrivateHosts, resolve: options.resolve, timeoutMs });

  let method: 'GET' | 'POST' = options.method ?? 'GET';
  let body: string | Buffer | undefined = options.body;
  const ownHeaders: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: htmlOnly ? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' : '*/*',
  };
  let headers: Record<string, string> = { ...ownHeaders, ...lowerCaseKeys(options.headers ?? {}) };

  try {
    for (let hop = 0; ; hop += 1) {
      const response = await fetch(current, {
        method,
        headers,
        body: method === 'POST' ? body : undefined,
        redirect: 'manual',
        dispatcher: agent,
        signal: controller.signal,
      });

      const location = response.headers.get('location');
      const target = REDIRECTS.has(response.status) && location ? redirectTarget(location, current) : null;
      const keepsBody = method === 'POST' && (response.status === 307 || response.status === 308);
      // The caller's headers (tokens, API keys, Proxy-Authorization) and body are meant for the
      // origin it named: a redirect elsewhere gets neither. A 307/308 would re-send the body, so
      // it is not followed and is itself the answer; other redirects go on with a bare GET.
      const crossOrigin = target !== null && target.origin !== current.origin;
      if (target && !(crossOrigin && keepsBody)) {
        await response.body?.cancel().catch(() => undefined);
        if (hop >= maxRedirects) {
          throw new FetchFailedError('too-many-redirects', `More than ${maxRedirects} redirects.`);
        }
        const next = checkUrl(target.toString(), exemptions);
        if (!keepsBody) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        if (crossOrigin) headers = { ...ownHeaders };
        current = next;
        continue;
      }

      const contentType = mediaType(response.headers.get('content-type'));
      const ok = response.status >= 200 && response.status < 300;
      if (htmlOnly && ok && !HTML_TYPES.has(contentType)) {
        await response.body?.cancel().catch(() => undefined);
        throw new FetchFailedError('not-html', `The answer is ${contentType || 'untyped'}, not HTML.`);
      }
      return {
        url: current.toString(),
        status: response.status,
        headers: headersObject(response.headers),
        contentType,
        body: await readCapped(response, maxBytes, controller),
      };
    }
  } catch (error) {
    throw classify(error, controller.signal);
  } finally {
    clearTimeout(timer);
    agent.destroy().catch(() => undefined);
  }
}

/** Reads the decoded body, stopping as soon as it passes `maxBytes`. */
async function readCapped(response: Awaited<ReturnType<typeof fetch>>, maxBytes: number, controller: AbortController) {
  const declared = Number(response.headers.get('content-length'));
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      controller.abort(tooLarge(maxBytes));
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(chunks, total);
}

const tooLarge = (maxBytes: number) => new FetchFailedError('too-large', `The answer is larger than ${maxBytes} bytes.`);

function classify(error: unknown, signal: AbortSignal): Error {
  const chain = causeChain(error);
  const known = chain.find((e) => e instanceof BlockedUrlError || e instanceof FetchFailedError);
  if (known) return known as Error;
  if (signal.aborted) {
    const reason = signal.reason;
    if (reason instanceof FetchFailedError) return reason;
    return new FetchFailedError('timeout', 'The fetch was aborted.');
  }
  const timedOut = chain.some((e) => /Timeout/i.test(String((e as { code?: string; name?: string })?.code ?? (e as Error)?.name ?? '')));
  if (timedOut) return new FetchFailedError('timeout', 'The server did not answer in time.', { cause: error });
  return new FetchFailedError('network', 'The URL could not be fetched.', { cause: error });
}

/** The URL a Location header points at, or null when it is not a URL (then the answer is final). */
function redirectTarget(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  return result;
}
