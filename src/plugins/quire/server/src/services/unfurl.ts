import type { Core } from '@strapi/strapi';
import { quireConfig } from '../config';
import { ApiError, invalidArgument, notFound } from '#kernel/errors';
import { decodeHtml } from '../domain/html-text';
import { extractLinkPreview, type LinkPreview } from '../domain/link-preview';
import {
  BlockedUrlError,
  DEFAULT_MAX_BYTES,
  FetchFailedError,
  safeFetch,
  type FetchFailureReason,
} from '#kernel/safe-fetch';
import { getService } from './get-service';

const FETCH_NEXT = 'Check that the link opens in a browser, then retry later.';
const UNREACHABLE_NEXT = "Check the URL (host name and port); if it is right, check the server's outbound network (DNS, firewall, proxy), then retry.";

/** Why a connection failed, in words, from the system error codes in an error's cause chain. */
const CONNECT_FAILURES: Array<[RegExp, string]> = [
  [/^(ENOTFOUND|ENODATA|EAI_NONAME|EAI_NODATA)$/, 'no DNS answer'],
  [/^EAI_AGAIN$/, 'the DNS lookup failed (temporary failure)'],
  [/^ECONNREFUSED$/, 'the connection was refused'],
  [/^EHOSTUNREACH$/, 'no route to the host'],
  [/^ENETUNREACH$/, 'the network is unreachable'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/, 'the connection was closed before an answer'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/, 'the connection timed out'],
  [/^(CERT_|ERR_TLS_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_SSL_)/, 'its TLS certificate was not accepted'],
];

/** The host (and port, when not the default) that could not be reached, and why. */
function unreachable(error: FetchFailedError, rawUrl: string): { host: string; why: string } {
  let host = '';
  try {
    host = new URL(rawUrl).host;
  } catch {
    // the URL was checked before fetching; keep the fallback below
  }
  let why = 'the connection failed';
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const { code, hostname } = cause as { code?: unknown; hostname?: unknown };
    if (typeof hostname === 'string' && hostname) host = hostname;
    const found = typeof code === 'string' && CONNECT_FAILURES.find(([pattern]) => pattern.test(code));
    if (found) {
      why = found[1];
      break;
    }
    if (/did not resolve to any address/.test((cause as Error).message ?? '')) {
      why = 'no DNS answer';
      break;
    }
  }
  return { host: host || 'the host', why };
}

/**
 * Link previews: fetch the page through the guarded fetcher, parse its metadata. Read-only,
 * rate limited per user (UNFURL_RATE_LIMIT per minute, shared through Redis when set).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const { allowedPrivateHosts, unfurlRateLimit: perMinute, unfurlTimeoutMs: timeoutMs } = quireConfig(strapi);
  const seconds = Math.round(timeoutMs / 100) / 10;

  const failures: Record<FetchFailureReason, string> = {
    timeout: `it did not answer within ${seconds} second${seconds === 1 ? '' : 's'}`,
    'too-large': `the page is larger than ${DEFAULT_MAX_BYTES / 1024 / 1024} MiB`,
    'not-html': 'it is not an HTML page',
    network: 'the connection failed', // (described in detail by unreachable())
    'too-many-redirects': 'it redirects too many times',
  };

  /**
   * Fetches a user-given page through the guarded fetcher and decodes it: the one place that
   * turns fetch failures into API errors, for previews and for imports from a URL.
   * A blocked URL is 400 (naming `field`), a non-OK answer 404, a failed fetch 500 (the status
   * the spec gives), whose message says what failed: the site, the network, or the page.
   */
  async function fetchPage(rawUrl: string, field = 'url'): Promise<{ url: string; html: string }> {
    let page;
    try {
      page = await safeFetch(rawUrl, { allowedPrivateHosts, timeoutMs });
    } catch (error) {
      if (error instanceof BlockedUrlError) {
        throw invalidArgument(`${field}: ${error.message}`, 'Pass a public http or https link.');
      }
      if (error instanceof FetchFailedError && error.reason === 'network') {
        const { host, why } = unreachable(error, rawUrl);
        throw new ApiError('internal', `The server could not reach ${host}: ${why}.`, UNREACHABLE_NEXT, { status: 500 });
      }
      if (error instanceof FetchFailedError) {
        throw new ApiError('internal', `The link could not be fetched: ${failures[error.reason]}.`, FETCH_NEXT, { status: 500 });
      }
      throw error;
    }
    if (page.status < 200 || page.status > 299) {
      throw notFound(`The link answered HTTP ${page.status}.`, FETCH_NEXT);
    }
    return { url: page.url, html: decodeHtml(page.body, page.headers['content-type']) };
  }

  return {
    fetchPage,

    async preview(userId: number | string, rawUrl: string): Promise<LinkPreview> {
      await getService(strapi, 'rateLimit')
        .consume('unfurl', String(userId), { points: perMinute, durationSec: 60 }, 1, `Too many link previews (at most ${perMinute} a minute).`);
      const page = await fetchPage(rawUrl);
      return extractLinkPreview(page.url, page.html);
    },
  };
};
