/**
 * The trigger panel's operations: what the admin routes do to organizations, keys, instances,
 * workflows and executions of any user. Every change goes through the same services as the
 * management API (organizations, instances, workflows), acting as the owner of the thing
 * changed: an admin never becomes an owner, and the owner's rules (config checked by the
 * action, keys hashed, secrets sealed) hold.
 */
import type { Core } from '@strapi/strapi';
import { createHash, randomBytes } from 'node:crypto';
import { paginationOf, type Pagination } from '#kernel/admin-routes';
import { iso } from '#kernel/db';
import { adminRepository } from '../repositories/admin';
import { executionsRepository } from '../repositories/executions';
import { invalidArgument, notFound } from '#kernel/errors';
import { publicUrl } from '#kernel/config';
import { decodeSigningSecret } from '../domain/signature';
import type { Principal } from '../domain/principal';
import { fromJson } from '../repositories/records';
import type { WorkflowRecord } from '../schemas/records';
import type {
  AdminAction,
  AdminExecution,
  AdminExecutionDetail,
  AdminFailedExecution,
  AdminInstanceSummary,
  AdminOrganizationDetail,
  AdminUser,
  AdminWorkflow,
} from '../schemas/admin';

interface IssuedAdminWorkflow {
  workflow: AdminWorkflow;
  callbackSecret?: string;
}
import { instanceNotFound } from './instances';
import { orgNotFound } from './organizations';
import type { WorkflowInput } from './workflows';
import { getService } from './get-service';

