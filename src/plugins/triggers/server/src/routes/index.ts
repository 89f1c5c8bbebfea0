import { z } from 'zod';
import { RATE_LIMIT_HEADERS } from '#kernel/rate-limit';
import { adminRouter, contentApiRouter, header, rawBody, routeList } from '#kernel/routes';
import { adminInstanceRoutes, adminOrganizationRoutes } from './admin';
import { STATUS_NEXT, statusGrants, TRIGGER_NEXT, triggerGrants } from '../credentials';
import {
  createInstanceInput,
  createOrganizationInput,
  createOrganizationKeyInput,
  createWorkflowInput,
  listExecutionsQuery,
  listInstancesQuery,
  listSkillsQuery,
  statusQuery,
  triggerBody,
  updateWorkflowInput,
} from '../schemas/inputs';
import {
  executionPage,
  executionStatus,
  instanceList,
  instanceOnly,
  organizationKeyIssued,
  organizationKeyList,
  organizationKeyRevoked,
  organizationList,
  organizationOnly,
  replayed,
  skillList,
  triggered,
  workflowDeleted,
  workflowIssued,
  workflowList,
  workflowOnly,
} from '../schemas/responses';
import { route, USER_CREDENTIALS } from './route';

const organizationId = z.string().describe('The organization\'s id.');
const instanceParams = z.object({ pid: z.string().describe('The process instance\'s id.') });
const workflowParams = z.object({ pid: z.string().describe('The process instance\'s id.'), wid: z.string().describe('The workflow\'s id.') });

/** Organization keys are managed by the organization's owner only: an organization key is recognised, and refused (403). */
const KEY_ROUTE_CREDENTIALS = [...USER_CREDENTIALS, 'organization-key'] as const;
const KEYS_NOT_FOR_ORGANIZATION_KEYS = 'With a user\'s credential only; an organization key is refused with 403 permission-denied.';

export const organizationRoutes = route('organizations', 'Organizations', {
  create: {
    method: 'POST',
    path: '/api/organizations',
    summary: 'Create an organization',
    credentials: USER_CREDENTIALS,
    body: createOrganizationInput,
    responses: { 201: organizationOnly },
  },
  list: {
    method: 'GET',
    path: '/api/organizations',
    summary: 'List your organizations',
    credentials: USER_CREDENTIALS,
    responses: { 200: organizationList },
  },
  createKey: {
    method: 'POST',
    path: '/api/organizations/:orgId/keys',
    summary: 'Create an organization key (cko_, shown once)',
    description: KEYS_NOT_FOR_ORGANIZATION_KEYS,
    credentials: KEY_ROUTE_CREDENTIALS,
    params: z.object({ orgId: organizationId }),
    body: createOrganizationKeyInput,
    responses: { 201: organizationKeyIssued },
  },
  listKeys: {
    method: 'GET',
    path: '/api/organizations/:orgId/keys',
    summary: 'List an organization\'s keys (never their secrets)',
    description: KEYS_NOT_FOR_ORGANIZATION_KEYS,
    credentials: KEY_ROUTE_CREDENTIALS,
    params: z.object({ orgId: organizationId }),
    responses: { 200: organizationKeyList },
  },
  revokeKey: {
    method: 'DELETE',
    path: '/api/organizations/:orgId/keys/:keyId',
    summary: 'Revoke an organization key (it fails at once)',
    description: KEYS_NOT_FOR_ORGANIZATION_KEYS,
    credentials: KEY_ROUTE_CREDENTIALS,
    params: z.object({ orgId: organizationId, keyId: z.string().describe('The key\'s id.') }),
    responses: { 200: organizationKeyRevoked },
  },
});

