/** The admin panel's organization routes: their query and what they answer (Strapi's admin format). */
import { z } from 'zod';
import { pagingQuery } from '#kernel/admin-routes';
import { timestamp } from '#kernel/schemas';
import { STARTED_WITH } from './records';

export const adminOrganizationsQuery = z.object({
  ...pagingQuery,
  q: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(200, 'must be at most 200 characters').optional()).describe('Part of the name, any case.'),
});

export const adminOrganization = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    owner: z.strictObject({ id: z.number().int(), username: z.string(), email: z.string() }).nullable().describe('null when the owner\'s account was deleted.'),
    instances: z.number().int().min(0),
    keys: z.number().int().min(0),
    createdAt: timestamp,
  })
  .meta({ id: 'AdminOrganization', description: 'An organization of any user, with its owner and counts (the admin panel\'s list).' });

export type AdminOrganization = z.infer<typeof adminOrganization>;

// ---- the trigger panel: organizations' keys and instances, an instance's key, workflows, executions ----

const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const optionalText = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const adminUser = z
  .strictObject({ id: z.number().int(), username: z.string(), email: z.string() })
  .meta({ id: 'AdminTriggersUser', description: 'A users-permissions user (who owns organizations).' });

export const adminUsersQuery = z.object({
  q: optionalText(z.string().trim().max(200, 'must be at most 200 characters')).describe('Part of the username or email, any case.'),
  limit: optionalText(z.coerce.number({ error: 'must be a whole number from 1 to 50' }).int().min(1).max(50)).describe('Default 10.'),
});

export const adminCreateOrganizationInput = z.strictObject({
  name,
  ownerId: z.number({ error: 'must be the id of a user' }).int('must be the id of a user').positive('must be the id of a user').describe('The users-permissions user who will own it.'),
});

export const adminCreateKeyInput = z.strictObject({ name: name.optional() });
export const adminCreateInstanceInput = z.strictObject({ name });

export const adminInstanceSummary = z
  .strictObject({
    id: z.string(),
    organization: z.strictObject({ id: z.string(), name: z.string() }),
    owner: adminUser.nullable(),
    name: z.string(),
    keyHint: z.string().describe('The key masked but for its last 4 characters (ck_••••abcd); reveal it with GET .../key.'),
    workflows: z.number().int().min(0),
    mcpUrl: z.string().describe('The MCP endpoint its organization\'s keys connect to (<PUBLIC_URL>/api/mcp).'),
    createdAt: timestamp,
  })
  .meta({ id: 'AdminProcessInstance', description: 'A process instance with its organization and owner, key masked (the admin panel).' });

export const adminOrganizationKey = z
  .strictObject({ id: z.string(), name: z.string(), prefix: z.string(), createdAt: timestamp, lastUsedAt: timestamp.nullable() })
  .meta({ id: 'AdminOrganizationKey', description: 'An organization key\'s record, never its secret.' });

export const adminOrganizationDetail = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    owner: adminUser.nullable(),
    createdAt: timestamp,
    keys: z.array(adminOrganizationKey).describe('Newest first.'),
    instances: z.array(adminInstanceSummary),
    mcpUrl: z.string().describe('The MCP endpoint its organization keys connect to (<PUBLIC_URL>/api/mcp).'),
  })
  .meta({ id: 'AdminOrganizationDetail', description: 'An organization with its keys (never their secrets) and process instances.' });

export const adminKeyIssued = z.strictObject({ key: adminOrganizationKey, secret: z.string().describe('The full key (cko_...), shown this once only.') });
export const adminInstanceKey = z.strictObject({ apiKey: z.string().describe('The instance key (ck_...).') });

export const adminAction = z
  .strictObject({
    name: z.string(),
    description: z.string(),
    configExample: z.record(z.string(), z.unknown()),
    inputExample: z.unknown(),
  })
  .meta({ id: 'AdminAction', description: 'An action of the registry, for the workflow form.' });

export const adminSigningSecret = z.strictObject({
  id: z.string().describe('A fingerprint of the secret (not the secret): name it to remove it.'),
  hint: z.string().describe('whsec_ and the last 4 characters.'),
});

export const adminWorkflow = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    action: z.string(),
    description: z.string().nullable(),
    inputSchema: z.record(z.string(), z.unknown()).nullable(),
    skillName: z.string().describe('Its skill\'s name in the organization (the MCP tool name).'),
    config: z.record(z.string(), z.unknown()),
    triggerUrl: z.string(),
    signing: z.boolean(),
    signingSecrets: z.array(adminSigningSecret).describe('Fingerprints and hints, never the secrets.'),
    callbackUrl: z.string().nullable().describe('Where Quire POSTs execution.finished, signed with the callback secret (null: nowhere).'),
    enabled: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'AdminWorkflow', description: 'A workflow, with its signing secrets\' fingerprints (the admin panel).' });