/** ck_••••abcd: enough to tell keys apart, not enough to use one. */
export const maskKey = (key: string) => `${key.slice(0, key.indexOf('_') + 1)}••••••••${key.slice(-4)}`;
/** A signing secret's stable name: a short hash (the secret itself is never sent back). */
export const secretFingerprint = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 12);
const secretHint = (secret: string) => `whsec_…${secret.slice(-4)}`;
/** A new Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function checkSecret(secret: string): string {
  if (decodeSigningSecret(secret) === null) {
    throw invalidArgument('secret must be a Standard Webhooks secret: whsec_ followed by the base64 of 24 to 64 bytes.', 'Paste a whsec_... secret, or leave it empty to generate one.');
  }
  return secret;
}

const userOf = (row: { owner_id?: unknown; owner_username?: string; owner_email?: string }): AdminUser | null =>
  row.owner_id == null ? null : { id: Number(row.owner_id), username: row.owner_username!, email: row.owner_email! };

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = <K extends Parameters<typeof getService>[1]>(name: K) => getService(strapi, name);
  const repo = adminRepository(strapi);
  const executions = executionsRepository(strapi);
  const ownerOf = (userId: number): Principal => ({ kind: 'user', userId });

  /** The owner of an organization (404 when there is none). */
  async function organizationOwner(organizationId: string): Promise<number> {
    const owner = await repo.ownerOf('organization', organizationId);
    if (owner === null) throw orgNotFound(organizationId);
    return owner;
  }

  /** The owner of a process instance, as the principal its services are called with. */
  async function instanceOwner(instanceId: string): Promise<Principal> {
    const owner = await repo.ownerOf('instance', instanceId);
    if (owner === null) throw instanceNotFound(instanceId);
    return ownerOf(owner);
  }

  async function instanceRows(where: { organizationId?: string; instanceId?: string }) {
    const rows = await repo.instances(where);
    return rows.map(
      (r: any): AdminInstanceSummary => ({
        id: r.document_id,
        organization: { id: r.organization_id, name: r.organization_name },
        owner: userOf(r),
        name: r.name,
        keyHint: maskKey(service('vault').openInstanceKey(r.key_ciphertext)),
        workflows: Number(r.workflow_count ?? 0),
        mcpUrl: `${publicUrl(strapi)}/api/mcp`,
        createdAt: iso(r.created_at)!,
      }),
    );
  }

  async function workflowRow(instanceId: string, workflowId: string) {
    const row = await repo.workflow(instanceId, workflowId);
    if (!row) throw notFound(`No workflow with id ${workflowId} in this process instance.`, 'Reload the trigger panel.');
    return row;
  }

  /** The services' IssuedWorkflow, with the secrets' fingerprints. */
  async function issued(instanceId: string, result: { workflow: WorkflowRecord; callbackSecret?: string }): Promise<IssuedAdminWorkflow> {
    const workflow = await withSecrets(instanceId, result.workflow);
    return result.callbackSecret ? { workflow, callbackSecret: result.callbackSecret } : { workflow };
  }

  const secretsOf = (ciphertext: string | null) => service('vault').openSigningSecrets(ciphertext) as string[];

  /** The workflow with its signing secrets' fingerprints and its skill name (`names`: the organization's, when known). */
  async function withSecrets(instanceId: string, workflow: WorkflowRecord, names?: Map<string, string>): Promise<AdminWorkflow> {
    const row = await workflowRow(instanceId, workflow.id);
    const signingSecrets = secretsOf(row.secretsCiphertext).map((secret) => ({ id: secretFingerprint(secret), hint: secretHint(secret) }));
    const skillNames: Map<string, string> = names ?? (await service('skills').namesOf(row.organizationId));
    const { id, name, action, description, inputSchema, ...rest } = workflow;
    return { id, name, action, description, inputSchema, skillName: skillNames.get(workflow.id) ?? '', ...rest, signingSecrets };
  }

  const admin = {
    /** Users whose username or email contains `q`, to choose an organization's owner. */
    async users(query: { q?: string; limit?: number }): Promise<AdminUser[]> {
      return repo.users(query);
    },

    /** An organization for `ownerId` (a users-permissions user), as if they had created it. */
    async createOrganization(input: { name: string; ownerId: number }) {
      if (!(await repo.userExists(input.ownerId))) throw invalidArgument(`ownerId: no user with id ${input.ownerId}.`, 'Choose the owner among the users listed.');
      const organization = await service('organizations').create(input.ownerId, input.name);
      return admin.organization(organization.id);
    },

    async organization(organizationId: string): Promise<AdminOrganizationDetail> {
      const row = await repo.organization(organizationId);
      if (!row) throw orgNotFound(organizationId);
      const keys = await service('organizations').listKeys(Number(row.user_id), organizationId);
      return {
        id: row.document_id,
        name: row.name,
        owner: userOf(row),
        createdAt: iso(row.created_at)!,
        keys,
        instances: await instanceRows({ organizationId }),
        mcpUrl: `${publicUrl(strapi)}/api/mcp`,
      };
    },

    async createKey(organizationId: string, name: string) {
      return service('organizations').createKey(await organizationOwner(organizationId), organizationId, name);
    },

    async revokeKey(organizationId: string, keyId: string) {
      await service('organizations').revokeKey(await organizationOwner(organizationId), organizationId, keyId);
    },

    async createInstance(organizationId: string, name: string): Promise<AdminInstanceSummary> {
      const created = await service('instances').create(ownerOf(await organizationOwner(organizationId)), { organizationId, name });
      return admin.instance(created.id);
    },

    async instance(instanceId: string): Promise<AdminInstanceSummary> {
      const [found] = await instanceRows({ instanceId });
      if (!found) throw instanceNotFound(instanceId);
      return found;
    },

    async instanceKey(instanceId: string): Promise<string> {
      return (await service('instances').get(await instanceOwner(instanceId), instanceId)).apiKey;
    },

    async regenerateKey(instanceId: string): Promise<AdminInstanceSummary> {
      await service('instances').regenerateKey(await instanceOwner(instanceId), instanceId);
      return admin.instance(instanceId);
    },

    actions(): AdminAction[] {
      const registry = service('actions');
      return (registry.names() as string[]).map((name) => {
        const definition = registry.get(name);
        return {
          name,
          description: definition?.description ?? '',
          configExample: definition?.configExample ?? {},
          inputExample: definition?.inputExample ?? {},
        };
      });
    },

    async workflows(instanceId: string): Promise<AdminWorkflow[]> {
      const workflows: WorkflowRecord[] = await service('workflows').list(await instanceOwner(instanceId), instanceId);
      if (!workflows.length) return [];
      const { organizationId } = await workflowRow(instanceId, workflows[0].id);
      const names = await service('skills').namesOf(organizationId);
      return Promise.all(workflows.map((workflow) => withSecrets(instanceId, workflow, names)));
    },

    /** A workflow, and the signing secrets it was given (shown once). */
    async createWorkflow(
      instanceId: string,
      input: WorkflowInput,
    ): Promise<IssuedAdminWorkflow> {
      const signingSecrets = (input.signingSecrets ?? []).map(checkSecret);
      return issued(instanceId, await service('workflows').create(await instanceOwner(instanceId), instanceId, { ...input, signingSecrets }));
    },

    /** The fields given; a callback URL set for the first time comes with its secret, shown once. */
    async updateWorkflow(
      instanceId: string,
      workflowId: string,
      patch: { name?: string; config?: unknown; callbackUrl?: string | null; enabled?: boolean; description?: string | null; inputSchema?: Record<string, unknown> | null },
    ): Promise<IssuedAdminWorkflow> {
      return issued(instanceId, await service('workflows').update(await instanceOwner(instanceId), instanceId, workflowId, patch));
    },

    /** A new callback secret (shown once); the old one stops signing at once. */
    async rotateCallbackSecret(instanceId: string, workflowId: string): Promise<IssuedAdminWorkflow> {
      return issued(instanceId, await service('workflows').rotateCallbackSecret(await instanceOwner(instanceId), instanceId, workflowId));
    },

    /** Runs an execution again (the management API's replay): a new execution, same workflow and input. */
    async replay(instanceId: string, executionId: string): Promise<{ executionId: string; replayOf: string }> {
      await instanceOwner(instanceId);
      const replayed = await service('runner').replay(instanceId, executionId);
      return { executionId: replayed.executionId, replayOf: replayed.replayOf };
    },

    async removeWorkflow(instanceId: string, workflowId: string): Promise<void> {
      await service('workflows').remove(await instanceOwner(instanceId), instanceId, workflowId);
    },

    /** Adds a signing secret (pasted, or generated when none is given); returns it this once. */
    async addSecret(instanceId: string, workflowId: string, pasted?: string): Promise<{ workflow: AdminWorkflow; secret: string }> {
      const principal = await instanceOwner(instanceId);
      const row = await workflowRow(instanceId, workflowId);
      const secret = pasted === undefined ? newSigningSecret() : checkSecret(pasted);
      const secrets = secretsOf(row.secretsCiphertext);
      if (secrets.includes(secret)) throw invalidArgument('secret: this workflow already has this secret.');
      if (secrets.length >= 10) throw invalidArgument('A workflow holds at most 10 signing secrets.', 'Remove one first.');
      const { workflow } = await service('workflows').update(principal, instanceId, workflowId, { signingSecrets: [...secrets, secret] });
      return { workflow: await withSecrets(instanceId, workflow), secret };
    },

    async removeSecret(instanceId: string, workflowId: string, fingerprint: string): Promise<AdminWorkflow> {
      const principal = await instanceOwner(instanceId);
      const row = await workflowRow(instanceId, workflowId);
      const secrets = secretsOf(row.secretsCiphertext);
      const kept = secrets.filter((secret) => secretFingerprint(secret) !== fingerprint);
      if (kept.length === secrets.length) throw notFound(`No signing secret ${fingerprint} on this workflow.`, 'Reload the trigger panel.');
      const { workflow } = await service('workflows').update(principal, instanceId, workflowId, { signingSecrets: kept });
      return withSecrets(instanceId, workflow);
    },

    /** A page of an instance's executions, newest first. */
    async executions(
      instanceId: string,
      query: { page: number; pageSize: number; workflowId?: string; status?: string },
    ): Promise<{ results: AdminExecution[]; pagination: Pagination }> {
      await instanceOwner(instanceId);
      const { rows, total } = await executions.page(instanceId, query);
      return { results: rows.map(executionSummary), pagination: paginationOf(query.page, query.pageSize, total) };
    },

    /** The newest failed executions of every instance, with their instance's and workflow's names (the home widget). */
    async failedExecutions(limit: number): Promise<AdminFailedExecution[]> {
      const rows = await executions.failedWithNames(limit);
      return rows.map((r: any) => {
        const error = fromJson(r.error) as { message?: string } | null;
        return {
          executionId: r.document_id,
          instance: { id: r.instance_id, name: r.instance_name ?? r.instance_id },
          workflow: { id: r.workflow_id, name: r.workflow_name ?? null },
          failedAt: iso(r.finished_at ?? r.updated_at)!,
          error: typeof error?.message === 'string' ? error.message : null,
        };
      });
    },

    async execution(instanceId: string, executionId: string): Promise<AdminExecutionDetail> {
      const row = await executions.row(instanceId, executionId);
      if (!row) throw notFound(`No execution with id ${executionId} in this process instance.`, 'Reload the executions table.');
      return {
        ...executionSummary(row),
        input: fromJson(row.input),
        output: fromJson(row.output),
        error: fromJson(row.error) as AdminExecutionDetail['error'],
        replayOf: row.replay_of ?? null,
        startedWith: row.started_with ?? null,
        callback: row.callback_status
          ? { status: row.callback_status, attempts: Number(row.callback_attempts ?? 0), lastError: row.callback_last_error ?? null }
          : null,
      };
    },
  };
  return admin;
};

const executionSummary = (row): AdminExecution => ({
  executionId: row.document_id,
  workflowId: row.workflow_id,
  status: row.status,
  createdAt: iso(row.created_at)!,
  startedAt: iso(row.started_at),
  finishedAt: iso(row.finished_at),
  attempts: Number(row.attempts),
  maxAttempts: Number(row.max_attempts),
});
