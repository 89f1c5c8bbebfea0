/**
 * The trigger service's credentials, taught to the kernel's authenticator (kernel/auth.ts) in
 * the plugin's register, and the target checks of the trigger and status routes.
 *
 * - `organization-key`: `X-Process-Manager-Key: cko_...` (or `Authorization: Bearer cko_...`,
 *   which MCP clients send), any instance of its organization;
 * - `instance-key`: `X-API-Key: ck_...`, its instance;
 * - `instance-key-query`: `?api_key=ck_...` (taken out of the URL before the logger sees it);
 * - `webhook-signature`: Standard Webhooks headers, verified against the raw body and each
 *   signing secret of the workflow the URL names.
 *
 * The trigger route tries them in the contract's order (signature, organization key, instance
 * key, query key); the first that grants this instance and workflow wins, and a refusal says
 * why the first one presented failed, in the same words whether or not the ids exist.
 */
import { randomBytes } from 'node:crypto';
import { appRateLimits } from '#kernel/rate-limit';
import type { Core } from '@strapi/strapi';
import { bearerToken, headerValue, registerCredential, type AuthRequest, type Caller, type SecurityScheme } from '#kernel/auth';
import type { InstanceCaller } from '../../../../contracts/credentials';
import { notFound, rateLimited } from '#kernel/errors';
import { INSTANCE_KEY_PREFIX, keyKind, ORGANIZATION_KEY_PREFIX } from './domain/keys';
import { decodeSigningSecret, SIGNATURE_FAILURE_MESSAGES, signatureHeadersOf, verify } from './domain/signature';
import type { TriggerWorkflow } from './services/workflows';
import { getService } from './services/get-service';

/**
 * How the API description (OpenAPI) presents these credentials: one security scheme per kind,
 * registered with each (scripts/openapi.js reads them too, to write docs/openapi.json).
 */
export const TRIGGER_CREDENTIAL_SCHEMES = {
  'organization-key': {
    name: 'organizationKey',
    scheme: { type: 'apiKey', in: 'header', name: 'X-Process-Manager-Key', description: `An organization key (${ORGANIZATION_KEY_PREFIX}...): every process instance of its organization.` },
  },
  'instance-key': {
    name: 'instanceKey',
    scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: `A process instance's key (${INSTANCE_KEY_PREFIX}...): that instance only.` },
  },
  'instance-key-query': {
    name: 'instanceKeyQuery',
    scheme: { type: 'apiKey', in: 'query', name: 'api_key', description: 'The instance key as a query parameter (never written to logs).' },
  },
  'webhook-signature': {
    name: 'webhookSignature',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'webhook-signature',
      description:
        'Standard Webhooks: `webhook-id`, `webhook-timestamp` (within 5 minutes) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`, space-separated for several), signed with one of the workflow\'s secrets over the exact body.',
    },
  },
} as const satisfies Record<'organization-key' | 'instance-key' | 'instance-key-query' | 'webhook-signature', SecurityScheme>;

const ORGANIZATION_KEY_NEXT =
  'Send a valid organization key (POST /api/organizations/{id}/keys) or leave the header out and use your own credential.';
export const TRIGGER_NEXT =
  'Send the instance key as X-API-Key (or ?api_key=), an organization key as X-Process-Manager-Key, or sign the request with one of the workflow\'s secrets (Standard Webhooks).';
export const STATUS_NEXT = 'Send the instance key as X-API-Key (or ?api_key=), or an organization key as X-Process-Manager-Key.';

const DUMMY_KEY = randomBytes(32);

/**
 * Failed signature checks per client address: more than 30 in a minute refuses that address's
 * signed requests for 5 minutes (429), before any verification work. Only failures count.
 */
export const SIGNATURE_FAILURE_LIMIT = { points: 30, durationSec: 60, blockDurationSec: 300 };
const SIGNATURE_LIMITED = 'Too many failed signature checks from this address.';

const where = (caller: InstanceCaller | { credential: 'instance-key' | 'instance-key-query' }) =>
  caller.credential === 'instance-key' ? 'X-API-Key' : 'the api_key query parameter';
const doesNotGrant = (place: string) => `The key in ${place} does not grant this process instance (unknown, regenerated, or another instance's).`;
const ORG_SCOPE = 'The organization key does not grant this process instance.';

/** The workflow a trigger URL names, loaded at most once per request. */
function workflowOf(strapi: Core.Strapi, request: AuthRequest): Promise<TriggerWorkflow | null> {
  const { processInstanceId, workflowId } = request.params;
  let found = request.memo.get('workflow') as Promise<TriggerWorkflow | null> | undefined;
  if (!found) {
    found = getService(strapi, 'workflows').findForTrigger(processInstanceId, workflowId) as Promise<TriggerWorkflow | null>;
    request.memo.set('workflow', found);
  }
  return found;
}

