import type { Core } from '@strapi/strapi';
import { BlockedUrlError, FetchFailedError, safeFetch } from '#kernel/safe-fetch';
import { callbackDelayMs } from '../domain/backoff';
import { decodeSigningSecret, sign } from '../domain/signature';
import { triggersConfig } from '../config';
import { executionsRepository } from '../repositories/executions';
import { getService } from './get-service';

/**
 * Completion callbacks: when an execution of a workflow with a callbackUrl finishes, Quire POSTs
 * `{type: "execution.finished", data: <status record>}` there, signed with Standard Webhooks
 * headers (webhook-id = the execution id, the same on every attempt, so receivers can dedupe).
 *
 * The delivery state lives on the execution row (`callback_status`, `callback_attempts`,
 * `callback_last_error`, `callback_next_at`, `callback_lease_until`). An attempt starts with a
 * conditional claim (one process at a time, as for runs); a process that dies mid-attempt
 * leaves a lease that runs out, and the sweep hands the callback to another. So a callback is
 * delivered at least once, and recorded `delivered` once.
 */

const EARLY_CLAIM_MS = 2_000;
/** Answers are not read beyond this (a receiver's answer is not kept). */
const READ_LIMIT_BYTES = 64 * 1024;

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'skipped';

export interface DeliveryResult {
  outcome: DeliveryOutcome;
  /** When the next attempt is due (outcome `retry`). */
  retryInMs?: number;
  attempts?: number;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repo = executionsRepository(strapi);
  const setting = triggersConfig;

  /** Takes the callback of a finished execution for one attempt, or null (not due, taken, or none). */
  async function claim(executionId: string) {
    const now = new Date();
    const { callbackTimeoutMs } = setting(strapi);
    // The lease runs past the request's own deadline, so a live attempt is never taken over.
    return repo.claimCallback(executionId, now, new Date(now.getTime() + EARLY_CLAIM_MS), new Date(now.getTime() + callbackTimeoutMs + 10_000));
  }

  /** Records the attempt's outcome, only if this attempt still holds the callback. */
  const settle = (id: number, attempt: number, data: Record<string, unknown>) => repo.settleCallback(id, attempt, data);

  /** One POST to the receiver: null when it took it (2xx), else why not. */
  async function post(url: string, secret: string, executionId: string, body: string): Promise<string | null> {
    const key = decodeSigningSecret(secret);
    if (!key) return 'The callback secret is not usable.';
    const timestamp = Math.floor(Date.now() / 1000);
    const config = setting(strapi);
    try {
      const answer = await safeFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': executionId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign(key, executionId, timestamp, body),
        },
        body,
        htmlOnly: false,
        // A redirect is a failure (Standard Webhooks: 3xx is not delivery).
        maxRedirects: 0,
        maxBytes: READ_LIMIT_BYTES,
        timeoutMs: config.callbackTimeoutMs,
        allowedPrivateHosts: config.allowedPrivateHosts,
      });
      if (answer.status >= 200 && answer.status < 300) return null;
      return `The receiver answered HTTP ${answer.status}.`;
    } catch (error) {
      if (error instanceof BlockedUrlError) return `Not fetched: ${error.message}`;
      if (error instanceof FetchFailedError) {
        if (error.reason === 'too-many-redirects') return 'The receiver answered with a redirect.';
        if (error.reason === 'too-large') return null; // it answered 2xx; its body does not matter
        return error.reason === 'timeout' ? 'The receiver did not answer in time.' : 'The receiver could not be reached.';
      }
      throw error;
    }
  }

  return {
    /** One attempt at delivering an execution's callback, if it is due and no one else has it. */
    async deliver(executionId: string): Promise<DeliveryResult> {
      const claimed = await claim(executionId);
      if (!claimed) return { outcome: 'skipped' };
      const attempt = claimed.callback_attempts;
      const config = setting(strapi);
      const target = await getService(strapi, 'workflows').callbackTarget(claimed.workflow_id);
      let problem: string | null;
      if (!target) problem = 'The workflow no longer has a callback URL.';
      else {
        const record = await getService(strapi, 'executions').get(claimed.instance_id, executionId);
        problem = await post(target.url, target.secret, executionId, JSON.stringify({ type: 'execution.finished', data: record }));
      }
      if (problem === null) {
        await settle(claimed.id, attempt, { callback_status: 'delivered', callback_last_error: null, callback_next_at: null });
        return { outcome: 'delivered', attempts: attempt };
      }
      if (!target || attempt >= config.callbackMaxAttempts) {
        await settle(claimed.id, attempt, { callback_status: 'failed', callback_last_error: problem, callback_next_at: null });
        return { outcome: 'failed', attempts: attempt };
      }
      const retryInMs = callbackDelayMs(config.callbackRetryBaseMs, attempt);
      await settle(claimed.id, attempt, { callback_last_error: problem, callback_next_at: new Date(Date.now() + retryInMs) });
      return { outcome: 'retry', retryInMs, attempts: attempt };
    },

    /**
     * Callbacks no one is working on: of finished executions, due (or past due by `graceMs` when
     * `graceMs` > 0), not held by a live attempt.
     */
    async due(graceMs: number, limit = 500): Promise<Array<{ id: string; attempts: number }>> {
      const now = new Date();
      return repo.callbacksDue(now, new Date(now.getTime() - graceMs), limit);
    },
  };
};