export const instanceRoutes = route('instances', 'Process instances', {
  create: {
    method: 'POST',
    path: '/api/process-instances',
    summary: 'Create a process instance (with its ck_ key)',
    body: createInstanceInput,
    responses: { 201: instanceOnly },
    errors: ['not-found'],
  },
  list: {
    method: 'GET',
    path: '/api/process-instances',
    summary: 'List process instances',
    query: listInstancesQuery,
    responses: { 200: instanceList },
    errors: ['not-found'],
  },
  get: {
    method: 'GET',
    path: '/api/process-instances/:pid',
    summary: 'Get a process instance, with its key',
    params: instanceParams,
    responses: { 200: instanceOnly },
  },
  regenerateKey: {
    method: 'POST',
    path: '/api/process-instances/:pid/regenerate-key',
    summary: 'Give an instance a new key (the old one fails at once)',
    params: instanceParams,
    responses: { 200: instanceOnly },
  },
  createWorkflow: {
    method: 'POST',
    path: '/api/process-instances/:pid/workflows',
    summary: 'Create a workflow',
    params: instanceParams,
    body: createWorkflowInput,
    responses: { 201: workflowIssued },
  },
  listWorkflows: {
    method: 'GET',
    path: '/api/process-instances/:pid/workflows',
    summary: 'List an instance\'s workflows',
    params: instanceParams,
    responses: { 200: workflowList },
  },
  getWorkflow: {
    method: 'GET',
    path: '/api/process-instances/:pid/workflows/:wid',
    summary: 'Get a workflow',
    params: workflowParams,
    responses: { 200: workflowOnly },
  },
  updateWorkflow: {
    method: 'PATCH',
    path: '/api/process-instances/:pid/workflows/:wid',
    summary: 'Change a workflow (name, config, signing secrets, callback URL, enabled)',
    params: workflowParams,
    body: updateWorkflowInput,
    responses: { 200: workflowIssued },
  },
  rotateCallbackSecret: {
    method: 'POST',
    path: '/api/process-instances/:pid/workflows/:wid/rotate-callback-secret',
    summary: 'Give a workflow a new callback secret (shown once; the old one stops signing at once)',
    params: workflowParams,
    responses: { 200: workflowIssued },
    errors: ['invalid-argument'],
  },
  removeWorkflow: {
    method: 'DELETE',
    path: '/api/process-instances/:pid/workflows/:wid',
    summary: 'Delete a workflow',
    params: workflowParams,
    responses: { 200: workflowDeleted },
  },
  listExecutions: {
    method: 'GET',
    path: '/api/process-instances/:pid/executions',
    summary: 'List an instance\'s executions, newest first',
    params: instanceParams,
    query: listExecutionsQuery,
    responses: { 200: executionPage },
  },
  replay: {
    method: 'POST',
    path: '/api/process-instances/:pid/executions/:eid/replay',
    summary: 'Run an execution again: a new execution of the same workflow with the same input',
    params: z.object({ pid: z.string().describe('The process instance\'s id.'), eid: z.string().describe('The execution\'s id.') }),
    responses: { 202: replayed },
  },
});

export const skillRoutes = route('skills', 'Skills', {
  list: {
    method: 'GET',
    path: '/api/skills',
    summary: 'List an organization\'s skills: its enabled workflows, described and typed for agents',
    description: 'With an organization key (X-Process-Manager-Key): its organization. With a user\'s credential: ?organizationId= of an organization you own.',
    query: listSkillsQuery,
    responses: { 200: skillList },
    errors: ['not-found'],
  },
});

/** The trigger and status URLs: root routes, with the trigger credentials. */
export const triggerRoutes = route('trigger', 'Triggers', {
  trigger: {
    method: 'POST',
    path: '/webhook/:processInstanceId/:workflowId',
    summary: 'Start an execution of a workflow',
    description:
      'Credentials are tried in this order: a Standard Webhooks signature (webhook-* or svix-* headers), an organization key, the instance key (X-API-Key), the instance key as ?api_key=. A webhook-id or an Idempotency-Key accepted in the last 24 hours answers with the first execution (duplicate: true); an Idempotency-Key first sent with another body is 422.',
    credentials: ['webhook-signature', 'organization-key', 'instance-key', 'instance-key-query'],
    auth: { grants: triggerGrants, nextAction: TRIGGER_NEXT },
    params: z.object({ processInstanceId: z.string(), workflowId: z.string() }),
    body: rawBody(['application/json'], 'At most 1 MiB; signatures cover these exact bytes.', triggerBody),
    headers: {
      // As sent (the handler refuses an empty, long, repeated or odd one: 400 after the rate limit counted the call).
      'Idempotency-Key': header(
        'At most 255 visible characters: the same key with the same body within 24 hours answers with the first execution; with another body, 422.',
        z.union([z.string(), z.array(z.string())]).optional(),
      ),
      'webhook-id': 'Standard Webhooks: the delivery\'s id (also an idempotency key for 24 hours).',
      'webhook-timestamp': 'Standard Webhooks: Unix seconds, within 5 minutes of now.',
      'webhook-signature': 'Standard Webhooks: v1,<base64> entries, space-separated.',
      'svix-id': 'Read like webhook-id (senders that use Svix).',
      'svix-timestamp': 'Read like webhook-timestamp.',
      'svix-signature': 'Read like webhook-signature.',
    },
    responses: { 202: triggered },
    responseHeaders: RATE_LIMIT_HEADERS,
    errors: ['payload-too-large', 'unprocessable', 'rate-limited'],
  },
  status: {
    method: 'GET',
    path: '/status/:processInstanceId/:executionId',
    summary: 'An execution\'s status (optionally waiting for it to finish)',
    credentials: ['organization-key', 'instance-key', 'instance-key-query'],
    auth: { grants: statusGrants, nextAction: STATUS_NEXT },
    params: z.object({ processInstanceId: z.string(), executionId: z.string() }),
    query: statusQuery,
    responses: { 200: executionStatus },
    errors: ['rate-limited'],
  },
});

export const routes = routeList(organizationRoutes, instanceRoutes, skillRoutes, triggerRoutes, adminOrganizationRoutes, adminInstanceRoutes);

export default {
  admin: adminRouter('triggers', routes),
  'content-api': contentApiRouter('triggers', routes),
};
