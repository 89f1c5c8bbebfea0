import type { Core } from '@strapi/strapi';
import { ok } from '../../../../quire/server/src/controllers/respond';
import { invalidArgument, notFound } from '../../../../quire/server/src/domain/errors';
import { presented } from '../services/gate';
import type { TriggersConfig } from '../config';

const MAX_WAIT_SECONDS = 30;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function parseBody(raw: Buffer): Record<string, unknown> {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw invalidArgument('The request body is not valid UTF-8.', 'Send a JSON object encoded as UTF-8.');
  }
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

function parseWait(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'string' || !/^\d{1,4}$/.test(value) || Number(value) > MAX_WAIT_SECONDS) {
    throw invalidArgument(`wait must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}.`, 'Pass ?wait=10, say, and poll again if the execution is not finished.');
  }
  return Number(value);
}

/** POST /webhook/{processInstanceId}/{workflowId} and GET /status/{processInstanceId}/{executionId}. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const plugin = () => strapi.plugin('triggers');
  const setting = <K extends keyof TriggersConfig>(key: K) => plugin().config(key) as TriggersConfig[K];
  const publicUrl = () => String(strapi.config.get('server.url') ?? '').replace(/\/+$/, '');

  return {
    async trigger(ctx) {
      const { processInstanceId, workflowId } = ctx.params;
      const raw: Buffer = ctx.state.triggerRawBody ?? Buffer.alloc(0);
      const request = presented(ctx);
      const { workflow } = await plugin().service('gate').authorizeTrigger(request, raw, processInstanceId, workflowId);
      if (!workflow.enabled) {
        throw notFound(`The workflow ${workflowId} is disabled.`, `Enable it with PATCH /api/process-instances/${processInstanceId}/workflows/${workflowId} {"enabled": true}.`);
      }
      await strapi
        .plugin('quire')
        .service('rateLimit')
        .consume('trigger', processInstanceId, { points: setting('rateLimitPerMinute'), durationSec: 60 }, 1, 'Too many triggers for this process instance.');

      const body = parseBody(raw);
      // A body without `payload` is itself the input: platforms that sign webhooks send their own shapes.
      const wrapped = Object.prototype.hasOwnProperty.call(body, 'payload');
      let input = wrapped ? body.payload : body;
      const action = plugin().service('actions').get(workflow.action);
      if (action?.parseInput) {
        try {
          input = action.parseInput(input);
        } catch (error) {
          // The action names fields from "payload."; a bare body has no such wrapper.
          if (!wrapped && error instanceof Error) error.message = error.message.replace(/^payload\./, '').replace(/^payload /, 'body ');
          throw error;
        }
      }
      const config = JSON.parse(workflow.config);
      const maxAttempts = plugin().service('actions').maxAttempts(workflow.action, config);
      const webhookId = typeof request.signature?.id === 'string' && request.signature.id ? request.signature.id : undefined;

      const created = await plugin().service('executions').create(workflow, input, maxAttempts, webhookId);
      if (!created.duplicate) {
        // The execution is recorded; if the queue is unreachable, the sweep dispatches it later.
        await plugin()
          .service('runner')
          .dispatch(created.executionId)
          .catch((error) => strapi.log.warn(`triggers: could not dispatch ${created.executionId}: ${error?.message ?? error}`));
      }
      ok(
        ctx,
        {
          executionId: created.executionId,
          status: created.status,
          statusUrl: `${publicUrl()}/status/${processInstanceId}/${created.executionId}`,
          duplicate: created.duplicate,
        },
        202,
      );
    },

    async status(ctx) {
      const { processInstanceId, executionId } = ctx.params;
      await plugin().service('gate').authorizeInstance(presented(ctx), processInstanceId);
      const wait = parseWait(ctx.query?.wait);
      const record = wait
        ? await plugin().service('runner').waitFor(processInstanceId, executionId, wait * 1000)
        : await plugin().service('executions').get(processInstanceId, executionId);
      if (!record) {
        throw notFound(`No execution with id ${executionId} in this process instance.`, `Use the executionId returned by POST /webhook/${processInstanceId}/{workflowId}.`);
      }
      ok(ctx, record);
    },
  };
};
