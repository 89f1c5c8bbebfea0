/** The records the trigger service answers with (services build them in domain/records.ts). */
import { z } from 'zod';
import { timestamp } from '#kernel/schemas';

export const EXECUTION_STATUSES = ['pending', 'running', 'success', 'failed'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const CALLBACK_STATUSES = ['pending', 'delivered', 'failed'] as const;
/** What started an execution: the credential of its trigger or skill call (credentials.ts), or a replay. */
export const STARTED_WITH = ['instance-key', 'instance-key-query', 'organization-key', 'webhook-signature', 'replay'] as const;
export type StartedWith = (typeof STARTED_WITH)[number];


export const organizationRecord = z
  .strictObject({ id: z.string(), name: z.string(), createdAt: timestamp })
  .meta({ id: 'Organization', description: 'An organization: it owns process instances.' });

export const organizationKeyRecord = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key (cko_...), to recognise it.'),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
  })
  .meta({ id: 'OrganizationKey', description: 'An organization key\'s record (never its secret).' });

export const instanceRecord = z
  .strictObject({
    id: z.string(),
    organizationId: z.string(),
    name: z.string(),
    apiKey: z.string().describe('The instance key (ck_...): X-API-Key or ?api_key= of its trigger and status URLs.'),
    createdAt: timestamp,
  })
  .meta({ id: 'ProcessInstance', description: 'A process instance, with its key.' });

export const workflowRecord = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    action: z.string(),
    description: z.string().nullable().describe('What the workflow does (its skill\'s description).'),
    inputSchema: z.record(z.string(), z.unknown()).nullable().describe('The JSON Schema (2020-12) a trigger\'s input must match; null: any input.'),
    config: z.record(z.string(), z.unknown()).describe('The action\'s settings.'),
    triggerUrl: z.string().describe('POST here to start an execution.'),
    signing: z.boolean().describe('True when signing secrets are set (they are never returned).'),
    callbackUrl: z.string().nullable().describe('Where Quire POSTs execution.finished, signed with the callback secret (null: nowhere).'),
    enabled: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Workflow', description: 'A workflow of a process instance.' });

export const skillRecord = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9_]{1,64}$/).describe('The tool name: made from the workflow\'s name, unique in the organization (prefixed with the instance\'s name where two would collide), stable across calls.'),
    title: z.string().describe('The workflow\'s name.'),
    description: z.string().nullable(),
    inputSchema: z.record(z.string(), z.unknown()).nullable().describe('JSON Schema 2020-12 of the input; null: any input.'),
    processInstanceId: z.string(),
    workflowId: z.string(),
    triggerUrl: z.string().describe('POST here (with X-Process-Manager-Key) to call it over HTTP.'),
  })
  .meta({ id: 'Skill', description: 'An enabled workflow of the organization, described and typed for agents.' });

export const executionRecord = z
  .strictObject({
    executionId: z.string(),
    workflowId: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    createdAt: timestamp,
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    attempts: z.number().int().min(0),
    output: z.unknown().describe('What the action returned (null until it succeeds).'),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable().describe('Why it failed, once it has.'),
    callback: z
      .strictObject({
        status: z.enum(CALLBACK_STATUSES),
        attempts: z.number().int().min(0),
        lastError: z.string().nullable().describe('Why the last attempt failed (null once delivered or before any attempt).'),
      })
      .nullable()
      .describe('The completion callback\'s delivery, when the workflow has a callbackUrl.'),
  })
  .meta({ id: 'Execution', description: 'An execution of a workflow: its status record.' });

export type OrganizationRecord = z.infer<typeof organizationRecord>;
export type OrganizationKeyRecord = z.infer<typeof organizationKeyRecord>;
export type InstanceRecord = z.infer<typeof instanceRecord>;
export type WorkflowRecord = z.infer<typeof workflowRecord>;
export type ExecutionRecord = z.infer<typeof executionRecord>;
export type SkillRecordOf = z.infer<typeof skillRecord>;
