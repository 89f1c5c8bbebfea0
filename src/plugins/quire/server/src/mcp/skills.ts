/**
 * The MCP tools of an organization key (CONTRACT 21): one per skill of its organization (an
 * enabled workflow), listed afresh on every tools/list so a workflow added or disabled shows at
 * once. A call triggers the workflow through the triggers plugin's skills service, as the key
 * would over POST /webhook, and waits up to 30 s for its end.
 */
import type { Core } from '@strapi/strapi';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '#kernel/errors';
import type { SkillCallResult } from '../../../../../contracts/plugin-services';
import { triggersService } from '../triggers';
import { toolError } from './results';

/** Longest Idempotency-Key, as the trigger route takes it (CONTRACT 17). */
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const IDEMPOTENCY_NEXT = 'Pass _meta.idempotencyKey as 1 to 255 visible ASCII characters, or leave it out.';

/** tools/list for an organization: its skills as tools (a workflow without inputSchema takes any object). */
export async function listSkillTools(strapi: Core.Strapi, organizationId: string) {
  const skills = await triggersService(strapi, 'skills').list(organizationId);
  return {
    tools: skills.map((skill) => ({
      name: skill.name,
      title: skill.title,
      description: skill.description ?? `Runs the workflow "${skill.title}" of this organization and returns its output.`,
      inputSchema: skill.inputSchema ?? { type: 'object' },
      annotations: { title: skill.title, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    })),
  };
}

/** The idempotency key of a call (`_meta.idempotencyKey`), checked like the Idempotency-Key header. */
function idempotencyKeyOf(meta: Record<string, unknown> | undefined): string | undefined {
  const key = meta?.idempotencyKey;
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0) throw new ApiError('invalid-argument', '_meta.idempotencyKey must be a non-empty string.', IDEMPOTENCY_NEXT);
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw new ApiError('invalid-argument', `_meta.idempotencyKey must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, IDEMPOTENCY_NEXT);
  if (!/^[\x20-\x7e]+$/.test(key)) throw new ApiError('invalid-argument', '_meta.idempotencyKey must be visible ASCII characters.', IDEMPOTENCY_NEXT);
  return key;
}

/** How long a call waits (`_meta.waitSeconds`, 0 to 30; default 30) before answering with where to poll. */
function waitSecondsOf(meta: Record<string, unknown> | undefined): number | undefined {
  const wait = meta?.waitSeconds;
  if (wait === undefined) return undefined;
  if (typeof wait !== 'number' || !Number.isInteger(wait) || wait < 0 || wait > 30) {
    throw new ApiError('invalid-argument', '_meta.waitSeconds must be an integer from 0 to 30.', 'Pass how many seconds to wait for the output (0 answers at once with where to poll), or leave it out for 30.');
  }
  return wait;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A skill call's answer as a tool result: the output, where to poll while it runs, or the execution's error. */
export function skillResult(result: SkillCallResult): CallToolResult {
  const meta = { _meta: { executionId: result.executionId, duplicate: result.duplicate } };
  if (result.status === 'failed') {
    return {
      ...toolError({ ...result.error, nextAction: `The execution ${result.executionId} failed; fix its cause (or its input) and call the tool again.` }),
      ...meta,
    };
  }
  const data = result.status === 'success' ? result.output : { executionId: result.executionId, status: result.status, statusUrl: result.statusUrl };
  // The first block is the output as JSON (null when the workflow gave none); structured when it is an object.
  return { content: [{ type: 'text', text: JSON.stringify(data ?? null) }], ...(isObject(data) ? { structuredContent: data } : {}), ...meta };
}

/** tools/call for an organization: runs the skill named, answering the service's errors as tool errors. */
export async function callSkill(strapi: Core.Strapi, organizationId: string, name: string, args: unknown, meta: Record<string, unknown> | undefined): Promise<CallToolResult> {
  try {
    const options = { idempotencyKey: idempotencyKeyOf(meta), waitSeconds: waitSecondsOf(meta) };
    const result = await triggersService(strapi, 'skills').call(organizationId, name, args ?? {}, options);
    return skillResult(result);
  } catch (error) {
    if (error instanceof ApiError) return toolError({ code: error.code, message: error.message, nextAction: error.nextAction?.replace('(GET /api/skills)', '(tools/list)') });
    throw error;
  }
}
