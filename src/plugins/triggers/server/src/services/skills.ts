import type { Core } from '@strapi/strapi';
import { createHash } from 'node:crypto';
import { appRateLimits } from '#kernel/rate-limit';
import { publicUrl } from '#kernel/config';
import { invalidArgument, notFound } from '#kernel/errors';
import type { SkillCallResult, SkillRecord } from '../../../../../contracts/plugin-services';
import { isFinal } from '../domain/execution-status';
import { fromJson } from '../repositories/records';
import type { Principal } from '../domain/principal';
import { skillNames } from '../domain/skills';
import { MAX_WAIT_SECONDS } from '../schemas/inputs';
import { triggersConfig } from '../config';
import { orgNotFound } from './organizations';
import { workflowsRepository } from '../repositories/workflows';
import { getService } from './get-service';

interface SkillRow extends SkillRecord {
  enabled: boolean;
}

/**
 * Skills (CONTRACT 21): the workflows of an organization's instances, described and typed,
 * as agents find them (GET /api/skills, MCP tools) and call them.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const workflows = workflowsRepository(strapi);

  /** Every workflow of the organization as a skill (disabled ones too: names are given over all of them). */
  async function all(organizationId: string): Promise<SkillRow[]> {
    const rows = await workflows.ofOrganization(organizationId);
    const names = skillNames(rows.map((r) => ({ workflowId: r.workflowId, workflowName: r.name, instanceName: r.instanceName })));
    const base = publicUrl(strapi);
    return rows.map((r) => ({
      name: names.get(r.workflowId)!,
      title: r.name,
      description: r.description ?? null,
      inputSchema: (fromJson(r.inputSchema) as Record<string, unknown> | null) ?? null,
      processInstanceId: r.instanceId,
      workflowId: r.workflowId,
      triggerUrl: `${base}/webhook/${r.instanceId}/${r.workflowId}`,
      enabled: r.enabled,
    }));
  }

  const record = ({ enabled: _enabled, ...skill }: SkillRow): SkillRecord => skill;

  /** What a call ends with: the output, the error, or where to poll while it runs. */
  function resultOf(
    ids: { executionId: string; workflowId: string; processInstanceId: string; duplicate: boolean },
    execution: { status: string; output?: unknown; error?: { code: string; message: string } | null } | null,
    startedStatus: string,
    statusUrl: string,
  ): SkillCallResult {
    const status = execution?.status ?? startedStatus;
    if (execution && isFinal(status)) {
      return status === 'success'
        ? { ...ids, status: 'success', output: execution.output }
        : { ...ids, status: 'failed', error: execution.error ?? { code: 'failed', message: 'The execution failed.' } };
    }
    return { ...ids, status: status as 'pending' | 'running', statusUrl };
  }

  const service = {
    /** The organization's skills: one per enabled workflow, in the order they were created. */
    async list(organizationId: string): Promise<SkillRecord[]> {
      return (await all(organizationId)).filter((s) => s.enabled).map(record);
    },

    /** Each workflow's skill name in the organization, by workflow id (the admin panel shows them). */
    async namesOf(organizationId: string): Promise<Map<string, string>> {
      return new Map((await all(organizationId)).map((s) => [s.workflowId, s.name]));
    },

    /** GET /api/skills: an organization key's organization, or one the user owns (`organizationId`). */
    async listFor(principal: Principal, organizationId: string | undefined): Promise<SkillRecord[]> {
      if (principal.kind === 'organization') {
        if (organizationId !== undefined && organizationId !== principal.organizationId) throw orgNotFound(organizationId);
        return service.list(principal.organizationId);
      }
      if (organizationId === undefined) {
        throw invalidArgument('organizationId is required with a user\'s credential.', 'Pass ?organizationId= (GET /api/organizations lists yours), or call with the organization key as X-Process-Manager-Key.');
      }
      await getService(strapi, 'organizations').owned(principal.userId, organizationId);
      return service.list(organizationId);
    },

    /**
     * Runs a skill as its organization's key would trigger it (`POST /webhook/...` with
     * X-Process-Manager-Key): the input is checked against the workflow's inputSchema first
     * (400, nothing runs), then the execution waits up to `waitSeconds` (default and at most 30).
     * The result: the output, the execution's error, or where to poll while it still runs.
     */
    async call(
      organizationId: string,
      name: string,
      input: unknown,
      options: { idempotencyKey?: string; waitSeconds?: number } = {},
    ): Promise<SkillCallResult> {
      const skill = (await all(organizationId)).find((s) => s.name === name);
      if (!skill) throw notFound(`No skill named ${name} in this organization.`, 'List the skills again (GET /api/skills): a workflow may have been deleted or renamed.');
      if (!skill.enabled) {
        throw notFound(`The skill ${name} is disabled (its workflow ${skill.workflowId} is not enabled).`, 'List the skills again (GET /api/skills), or ask the organization\'s owner to enable the workflow.');
      }
      // The trigger route's limit, on the same counter: a skill call is a trigger by another door.
      await appRateLimits(strapi).consume(
        'trigger',
        skill.processInstanceId,
        { points: triggersConfig(strapi).rateLimitPerMinute, durationSec: 60 },
        1,
        'Too many triggers for this process instance.',
      );
      const workflow = await getService(strapi, 'workflows').findForTrigger(skill.processInstanceId, skill.workflowId);
      if (!workflow?.enabled) throw notFound(`The skill ${name} is disabled or was deleted meanwhile.`, 'List the skills again (GET /api/skills).');
      const text = JSON.stringify(input ?? null);
      const started = await getService(strapi, 'starts').start(workflow, input ?? null, {
        base: 'input',
        bytes: Buffer.byteLength(text, 'utf8'),
        startedWith: 'organization-key',
        idempotencyKey: options.idempotencyKey,
        bodyHash: options.idempotencyKey === undefined ? undefined : createHash('sha256').update(text, 'utf8').digest('base64url'),
      });
      const waitMs = Math.min(options.waitSeconds ?? MAX_WAIT_SECONDS, MAX_WAIT_SECONDS) * 1000;
      const execution = await getService(strapi, 'runner').waitFor(skill.processInstanceId, started.executionId, waitMs);
      const ids = { executionId: started.executionId, workflowId: skill.workflowId, processInstanceId: skill.processInstanceId, duplicate: started.duplicate };
      return resultOf(ids, execution, started.status, started.statusUrl);
    },

    /** The skill of that name among the enabled workflows of the organizations the user owns, oldest organization first. */
    async findForOwner(userId: number, name: string): Promise<{ organizationId: string; skill: SkillRecord } | null> {
      for (const organization of await getService(strapi, 'organizations').list(userId)) {
        const skill = (await service.list(organization.id)).find((s) => s.name === name);
        if (skill) return { organizationId: organization.id, skill };
      }
      return null;
    },

    /** A call's execution once finished, or as it is after `waitMs`; null when it is gone or not the organization's. */
    async outcome(organizationId: string, ids: { processInstanceId: string; workflowId: string; executionId: string }, waitMs: number): Promise<SkillCallResult | null> {
      if (!(await all(organizationId)).some((s) => s.processInstanceId === ids.processInstanceId && s.workflowId === ids.workflowId)) return null;
      const execution = await getService(strapi, 'runner').waitFor(ids.processInstanceId, ids.executionId, waitMs);
      if (!execution) return null;
      const statusUrl = `${publicUrl(strapi)}/status/${ids.processInstanceId}/${ids.executionId}`;
      return resultOf({ ...ids, duplicate: false }, execution, execution.status, statusUrl);
    },
  };
  return service;
};
