/**
 * Admin routes (the admin panel's API), served under the plugin's prefix: /triggers/... They
 * are called by the trigger panel (admin/src) with the signed-in admin's token; see
 * src/kernel/admin-routes.ts for the conventions and the error format. Reading needs
 * plugin::triggers.read; changing anything, and revealing an instance key, also
 * plugin::triggers.manage.
 */
import { z } from 'zod';
import { adminData, adminErrorAnswers, adminPage } from '#kernel/admin-routes';
import { TRIGGERS_ACTIONS } from '../permissions';
import {
  adminAction,
  adminAddSecretInput,
  adminCreateInstanceInput,
  adminCreateKeyInput,
  adminCreateOrganizationInput,
  adminCreateWorkflowInput,
  adminExecution,
  adminExecutionDetail,
  adminExecutionsQuery,
  adminInstanceKey,
  adminInstanceSummary,
  adminKeyIssued,
  adminOrganization,
  adminOrganizationDetail,
  adminOrganizationsQuery,
  adminSecretAdded,
  adminUpdateWorkflowInput,
  adminUser,
  adminUsersQuery,
  adminWorkflow,
  adminWorkflowIssued,
  adminReplayed,
  adminFailedExecution,
  adminFailedExecutionsQuery,
} from '../schemas/admin';
import { route } from './route';

const READ = { actions: [TRIGGERS_ACTIONS.read] };
const MANAGE = { actions: [TRIGGERS_ACTIONS.read, TRIGGERS_ACTIONS.manage] };
const organizationParams = z.object({ orgId: z.string().describe('The organization\'s id.') });
const instanceParams = z.object({ pid: z.string().describe('The process instance\'s id.') });
const workflowParams = instanceParams.extend({ wid: z.string().describe('The workflow\'s id.') });
const deleted = z.strictObject({ id: z.string() });

export const adminOrganizationRoutes = route('adminOrganizations', 'Admin panel', {
  list: {
    method: 'GET',
    path: '/triggers/organizations',
    summary: 'Every user\'s organizations, for the admin panel',
    admin: READ,
    query: adminOrganizationsQuery,
    responses: { 200: adminPage(adminOrganization, 'A page of organizations.'), ...adminErrorAnswers(400) },
  },
  users: {
    method: 'GET',
    path: '/triggers/users',
    summary: 'Users (users-permissions) to choose an organization\'s owner from',
    admin: MANAGE,
    query: adminUsersQuery,
    responses: { 200: adminData(z.array(adminUser), 'By username.'), ...adminErrorAnswers(400) },
  },
  create: {
    method: 'POST',
    path: '/triggers/organizations',
    summary: 'Create an organization owned by a user',
    admin: MANAGE,
    body: adminCreateOrganizationInput,
    responses: { 201: adminData(adminOrganizationDetail, 'The organization.'), ...adminErrorAnswers(400) },
  },
  get: {
    method: 'GET',
    path: '/triggers/organizations/:orgId',
    summary: 'An organization with its keys (never their secrets) and instances',
    admin: READ,
    params: organizationParams,
    responses: { 200: adminData(adminOrganizationDetail, 'The organization.'), ...adminErrorAnswers() },
  },
  createKey: {
    method: 'POST',
    path: '/triggers/organizations/:orgId/keys',
    summary: 'Create an organization key (cko_, shown once)',
    admin: MANAGE,
    params: organizationParams,
    body: adminCreateKeyInput,
    responses: { 201: adminData(adminKeyIssued, 'The key and its secret, this once.'), ...adminErrorAnswers(400) },
  },
  revokeKey: {
    method: 'DELETE',
    path: '/triggers/organizations/:orgId/keys/:keyId',
    summary: 'Revoke an organization key (it fails at once)',
    admin: MANAGE,
    params: organizationParams.extend({ keyId: z.string() }),
    responses: { 200: adminData(deleted, 'The revoked key\'s id.'), ...adminErrorAnswers() },
  },
  createInstance: {
    method: 'POST',
    path: '/triggers/organizations/:orgId/instances',
    summary: 'Create a process instance in an organization (with its key)',
    admin: MANAGE,
    params: organizationParams,
    body: adminCreateInstanceInput,
    responses: { 201: adminData(adminInstanceSummary, 'The instance, key masked.'), ...adminErrorAnswers(400) },
  },
});

