import type { Core } from '@strapi/strapi';
import { positiveIntEnv } from '../domain/env';
import { ApiError, invalidArgument, notFound } from '../domain/errors';
import { decodeHtml } from '../domain/html-text';
import { extractLinkPreview, type LinkPreview } from '../domain/link-preview';
import {
  allowedPrivateHostsFromEnv,
  BlockedUrlError,
  DEFAULT_MAX_BYTES,
  FetchFailedError,
  safeFetch,
  type FetchFailureReason,
} from '../domain/safe-fetch';

const FETCH_NEXT = 'Check that the link opens in a browser, then retry later.';

/**
 * Link previews: fetch the page through the guarded fetcher, parse its metadata. Read-only,
 * rate limited per user (UNFURL_RATE_LIMIT per minute, shared through Redis when set).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  // Read once at boot: a malformed value stops the server instead of being ignored.
  const allowedPrivateHosts = allowedPrivateHostsFromEnv();
  const perMinute = positiveIntEnv('UNFURL_RATE_LIMIT', 30);
  const timeoutMs = positiveIntEnv('UNFURL_TIMEOUT_MS', 8000);
  const seconds = Math.round(timeoutMs / 100) / 10;

  const failures: Record<FetchFailureReason, string> = {
    timeout: `it did not answer within ${seconds} second${seconds === 1 ? '' : 's'}`,
    'too-large': `the page is larger than ${DEFAULT_MAX_BYTES / 1024 / 1024} MiB`,
    'not-html': 'it is not an HTML page',
    network: 'the connection failed',
    'too-many-redirects': 'it redirects too many times',
  };

  /**
   * Fetches a user-given page through the guarded fetcher and decodes it: the one place that
   * turns fetch failures into API errors, for previews and for imports from a URL.
   * A blocked URL is 400 (naming `field`), a non-OK answer 404, a failed fetch 500.
   */
  async function fetchPage(rawUrl: string, field = 'url'): Promise<{ url: string; html: string }> {
    let page;
    try {
      page = await safeFetch(rawUrl, { allowedPrivateHosts, timeoutMs });
    } catch (error) {
      if (error instanceof BlockedUrlError) {
        throw invalidArgument(`${field}: ${error.message}`, 'Pass a public http or https link.');
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

    async preview(userId: number, rawUrl: string): Promise<LinkPreview> {
      await strapi
        .plugin('quire')
        .service('rateLimit')
        .consume('unfurl', String(userId), { points: perMinute, durationSec: 60 }, 1, `Too many link previews (at most ${perMinute} a minute).`);
      const page = await fetchPage(rawUrl);
      return extractLinkPreview(page.url, page.html);
    },
  };
};
