/** What the trigger service's routes answer: the `data` of each success envelope. */
import { z } from 'zod';
import { deletedId } from '#kernel/schemas';
import { executionRecord, instanceRecord, organizationKeyRecord, organizationRecord, skillRecord, workflowRecord } from './records';


export const organizationOnly = z.strictObject({ organization: organizationRecord });
export const organizationList = z.strictObject({ organizations: z.array(organizationRecord) });
export const organizationKeyIssued = z.strictObject({ key: organizationKeyRecord, secret: z.string().describe('The full key (cko_...), shown this once only.') });
export const organizationKeyList = z.strictObject({ keys: z.array(organizationKeyRecord) });
export const organizationKeyRevoked = deletedId('key');

export const instanceOnly = z.strictObject({ instance: instanceRecord });
export const instanceList = z.strictObject({ instances: z.array(instanceRecord) });
export const workflowOnly = z.strictObject({ workflow: workflowRecord });
/** A workflow as created, changed or rotated: with its callback secret when one was just made (shown this once). */
export const workflowIssued = z.strictObject({
  workflow: workflowRecord,
  callbackSecret: z.string().optional().describe('The callback signing secret (whsec_...), shown this once only: when a callbackUrl is first set, and on rotation.'),
});
export const workflowList = z.strictObject({ workflows: z.array(workflowRecord) });
export const workflowDeleted = deletedId('workflow');
export const executionPage = z.strictObject({
  executions: z.array(executionRecord).describe('Newest first.'),
  nextCursor: z.string().nullable().describe('Pass it as ?cursor= for the next page; null on the last page.'),
});

export const replayed = z.strictObject({
  executionId: z.string().describe('The new execution.'),
  status: z.enum(['pending', 'running', 'success', 'failed']),
  statusUrl: z.string(),
  replayOf: z.string().describe('The execution replayed.'),
});

export const triggered = z.strictObject({
  executionId: z.string(),
  status: z.enum(['pending', 'running', 'success', 'failed']).describe('pending for a new execution; a replayed delivery\'s current status.'),
  statusUrl: z.string().describe('GET it (with the instance key) for the execution\'s status.'),
  duplicate: z.boolean().describe('True when this webhook-id or Idempotency-Key was accepted before: nothing ran again.'),
});
export const executionStatus = executionRecord;

export const skillList = z.strictObject({ skills: z.array(skillRecord).describe('One per enabled workflow of the organization\'s instances, oldest first.') });
