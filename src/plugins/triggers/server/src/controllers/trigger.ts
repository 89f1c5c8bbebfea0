import type { Core } from '@strapi/strapi';
import { invalidArgument, notFound } from '#kernel/errors';
import { appRateLimits } from '#kernel/rate-limit';
import { jsonTextTooDeep, tooDeep } from '#kernel/json-depth';
import { controller } from '#kernel/routes';
import { triggersConfig } from '../config';
import { triggerRoutes } from '../routes';
import type { StartedWith } from '../schemas/records';
import type { TriggerWorkflow } from '../services/workflows';
import { bodyHash } from '../services/executions';
import { signatureHeadersOf } from '../domain/signature';
import { getService } from '../services/get-service';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Status polls with ?wait= per process instance: 120 a minute (one every half second). */
export const STATUS_WAIT_LIMIT = { points: 120, durationSec: 60 };

function parseBody(raw: Buffer): Record<string, unknown> {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw invalidArgument('The request body is not valid UTF-8.', 'Send a JSON object encoded as UTF-8.');
  }
  // Counted on the bytes, before JSON.parse builds (and something later recurses into) the value.
  if (jsonTextTooDeep(raw)) throw tooDeep();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidArgument('The request body is not valid JSON.', 'Send a JSON object, e.g. {"payload": {...}}.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidArgument('The request body must be a JSON object.', 'Send {"payload": ...}; the payload may be any JSON value.');
  }
  return body as Record<string, unknown>;
}

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const IDEMPOTENCY_NEXT = 'Send a unique value of 1 to 255 visible characters (a UUID, say) in one Idempotency-Key header, or none.';

/** The Idempotency-Key header's value, undefined when absent; an empty, long, repeated or odd one is 400. */
function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw invalidArgument('Idempotency-Key was sent more than once.', IDEMPOTENCY_NEXT);
  if (header.length === 0) throw invalidArgument('Idempotency-Key must not be empty.', IDEMPOTENCY_NEXT);
  if (header.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw invalidArgument(`Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, IDEMPOTENCY_NEXT);
  if (!/^[\x20-\x7e]+$/.test(header)) throw invalidArgument('Idempotency-Key must be visible ASCII characters.', IDEMPOTENCY_NEXT);
  return header;
}

/** POST /webhook/{processInstanceId}/{workflowId} and GET /status/{processInstanceId}/{executionId}. */
export default ({ strapi }: { strapi: Core.Strapi }) => {

  const settings = triggersConfig(strapi);

  return controller(triggerRoutes, {
    /** The route's guard checked the credential against this instance and workflow (credentials.ts), and found the workflow. */
    async trigger({ params, headers, caller }, ctx) {
      const { processInstanceId, workflowId } = params;
      const raw: Buffer = ctx.state.rawBody ?? Buffer.alloc(0);
      const workflow = caller.target as TriggerWorkflow;
      // First, so every answer past the credential check carries the RateLimit headers.
      await appRateLimits(strapi)
        .consume('trigger', processInstanceId, { points: settings.rateLimitPerMinute, durationSec: 60 }, 1, 'Too many triggers for this process instance.');
      if (!workflow.enabled) {
        throw notFound(`The workflow ${workflowId} is disabled.`, `Enable it with PATCH /api/process-instances/${processInstanceId}/workflows/${workflowId} {"enabled": true}.`);
      }

      const body = parseBody(raw);
      // A body without `payload` is itself the input: platforms that sign webhooks send their own shapes.
      const wrapped = Object.prototype.hasOwnProperty.call(body, 'payload');
      const signatureId = signatureHeadersOf(headers)?.id;
      const webhookId = typeof signatureId === 'string' && signatureId ? signatureId : undefined;
      const idempotencyKey = idempotencyKeyOf(headers['Idempotency-Key']);
      return getService(strapi, 'starts')
        .start(workflow, wrapped ? body.payload : body, {
          base: wrapped ? 'payload' : 'body',
          bytes: raw.length,
          startedWith: caller.credential satisfies StartedWith,
          webhookId,
          idempotencyKey,
          bodyHash: idempotencyKey === undefined ? undefined : bodyHash(raw),
        });
    },

    /** The route's guard checked the credential against this instance. */
    async status({ params, query }) {
      const { processInstanceId, executionId } = params;
      const wait = query.wait ?? 0;
      // A waiting poll holds a connection for up to 30 s: they are counted per process instance.
      if (wait) {
        await appRateLimits(strapi)
          .consume('status-wait', processInstanceId, STATUS_WAIT_LIMIT, 1, 'Too many waiting status polls for this process instance.');
      }
      const record = wait
        ? await getService(strapi, 'runner').waitFor(processInstanceId, executionId, wait * 1000)
        : await getService(strapi, 'executions').get(processInstanceId, executionId);
      if (!record) {
        throw notFound(`No execution with id ${executionId} in this process instance.`, `Use the executionId returned by POST /webhook/${processInstanceId}/{workflowId}.`);
      }
      return record;
    },
  });
};
