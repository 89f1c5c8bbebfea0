/**
 * Input schemas of the trigger service's routes (query strings and bodies); the messages name
 * the field ("name must not be empty.").
 */
import { z } from 'zod';
import { withHint } from '#kernel/parse';
import { EXECUTION_STATUSES } from './records';
import { decodeSigningSecret } from '../domain/signature';

const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const id = z.string().trim().min(1, 'must not be empty').max(64, 'is too long');

export const createOrganizationInput = z.strictObject({ name });

export const createOrganizationKeyInput = z.strictObject({
  name: name.optional().describe('A name to recognise the key by (default "Organization key").'),
});

export const createInstanceInput = z.strictObject({ organizationId: id, name });
export const listSkillsQuery = z.strictObject({
  organizationId: id.optional().describe('Required with a user\'s credential: an organization you own. With an organization key: its own (or left out).'),
});
export const listInstancesQuery = z.strictObject({ organizationId: id.optional().describe('Only the instances of this organization.') });

const signingSecrets = z
  .array(
    z.string().refine((value) => decodeSigningSecret(value) !== null, {
      message: 'must be a Standard Webhooks secret: whsec_ followed by the base64 of 24 to 64 bytes',
    }),
  )
  .max(10, 'must hold at most 10 secrets')
  .describe('Standard Webhooks secrets (whsec_...) a signed trigger may be signed with; never returned.');

const callbackUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .nullable()
  .describe('http(s) URL, public: Quire POSTs execution.finished there, signed (Standard Webhooks) with the workflow\'s callback secret. null removes it.');

export const MAX_DESCRIPTION_LENGTH = 2000;

const description = z
  .string()
  .max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`)
  .nullable()
  .describe('What the workflow does, for people and agents (its skill\'s description); null removes it.');

const inputSchema = z
  .record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' })
  .nullable()
  .describe('A JSON Schema (draft 2020-12) object, at most 64 KiB: a trigger\'s input must validate against it (400 otherwise, before anything runs). null removes it.');

const actionConfig = z.unknown().describe('The action\'s settings (the http action: {url, headers?, maxAttempts?}).');

export const createWorkflowInput = z.strictObject({
  name,
  action: z.string().min(1, 'must not be empty').max(100, 'is too long').describe('echo, http, article.import, article.note, or an action another plugin registered.'),
  config: actionConfig.optional(),
  signingSecrets: signingSecrets.optional(),
  callbackUrl: callbackUrl.optional(),
  enabled: z.boolean().optional(),
  description: description.optional(),
  inputSchema: inputSchema.optional(),
});

export const updateWorkflowInput = z.strictObject({
  name: name.optional(),
  config: actionConfig.optional(),
  signingSecrets: signingSecrets.optional(),
  callbackUrl: callbackUrl.optional(),
  enabled: z.boolean().optional(),
  description: description.optional(),
  inputSchema: inputSchema.optional(),
});

export const listExecutionsQuery = z.strictObject({
  workflowId: id.optional(),
  status: z.enum(EXECUTION_STATUSES, { message: `must be one of ${EXECUTION_STATUSES.join(', ')}` }).optional(),
  limit: z.coerce.number().int('must be an integer').min(1, 'must be at least 1').max(100, 'must be at most 100').optional().describe('Default 20.'),
  cursor: z.string().optional().describe('The nextCursor of the previous page.'),
});

export const MAX_WAIT_SECONDS = 30;

/** `GET /status/...?wait=N`: hold the answer until the execution finishes or N seconds pass. */
export const statusQuery = withHint(
  z.object({
    wait: z
      .string({ error: `must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}` })
      .regex(/^\d{1,4}$/, `must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}`)
      .transform(Number)
      .refine((n) => n <= MAX_WAIT_SECONDS, `must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}`)
      .optional()
      .describe(`Seconds (at most ${MAX_WAIT_SECONDS}) to wait for the execution to finish.`),
  }),
  'Pass ?wait=10, say, and poll again if the execution is not finished.',
);

/** What a trigger's body is: a JSON object, whose `payload` (or, without one, itself) is the input. */
export const triggerBody = z
  .record(z.string(), z.unknown())
  .describe('A JSON object. Its `payload` field is the workflow\'s input; a body without `payload` is itself the input.');
