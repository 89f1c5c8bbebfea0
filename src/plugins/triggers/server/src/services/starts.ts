import type { Core } from '@strapi/strapi';
import { publicUrl } from '#kernel/config';
import { ApiError, invalidArgument } from '#kernel/errors';
import { problemsOf, ValidationTooSlow } from '../domain/input-schema';
import type { ExecutionStatus } from '../schemas/records';
import type { DeliveryKeys } from './executions';
import type { TriggerWorkflow } from './workflows';
import { getService } from './get-service';

export interface StartOptions extends DeliveryKeys {
  /** How the caller named the input: `payload` (a body's payload field), `body` (a bare body), `input` (a skill call). */
  base: 'payload' | 'body' | 'input';
  /** The input's size as JSON (the body's bytes for a trigger). */
  bytes: number;
}

export interface Started {
  executionId: string;
  status: ExecutionStatus;
  statusUrl: string;
  duplicate: boolean;
}

/**
 * Starting an execution of a workflow, for the trigger route and for skill calls: the input
 * is checked (the workflow's inputSchema, then the action's own check) before anything is
 * recorded, then the execution is recorded and dispatched.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {

  /** 400 naming the first problem's path (and up to 10 problems) when the input does not match the schema. */
  async function checkInput(workflow: TriggerWorkflow, input: unknown, options: StartOptions): Promise<void> {
    const validator = await getService(strapi, 'workflows').validator(workflow);
    if (!validator) return;
    let problems: string[] | null;
    try {
      problems = problemsOf(validator, input, options.base, options.bytes);
    } catch (error) {
      if (!(error instanceof ValidationTooSlow)) throw error;
      throw invalidArgument(
        `The ${options.base} took too long to check against the workflow's inputSchema (past its time budget).`,
        'Send a smaller input, or ask for a simpler inputSchema (fewer patterns, no enum of objects over long arrays).',
      );
    }
    if (!problems) return;
    const more = problems.length > 1 ? ` (${problems.length} problems: ${problems.join('; ')})` : '';
    throw invalidArgument(
      `${problems[0]}: the ${options.base} does not match the workflow's inputSchema${more}.`,
      `Send an input that matches the inputSchema (GET /api/process-instances/${workflow.instanceId}/workflows/${workflow.documentId} shows it).`,
    );
  }

  return {
    checkInput,

    async start(workflow: TriggerWorkflow, given: unknown, options: StartOptions): Promise<Started> {
      await checkInput(workflow, given, options);
      let input = given;
      const action = getService(strapi, 'actions').get(workflow.action);
      if (action?.parseInput) {
        try {
          input = action.parseInput(input, { strapi });
        } catch (error) {
          // The action names fields from "payload."; a bare body or a skill call has no such wrapper.
          if (options.base !== 'payload' && error instanceof ApiError) {
            const field = options.base === 'body' ? '' : `${options.base}.`;
            error.message = error.message.replace(/^payload\./, field).replace(/^payload /, `${options.base} `);
          }
          throw error;
        }
      }
      const maxAttempts = getService(strapi, 'actions').maxAttempts(workflow.action, JSON.parse(workflow.config));
      const { base: _base, bytes: _bytes, ...keys } = options;
      const created = await getService(strapi, 'executions').create(workflow, input, maxAttempts, keys);
      if (!created.duplicate) {
        // The execution is recorded; if the queue is unreachable, the sweep dispatches it later.
        await getService(strapi, 'runner')
          .dispatch(created.executionId)
          .catch((error) => strapi.log.warn(`triggers: could not dispatch ${created.executionId}: ${error?.message ?? error}`));
      }
      return {
        executionId: created.executionId,
        status: created.status,
        statusUrl: `${publicUrl(strapi)}/status/${workflow.instanceId}/${created.executionId}`,
        duplicate: created.duplicate,
      };
    },
  };
};