export const adminInstanceRoutes = route('adminInstances', 'Admin panel', {
  failedExecutions: {
    method: 'GET',
    path: '/triggers/executions/failed',
    summary: 'The newest failed executions of every instance (the home page\'s widget)',
    admin: READ,
    query: adminFailedExecutionsQuery,
    responses: { 200: adminData(z.array(adminFailedExecution), 'Newest first.'), ...adminErrorAnswers(400) },
  },
  get: {
    method: 'GET',
    path: '/triggers/instances/:pid',
    summary: 'A process instance, key masked',
    admin: READ,
    params: instanceParams,
    responses: { 200: adminData(adminInstanceSummary, 'The instance.'), ...adminErrorAnswers() },
  },
  key: {
    method: 'GET',
    path: '/triggers/instances/:pid/key',
    summary: 'Reveal a process instance\'s key',
    admin: MANAGE,
    params: instanceParams,
    responses: { 200: adminData(adminInstanceKey, 'The key.'), ...adminErrorAnswers() },
  },
  regenerateKey: {
    method: 'POST',
    path: '/triggers/instances/:pid/regenerate-key',
    summary: 'Give an instance a new key (the old one fails at once)',
    admin: MANAGE,
    params: instanceParams,
    responses: { 200: adminData(adminInstanceSummary, 'The instance, new key masked.'), ...adminErrorAnswers() },
  },
  actions: {
    method: 'GET',
    path: '/triggers/actions',
    summary: 'The action registry, with descriptions and examples',
    admin: READ,
    responses: { 200: adminData(z.array(adminAction), 'By name.'), ...adminErrorAnswers() },
  },
  workflows: {
    method: 'GET',
    path: '/triggers/instances/:pid/workflows',
    summary: 'An instance\'s workflows, with their signing secrets\' fingerprints',
    admin: READ,
    params: instanceParams,
    responses: { 200: adminData(z.array(adminWorkflow), 'Oldest first.'), ...adminErrorAnswers() },
  },
  createWorkflow: {
    method: 'POST',
    path: '/triggers/instances/:pid/workflows',
    summary: 'Create a workflow (config checked by its action)',
    admin: MANAGE,
    params: instanceParams,
    body: adminCreateWorkflowInput,
    responses: { 201: adminData(adminWorkflowIssued, 'The workflow, and its callback secret (shown once) when it has a callback URL.'), ...adminErrorAnswers(400) },
  },
  updateWorkflow: {
    method: 'PUT',
    path: '/triggers/instances/:pid/workflows/:wid',
    summary: 'Change a workflow\'s name, config or enabled (the fields sent; PUT because the admin\'s fetch client has no PATCH)',
    admin: MANAGE,
    params: workflowParams,
    body: adminUpdateWorkflowInput,
    responses: { 200: adminData(adminWorkflowIssued, 'The workflow, and its callback secret (shown once) when a callback URL was first set.'), ...adminErrorAnswers(400) },
  },
  rotateCallbackSecret: {
    method: 'POST',
    path: '/triggers/instances/:pid/workflows/:wid/rotate-callback-secret',
    summary: 'Give a workflow a new callback secret (shown once; the old one stops signing at once)',
    admin: MANAGE,
    params: workflowParams,
    responses: { 200: adminData(adminWorkflowIssued, 'The workflow and its new callback secret, this once.'), ...adminErrorAnswers(400) },
  },
  removeWorkflow: {
    method: 'DELETE',
    path: '/triggers/instances/:pid/workflows/:wid',
    summary: 'Delete a workflow (its executions stay)',
    admin: MANAGE,
    params: workflowParams,
    responses: { 200: adminData(deleted, 'The deleted workflow\'s id.'), ...adminErrorAnswers() },
  },
  addSecret: {
    method: 'POST',
    path: '/triggers/instances/:pid/workflows/:wid/secrets',
    summary: 'Add a signing secret, pasted or generated (shown once)',
    admin: MANAGE,
    params: workflowParams,
    body: adminAddSecretInput,
    responses: { 201: adminData(adminSecretAdded, 'The workflow and the secret, this once.'), ...adminErrorAnswers(400) },
  },
  removeSecret: {
    method: 'DELETE',
    path: '/triggers/instances/:pid/workflows/:wid/secrets/:secretId',
    summary: 'Remove a signing secret (by its fingerprint)',
    admin: MANAGE,
    params: workflowParams.extend({ secretId: z.string() }),
    responses: { 200: adminData(adminWorkflow, 'The workflow.'), ...adminErrorAnswers() },
  },
  executions: {
    method: 'GET',
    path: '/triggers/instances/:pid/executions',
    summary: 'A page of an instance\'s executions, newest first',
    admin: READ,
    params: instanceParams,
    query: adminExecutionsQuery,
    responses: { 200: adminPage(adminExecution, 'A page of executions.'), ...adminErrorAnswers(400) },
  },
  execution: {
    method: 'GET',
    path: '/triggers/instances/:pid/executions/:eid',
    summary: 'An execution with its input, output and error',
    admin: READ,
    params: instanceParams.extend({ eid: z.string() }),
    responses: { 200: adminData(adminExecutionDetail, 'The execution.'), ...adminErrorAnswers() },
  },
  replay: {
    method: 'POST',
    path: '/triggers/instances/:pid/executions/:eid/replay',
    summary: 'Run an execution again: a new execution of the same workflow with the same input',
    admin: MANAGE,
    params: instanceParams.extend({ eid: z.string() }),
    responses: { 202: adminData(adminReplayed, 'The new execution.'), ...adminErrorAnswers() },
  },
});
