import { z } from 'zod';
import { invalidArgument } from '#kernel/errors';
import { parseHostExemptions } from '#kernel/address-policy';
import {
  BlockedUrlError,
  checkUrl,
  FetchFailedError,
  safeFetch,
} from '#kernel/safe-fetch';
import { triggersConfig } from '../config';
import { ActionError } from '../domain/action-error';
import type { ActionDefinition } from './types';
import { parseAt } from './schema';

/**
 * `http`: POSTs the input as JSON to `config.url` through the guarded fetcher of unfurl (only
 * public addresses, every redirect checked, one deadline). 2xx succeeds with
 * `{status, body}` (body as text, cut at 64 KiB); network errors, timeouts, 429 and 5xx are
 * retried with backoff up to `config.maxAttempts`; any other answer fails at once.
 */

export const OUTPUT_BODY_BYTES = 64 * 1024;
/** Answers larger than this are not read at all (the execution fails with `response-too-large`). */
const READ_LIMIT_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'content-type', 'expect', 'upgrade']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const configSchema = z.strictObject({
  url: z.string().min(1, 'is required').max(2048, 'must be at most 2048 characters'),
  maxAttempts: z.number().int('must be an integer').min(1, 'must be at least 1').max(10, 'must be at most 10').optional(),
  timeoutMs: z.number().int('must be an integer').min(100, 'must be at least 100').max(30_000, 'must be at most 30000').optional(),
  headers: z
    .record(
      z.string().regex(TOKEN, 'must be a valid header name').refine((name) => !FORBIDDEN_HEADERS.has(name.toLowerCase()), 'cannot set this header'),
      z.string().max(4096, 'must be at most 4096 characters').refine((value) => !/[\r\n]/.test(value), 'must be on one line'),
    )
    .refine((headers) => Object.keys(headers).length <= 20, 'must hold at most 20 headers')
    .optional(),
});

type HttpConfig = z.infer<typeof configSchema>;

/** The first `limit` bytes of a UTF-8 body, never splitting a character. */
export function cutUtf8(body: Buffer, limit: number): string {
  if (body.length <= limit) return body.toString('utf8');
  let end = limit;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (body[end] & 0xc0) === 0x80) end -= 1;
  return body.subarray(0, end).toString('utf8');
}

const http: ActionDefinition = {
  description: 'POSTs the input as JSON to config.url (a public http(s) URL), with optional headers, timeoutMs and maxAttempts (retries on 5xx and network errors).',
  configExample: { url: 'https://example.com/hook', maxAttempts: 3, timeoutMs: 10000, headers: { 'X-Source': 'quire' } },
  inputExample: { hello: 'world' },
  parseConfig(config, { strapi }) {
    const parsed = parseAt('config', configSchema, config ?? {}, 'Pass {"url": "https://..."} and optionally maxAttempts, timeoutMs, headers.');
    try {
      // Early refusal of what can be told without DNS (scheme, credentials, private IP literals).
      checkUrl(parsed.url, parseHostExemptions(triggersConfig(strapi).allowedPrivateHosts));
    } catch (error) {
      if (error instanceof BlockedUrlError) throw invalidArgument(`config.url: ${error.message}`, 'Use a public http(s) URL.');
      throw error;
    }
    return parsed;
  },

  maxAttempts: (config) => (config as HttpConfig).maxAttempts ?? 3,

  async run(input, { config, strapi }) {
    const { url, headers, timeoutMs } = config as HttpConfig;
    let answer;
    try {
      answer = await safeFetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(input ?? null),
        htmlOnly: false,
        maxBytes: READ_LIMIT_BYTES,
        timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
        allowedPrivateHosts: triggersConfig(strapi).allowedPrivateHosts,
      });
    } catch (error) {
      if (error instanceof BlockedUrlError) throw new ActionError('blocked-url', error.message);
      if (error instanceof FetchFailedError) {
        if (error.reason === 'too-large') throw new ActionError('response-too-large', `The answer is larger than ${READ_LIMIT_BYTES} bytes.`);
        const retryable = error.reason === 'network' || error.reason === 'timeout';
        throw new ActionError(error.reason === 'timeout' ? 'timeout' : 'fetch-failed', error.message, { retryable });
      }
      throw error;
    }
    const { status } = answer;
    if (status >= 200 && status < 300) return { status, body: cutUtf8(answer.body, OUTPUT_BODY_BYTES) };
    throw new ActionError('http-status', `The endpoint answered ${status}.`, { retryable: status >= 500 || status === 429 });
  },
};

export default http;