const workflowDescription = z.string().max(2000, 'must be at most 2000 characters').nullable().describe('null removes it.');
const workflowInputSchema = z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }).nullable().describe('JSON Schema 2020-12, at most 64 KiB; null removes it.');
const signingSecret = z.string().describe('whsec_ and the base64 of 24 to 64 bytes.');
const callbackUrl = z.string().max(2048, 'must be at most 2048 characters').nullable().describe('A public http(s) URL; null removes it.');

export const adminWorkflowIssued = z.strictObject({
  workflow: adminWorkflow,
  callbackSecret: z.string().optional().describe('The callback signing secret (whsec_...), shown this once only: when a callback URL is first set, and on rotation.'),
});

export const adminCreateWorkflowInput = z.strictObject({
  name,
  action: z.string().min(1, 'must not be empty').max(100, 'is too long'),
  config: z.unknown().optional(),
  signingSecrets: z.array(signingSecret).max(10, 'must hold at most 10 secrets').optional(),
  callbackUrl: callbackUrl.optional(),
  enabled: z.boolean().optional(),
  description: workflowDescription.optional(),
  inputSchema: workflowInputSchema.optional(),
});

export const adminUpdateWorkflowInput = z.strictObject({
  name: name.optional(),
  config: z.unknown().optional(),
  callbackUrl: callbackUrl.optional(),
  enabled: z.boolean().optional(),
  description: workflowDescription.optional(),
  inputSchema: workflowInputSchema.optional(),
});

export const adminAddSecretInput = z.strictObject({
  secret: signingSecret.optional().describe('A secret to add as it is (pasted); leave it out for a new generated one.'),
});
export const adminSecretAdded = z.strictObject({ workflow: adminWorkflow, secret: z.string().describe('The secret, shown this once only.') });

export const adminExecutionsQuery = z.object({
  ...pagingQuery,
  workflowId: optionalText(z.string().trim().max(64, 'is too long')),
  status: optionalText(z.enum(['pending', 'running', 'success', 'failed'], { message: 'must be one of pending, running, success, failed' })),
});

export const adminExecution = z
  .strictObject({
    executionId: z.string(),
    workflowId: z.string(),
    status: z.enum(['pending', 'running', 'success', 'failed']),
    createdAt: timestamp,
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    attempts: z.number().int().min(0),
    maxAttempts: z.number().int().min(1),
  })
  .meta({ id: 'AdminExecution', description: 'An execution in the admin panel\'s table.' });

export const adminExecutionDetail = z
  .strictObject({
    ...adminExecution.shape,
    input: z.unknown(),
    output: z.unknown(),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
    replayOf: z.string().nullable().describe('The execution this one replays, if it is a replay.'),
    startedWith: z
      .enum(STARTED_WITH)
      .nullable()
      .describe('What started it: the credential of its trigger or skill call (instance key in X-API-Key or the api_key query parameter, organization key, webhook signature), or replay; null for executions recorded before this was kept.'),
    callback: z
      .strictObject({ status: z.enum(['pending', 'delivered', 'failed']), attempts: z.number().int().min(0), lastError: z.string().nullable() })
      .nullable()
      .describe('The completion callback\'s delivery, when the workflow had a callback URL.'),
  })
  .meta({ id: 'AdminExecutionDetail', description: 'An execution with its input, output and error (the admin panel\'s drawer).' });

export type AdminUser = z.infer<typeof adminUser>;
export type AdminInstanceSummary = z.infer<typeof adminInstanceSummary>;
export type AdminOrganizationDetail = z.infer<typeof adminOrganizationDetail>;
export type AdminOrganizationKey = z.infer<typeof adminOrganizationKey>;
export type AdminAction = z.infer<typeof adminAction>;
export type AdminWorkflow = z.infer<typeof adminWorkflow>;
export type AdminExecution = z.infer<typeof adminExecution>;
export const adminReplayed = z.strictObject({ executionId: z.string().describe('The new execution.'), replayOf: z.string() });

export type AdminExecutionDetail = z.infer<typeof adminExecutionDetail>;

/** The home page's failed-executions widget: the newest failures across every instance. */
export const adminFailedExecutionsQuery = z.object({
  limit: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number({ message: 'must be a whole number from 1 to 20' }).int().min(1).max(20).optional()).describe('Default 5.'),
});

export const adminFailedExecution = z
  .strictObject({
    executionId: z.string(),
    instance: z.strictObject({ id: z.string(), name: z.string() }),
    workflow: z.strictObject({ id: z.string(), name: z.string().nullable().describe('null when the workflow was deleted since.') }),
    failedAt: timestamp,
    error: z.string().nullable().describe('The error\'s message.'),
  })
  .meta({ id: 'AdminFailedExecution', description: 'A failed execution, for the home page\'s widget.' });
export type AdminFailedExecution = z.infer<typeof adminFailedExecution>;
