import type { Core } from '@strapi/strapi';
import { publicUrl } from '#kernel/config';
import { invalidArgument, notFound } from '#kernel/errors';
import { parseHostExemptions } from '#kernel/address-policy';
import { BlockedUrlError, checkUrl } from '#kernel/safe-fetch';
import { triggersConfig } from '../config';
import { generateSigningSecret } from '../domain/signature';
import type { Principal } from '../domain/principal';
import { workflowRecord } from '../repositories/records';
import type { WorkflowRecord } from '../schemas/records';
import { checkInputSchema, compileInputSchema, SchemaProblem, type InputValidator } from '../domain/input-schema';
import { createHash } from 'node:crypto';
import { workflowsRepository, type TriggerWorkflow } from '../repositories/workflows';
import { getService } from './get-service';

const FIELDS = [
  'id', 'documentId', 'instanceId', 'name', 'action', 'description', 'inputSchema', 'config', 'secretCount', 'callbackUrl', 'enabled', 'createdAt', 'updatedAt',
];
/** Compiled input schemas kept per process (one per workflow, its latest revision). */
const MAX_CACHED_VALIDATORS = 1_000;

export interface WorkflowInput {
  name: string;
  action: string;
  config?: unknown;
  signingSecrets?: string[];
  callbackUrl?: string | null;
  enabled?: boolean;
  description?: string | null;
  inputSchema?: Record<string, unknown> | null;
}

/** A workflow as created or changed, with its callback secret when one was just made (shown once). */
export interface IssuedWorkflow {
  workflow: WorkflowRecord;
  callbackSecret?: string;
}

export type WorkflowPatch = Partial<Omit<WorkflowInput, 'action'>>;

export type { TriggerWorkflow };

