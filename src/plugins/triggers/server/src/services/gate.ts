import type { Core } from '@strapi/strapi';
import { randomBytes } from 'node:crypto';
import { notFound, unauthenticated } from '../../../../quire/server/src/domain/errors';
import { keyKind } from '../domain/keys';
import { decodeSigningSecret, SIGNATURE_FAILURE_MESSAGES, verify, type SignatureHeaders } from '../domain/signature';
import type { TriggerWorkflow } from './workflows';

/**
 * Credentials of the trigger and status routes. A request may present several; they are tried
 * in the contract's order (signature, organization key, instance key, `api_key` query value)
 * and the first that grants wins. When none does, the answer is 401 with the reason of the
 * first one presented, worded the same whether or not the ids exist.
 */

export interface Presented {
  /** Set when any of the three Standard Webhooks headers is present. */
  signature?: SignatureHeaders;
  organizationKey?: string;
  instanceKey?: string;
  /** Every `api_key` value of the query string (taken out of the URL before logging). */
  queryKeys?: string[];
}

export interface TriggerGrant {
  workflow: TriggerWorkflow;
  via: 'signature' | 'organization-key' | 'instance-key' | 'query-key';
}

const NEXT_TRIGGER =
  'Send the instance key as X-API-Key (or ?api_key=), an organization key as X-Process-Manager-Key, or sign the request with one of the workflow\'s secrets (Standard Webhooks).';
const NEXT_STATUS = 'Send the instance key as X-API-Key (or ?api_key=), or an organization key as X-Process-Manager-Key.';

const DUMMY_KEY = randomBytes(32);

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/** What a request presents, from its headers and the query value set aside by the redact middleware. */
export function presented(ctx): Presented {
  const h = ctx.request.headers;
  const result: Presented = {};
  if (h['webhook-id'] !== undefined || h['webhook-timestamp'] !== undefined || h['webhook-signature'] !== undefined) {
    result.signature = { id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] };
  }
  if (h['x-process-manager-key'] !== undefined) result.organizationKey = header(h['x-process-manager-key']);
  if (h['x-api-key'] !== undefined) result.instanceKey = header(h['x-api-key']);
  const queryKeys: string[] | undefined = ctx.state.triggerQueryKeys;
  if (queryKeys?.length) result.queryKeys = queryKeys;
  return result;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const plugin = () => strapi.plugin('triggers');

  /** The instance a `ck_` key grants, or the reason it does not grant `instanceId`. */
  async function instanceKeyGrants(value: string | undefined, instanceId: string, where: string): Promise<string | null> {
    if (keyKind(value) !== 'instance') return `${where} is not an instance key (ck_ followed by 43 characters).`;
    const instance = await plugin().service('instances').findByKey(value);
    if (!instance || instance.documentId !== instanceId) return `The key in ${where} does not grant this process instance (unknown, regenerated, or another instance's).`;
    return null;
  }

  async function organizationKey(value: string | undefined) {
    if (keyKind(value) !== 'organization') return { reason: 'X-Process-Manager-Key is not an organization key (cko_ followed by 43 characters).' } as const;
    const granted = await plugin().service('organizations').verifyKey(value);
    if (!granted) return { reason: 'The organization key in X-Process-Manager-Key is not valid (revoked, or never issued).' } as const;
    return { organizationId: granted.organizationId as string } as const;
  }

  const orgScopeReason = 'The organization key does not grant this process instance.';

  return {
    async authorizeTrigger(request: Presented, rawBody: Buffer, instanceId: string, workflowId: string): Promise<TriggerGrant> {
      let loaded: Promise<TriggerWorkflow | null> | undefined;
      const workflow = () => (loaded ??= plugin().service('workflows').findForTrigger(instanceId, workflowId));
      const missingWorkflow = () => notFound(`No workflow with id ${workflowId} in this process instance.`, 'Check the trigger URL (GET /api/process-instances/{id}/workflows lists them).');
      const reasons: string[] = [];

      if (request.signature) {
        const found = await workflow();
        const keys = found ? (plugin().service('vault').openSigningSecrets(found.secretsCiphertext) as string[]).map(decodeSigningSecret).filter((k): k is Buffer => k !== null) : [];
        // Header and timestamp checks come first, so their answers do not depend on whether the workflow exists.
        // A missing workflow is checked against a throwaway key, so it costs the same time as a wrong signature.
        const result = verify(rawBody, request.signature, keys.length ? keys : [DUMMY_KEY], Math.floor(Date.now() / 1000));
        if (result.ok && found) return { workflow: found, via: 'signature' };
        reasons.push(SIGNATURE_FAILURE_MESSAGES[result.ok ? 'no-matching-signature' : result.reason]);
      }

      if (request.organizationKey !== undefined) {
        const org = await organizationKey(request.organizationKey);
        if ('organizationId' in org) {
          const found = await workflow();
          if (found && found.organizationId === org.organizationId) return { workflow: found, via: 'organization-key' };
          if (!found && (await plugin().service('instances').inOrganization(instanceId, org.organizationId))) throw missingWorkflow();
          reasons.push(orgScopeReason);
        } else {
          reasons.push(org.reason);
        }
      }

      const keyed: Array<[string | undefined, string, TriggerGrant['via']]> = [];
      if (request.instanceKey !== undefined) keyed.push([request.instanceKey, 'X-API-Key', 'instance-key']);
      if (request.queryKeys) keyed.push([request.queryKeys.length === 1 ? request.queryKeys[0] : undefined, 'the api_key query parameter', 'query-key']);
      for (const [value, where, via] of keyed) {
        const reason = await instanceKeyGrants(value, instanceId, where);
        if (reason) {
          reasons.push(reason);
          continue;
        }
        const found = await workflow();
        if (!found) throw missingWorkflow();
        return { workflow: found, via };
      }

      throw unauthenticated(reasons[0] ?? 'No credential was sent.', NEXT_TRIGGER);
    },

    /** For the status route: an instance key of the instance, or an organization key of its organization. */
    async authorizeInstance(request: Presented, instanceId: string): Promise<void> {
      const reasons: string[] = [];
      if (request.organizationKey !== undefined) {
        const org = await organizationKey(request.organizationKey);
        if ('organizationId' in org) {
          if (await plugin().service('instances').inOrganization(instanceId, org.organizationId)) return;
          reasons.push(orgScopeReason);
        } else {
          reasons.push(org.reason);
        }
      }
      if (request.instanceKey !== undefined) {
        const reason = await instanceKeyGrants(request.instanceKey, instanceId, 'X-API-Key');
        if (!reason) return;
        reasons.push(reason);
      }
      if (request.queryKeys) {
        const reason = await instanceKeyGrants(request.queryKeys.length === 1 ? request.queryKeys[0] : undefined, instanceId, 'the api_key query parameter');
        if (!reason) return;
        reasons.push(reason);
      }
      throw unauthenticated(reasons[0] ?? 'No credential was sent.', NEXT_STATUS);
    },
  };
};