export function registerTriggerCredentials(strapi: Core.Strapi): void {
  const service = <K extends Parameters<typeof getService>[1]>(name: K) => getService(strapi, name);

  registerCredential(strapi, 'organization-key', {
    scheme: TRIGGER_CREDENTIAL_SCHEMES['organization-key'],
    async verify(request) {
      // A Bearer value is this credential's only when it says so (cko_): the rest are users' tokens.
      const bearer = bearerToken(request);
      const header = headerValue(request.headers['x-process-manager-key']);
      const value = header ?? (bearer?.startsWith(ORGANIZATION_KEY_PREFIX) ? bearer : undefined);
      if (value === undefined) return undefined;
      const place = header === undefined ? 'Authorization' : 'X-Process-Manager-Key';
      if (keyKind(value) !== 'organization') {
        return { refused: `${place} is not an organization key (cko_ followed by 43 characters).`, nextAction: ORGANIZATION_KEY_NEXT };
      }
      const granted = await service('organizations').verifyKey(value);
      if (!granted) return { refused: `The organization key in ${place} is not valid (revoked, or never issued).`, nextAction: ORGANIZATION_KEY_NEXT };
      return {
        caller: { kind: 'organization', credential: 'organization-key', organizationId: granted.organizationId, userId: granted.userId, keyId: granted.keyId, scope: 'write' },
      };
    },
  });

  const instanceKey = (credential: 'instance-key' | 'instance-key-query', read: (request: AuthRequest) => string | undefined | null) => ({
    scheme: TRIGGER_CREDENTIAL_SCHEMES[credential],
    async verify(request: AuthRequest) {
      const value = read(request);
      if (value === null) return undefined;
      const place = where({ credential });
      if (value === undefined || keyKind(value) !== 'instance') return { refused: `${place} is not an instance key (ck_ followed by 43 characters).` };
      // On a trigger URL the workflow it names comes with the key's lookup, for the route's target check.
      const { processInstanceId, workflowId } = request.params;
      const trigger = processInstanceId && workflowId ? { instanceId: processInstanceId, workflowId } : undefined;
      const instance = await service('instances').findByKey(value, trigger);
      if (!instance) return { refused: doesNotGrant(place) };
      if (trigger && instance.workflow !== undefined && !request.memo.has('workflow')) request.memo.set('workflow', Promise.resolve(instance.workflow));
      return { caller: { kind: 'instance' as const, credential, instanceId: instance.documentId as string, userId: instance.userId as number, scope: 'write' as const } };
    },
  });
  // null: not presented. Several api_key values are no key at all.
  registerCredential(strapi, 'instance-key', instanceKey('instance-key', (r) => headerValue(r.headers['x-api-key']) ?? null));
  registerCredential(
    strapi,
    'instance-key-query',
    instanceKey('instance-key-query', (r) => (r.queryKeys.length ? (r.queryKeys.length === 1 ? r.queryKeys[0] : undefined) : null)),
  );

  registerCredential(strapi, 'webhook-signature', {
    scheme: TRIGGER_CREDENTIAL_SCHEMES['webhook-signature'],
    async verify(request) {
      const signature = signatureHeadersOf(request.headers);
      if (!signature) return undefined;
      const limits = appRateLimits(strapi);
      const failureKey = `ip:${request.ip ?? 'unknown'}`;
      const blocked = await limits.blockedFor('webhook-signature-failure', failureKey, SIGNATURE_FAILURE_LIMIT);
      if (blocked) throw rateLimited(blocked, SIGNATURE_LIMITED);
      const found = await workflowOf(strapi, request);
      const keys = found ? (service('vault').openSigningSecrets(found.secretsCiphertext) as string[]).map(decodeSigningSecret).filter((k): k is Buffer => k !== null) : [];
      // Header and timestamp checks come first, so their answers do not depend on whether the workflow exists.
      // A missing workflow is checked against a throwaway key, so it costs the same time as a wrong signature.
      const result = verify(request.rawBody ?? Buffer.alloc(0), signature, keys.length ? keys : [DUMMY_KEY], Math.floor(Date.now() / 1000));
      if (!result.ok || !found) {
        await limits.consume('webhook-signature-failure', failureKey, SIGNATURE_FAILURE_LIMIT, 1, SIGNATURE_LIMITED);
        return { refused: SIGNATURE_FAILURE_MESSAGES[result.ok ? 'no-matching-signature' : result.reason] };
      }
      return {
        caller: { kind: 'signature', credential: 'webhook-signature', instanceId: found.instanceId, workflowId: found.documentId, scope: 'write', target: found },
      };
    },
  });
}

/**
 * The trigger route's target check: the caller grants the instance and the workflow of the URL.
 * With a credential that grants the instance, a missing workflow is 404; the workflow found is
 * left in `caller.target`.
 */
export async function triggerGrants(caller: Caller, request: AuthRequest, strapi: Core.Strapi): Promise<string | null> {
  const { processInstanceId } = request.params;
  const missingWorkflow = () =>
    notFound(`No workflow with id ${request.params.workflowId} in this process instance.`, 'Check the trigger URL (GET /api/process-instances/{id}/workflows lists them).');
  switch (caller.kind) {
    case 'signature':
      return null; // verified against this very workflow's secrets
    case 'organization': {
      const found = await workflowOf(strapi, request);
      if (found && found.organizationId === caller.organizationId) {
        caller.target = found;
        return null;
      }
      if (!found && (await getService(strapi, 'instances').inOrganization(processInstanceId, caller.organizationId))) throw missingWorkflow();
      return ORG_SCOPE;
    }
    case 'instance': {
      if (caller.instanceId !== processInstanceId) return doesNotGrant(where(caller));
      const found = await workflowOf(strapi, request);
      if (!found) throw missingWorkflow();
      caller.target = found;
      return null;
    }
    default:
      return 'This credential does not start workflows.';
  }
}

/** The status route's target check: an instance key of the instance, or an organization key of its organization. */
export async function statusGrants(caller: Caller, request: AuthRequest, strapi: Core.Strapi): Promise<string | null> {
  const { processInstanceId } = request.params;
  if (caller.kind === 'organization') {
    return (await getService(strapi, 'instances').inOrganization(processInstanceId, caller.organizationId)) ? null : ORG_SCOPE;
  }
  if (caller.kind === 'instance') return caller.instanceId === processInstanceId ? null : doesNotGrant(where(caller));
  return 'This credential does not read executions.';
}