export const workflowNotFound = (instanceId: string, id: string) =>
  notFound(`No workflow with id ${id} in this process instance.`, `Call GET /api/process-instances/${instanceId}/workflows.`);

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repo = workflowsRepository(strapi);
  const record = (row): WorkflowRecord => workflowRecord(row, publicUrl(strapi));

  function secretsData(secrets: string[]) {
    return {
      secretsCiphertext: secrets.length ? getService(strapi, 'vault').sealSigningSecrets(secrets) : null,
      secretCount: secrets.length,
    };
  }

  /** A callback URL as stored: http(s), no credentials, no private address (unless allowed, as for the http action). */
  function checkedCallbackUrl(url: string): string {
    try {
      return checkUrl(url, parseHostExemptions(triggersConfig(strapi).allowedPrivateHosts)).toString();
    } catch (error) {
      if (error instanceof BlockedUrlError) throw invalidArgument(`callbackUrl: ${error.message}`, 'Use a public http(s) URL, or null for no callback.');
      throw error;
    }
  }

  function newCallbackSecret() {
    const secret = generateSigningSecret();
    return { secret, sealed: getService(strapi, 'vault').sealCallbackSecret(secret) as string };
  }

  /** The stored columns of an input schema: checked (400 naming the problem), as text, and its revision. */
  function inputSchemaData(schema: Record<string, unknown> | null): { data: { inputSchema: string | null; inputSchemaHash: string | null }; validator?: InputValidator } {
    if (schema === null) return { data: { inputSchema: null, inputSchemaHash: null } };
    let validator: InputValidator;
    try {
      validator = checkInputSchema(schema);
    } catch (error) {
      if (error instanceof SchemaProblem) {
        throw invalidArgument(`inputSchema ${error.message}.`, 'Send a JSON Schema (draft 2020-12) object, e.g. {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]}, or null for none.');
      }
      throw error;
    }
    const text = JSON.stringify(schema);
    return { data: { inputSchema: text, inputSchemaHash: createHash('sha256').update(text).digest('base64url') }, validator };
  }

  /** Keeps a compiled schema for its workflow's revision (the latest one per workflow, at most MAX_CACHED_VALIDATORS). */
  function remember(workflowId: string, hash: string | null, validator?: InputValidator) {
    validators.delete(workflowId);
    if (!hash || !validator) return;
    if (validators.size >= MAX_CACHED_VALIDATORS) validators.delete(validators.keys().next().value as string);
    validators.set(workflowId, { hash, validator });
  }

  // workflow id -> its compiled schema and the revision it was compiled from.
  const validators = new Map<string, { hash: string; validator: InputValidator }>();

  async function owned(principal: Principal, instanceId: string, workflowId: string, select = FIELDS) {
    await getService(strapi, 'instances').accessible(principal, instanceId);
    const row = await repo.findInInstance(instanceId, workflowId, select);
    if (!row) throw workflowNotFound(instanceId, workflowId);
    return row;
  }

  return {
    async create(principal: Principal, instanceId: string, input: WorkflowInput): Promise<IssuedWorkflow> {
      const instance = await getService(strapi, 'instances').accessible(principal, instanceId);
      const config = getService(strapi, 'actions').parseConfig(input.action, input.config);
      // Only null (or no field) means no callback: an empty string is refused here as PATCH refuses it.
      const callbackUrl = input.callbackUrl == null ? null : checkedCallbackUrl(input.callbackUrl);
      const callback = callbackUrl ? newCallbackSecret() : null;
      const schema = inputSchemaData(input.inputSchema ?? null);
      const row = await repo.create(
        {
          instanceId,
          organizationId: instance.organizationId,
          userId: instance.userId,
          name: input.name,
          action: input.action,
          config: JSON.stringify(config),
          enabled: input.enabled ?? true,
          description: input.description ?? null,
          ...schema.data,
          callbackUrl,
          callbackSecretCiphertext: callback?.sealed ?? null,
          ...secretsData(input.signingSecrets ?? []),
        },
        FIELDS,
      );
      // Compiled once to check it: kept, so this process does not compile it again at the first trigger.
      remember(row.documentId, schema.data.inputSchemaHash, schema.validator);
      return callback ? { workflow: record(row), callbackSecret: callback.secret } : { workflow: record(row) };
    },

    async list(principal: Principal, instanceId: string): Promise<WorkflowRecord[]> {
      await getService(strapi, 'instances').accessible(principal, instanceId);
      const rows = await repo.listByInstance(instanceId, FIELDS);
      return rows.map(record);
    },

    async get(principal: Principal, instanceId: string, workflowId: string): Promise<WorkflowRecord> {
      return record(await owned(principal, instanceId, workflowId));
    },

    async update(principal: Principal, instanceId: string, workflowId: string, patch: WorkflowPatch): Promise<IssuedWorkflow> {
      const row = await owned(principal, instanceId, workflowId, [...FIELDS, 'callbackSecretCiphertext']);
      const data: Record<string, unknown> = {};
      let callbackSecret: string | undefined;
      if (patch.callbackUrl === null) Object.assign(data, { callbackUrl: null, callbackSecretCiphertext: null });
      else if (patch.callbackUrl !== undefined) {
        data.callbackUrl = checkedCallbackUrl(patch.callbackUrl);
        // A secret is made when a callback URL is first set; changing the URL keeps it.
        if (!row.callbackSecretCiphertext) {
          const made = newCallbackSecret();
          callbackSecret = made.secret;
          data.callbackSecretCiphertext = made.sealed;
        }
      }
      if (patch.name !== undefined) data.name = patch.name;
      if (patch.enabled !== undefined) data.enabled = patch.enabled;
      if (patch.config !== undefined) data.config = JSON.stringify(getService(strapi, 'actions').parseConfig(row.action, patch.config));
      if (patch.signingSecrets !== undefined) Object.assign(data, secretsData(patch.signingSecrets));
      if (patch.description !== undefined) data.description = patch.description;
      const schema = patch.inputSchema === undefined ? undefined : inputSchemaData(patch.inputSchema);
      if (schema) Object.assign(data, schema.data);
      if (!Object.keys(data).length) return { workflow: record(row) };
      const workflow = record(await repo.update(row.id, data, FIELDS));
      if (schema) remember(row.documentId, schema.data.inputSchemaHash, schema.validator);
      return callbackSecret ? { workflow, callbackSecret } : { workflow };
    },

    /** A new callback secret; the old one stops signing at once. */
    async rotateCallbackSecret(principal: Principal, instanceId: string, workflowId: string): Promise<Required<IssuedWorkflow>> {
      const row = await owned(principal, instanceId, workflowId);
      if (!row.callbackUrl) {
        throw invalidArgument('This workflow has no callbackUrl, so no callback secret.', `Set one with PATCH /api/process-instances/${instanceId}/workflows/${workflowId} {"callbackUrl": "https://..."}.`);
      }
      const made = newCallbackSecret();
      const workflow = record(await repo.update(row.id, { callbackSecretCiphertext: made.sealed }, FIELDS));
      return { workflow, callbackSecret: made.secret };
    },

    /** Where and with which secret a finished execution of the workflow is announced, or null. */
    async callbackTarget(workflowId: string): Promise<{ url: string; secret: string } | null> {
      const row = await repo.callbackColumns(workflowId);
      if (!row?.callback_url || !row.callback_secret_ciphertext) return null;
      return { url: row.callback_url, secret: getService(strapi, 'vault').openCallbackSecret(row.callback_secret_ciphertext) as string };
    },

    /** Deletes the workflow; its executions stay readable. */
    async remove(principal: Principal, instanceId: string, workflowId: string): Promise<void> {
      const row = await owned(principal, instanceId, workflowId, ['id']);
      await repo.delete(row.id);
    },

    /** The workflow a trigger names, or null: one indexed read straight through Knex (the hot path). */
    async findForTrigger(instanceId: string, workflowId: string): Promise<TriggerWorkflow | null> {
      return repo.forTrigger(instanceId, workflowId);
    },

    /**
     * The compiled input schema of a workflow, or null when it has none. Compiled once per
     * revision (the schema's hash) in this process; the schema text is read only then.
     */
    async validator(workflow: Pick<TriggerWorkflow, 'documentId' | 'inputSchemaHash'>): Promise<InputValidator | null> {
      if (!workflow.inputSchemaHash) return null;
      const cached = validators.get(workflow.documentId);
      if (cached?.hash === workflow.inputSchemaHash) return cached.validator;
      const row = await repo.inputSchema(workflow.documentId);
      if (!row?.input_schema) return null;
      const validator = compileInputSchema(JSON.parse(row.input_schema));
      remember(workflow.documentId, row.input_schema_hash, validator);
      return validator;
    },
  };
};
