import type { CallerUser, Scope } from '../kernel/auth';

/**
 * The callers the plugins' credentials give, and which kind gives which (types only). The
 * kernel's authenticator knows no credential: each plugin registers its kinds in its `register`
 * (quire: services/auth.ts, triggers: credentials.ts), and this file tells the compiler what
 * each kind's caller is, so that a route of either plugin may accept the other's credentials
 * by kind and its handler is typed by them.
 */

/** A person (or an agent with their key): the API key, JWT, session cookie or OAuth token of a user. */
export interface UserCaller {
  kind: 'user';
  credential: 'api-key' | 'jwt' | 'session' | 'oauth';
  /** The user it acts as (the users-permissions user). */
  userId: number;
  user: CallerUser;
  /**
   * `key` for API keys and OAuth access tokens (agent credentials), `session` for JWTs and the
   * session cookie (GET /api/auth/me, CONTRACT 2). `credential` tells an OAuth token from a key.
   */
  via: 'key' | 'session';
  /** The API key's row id, when it came with one. */
  keyId?: number;
  /** The API key's public id (its record's `id`), when it came with one. */
  keyDocumentId?: string;
  /** True for a key issued by `quire login` (the person approved it with their session): it may manage keys. */
  keyFromLogin?: boolean;
  /** The OAuth client's name, for an OAuth access token (revisions name the agent by it). */
  clientName?: string;
  /** The key's scope; JWTs and sessions write. */
  scope: Scope;
  target?: unknown;
}

/** An organization key (X-Process-Manager-Key): any instance of its organization, for its owner. */
export interface OrganizationCaller {
  kind: 'organization';
  credential: 'organization-key';
  userId: number;
  organizationId: string;
  keyId: number;
  scope: Scope;
  /** What checking the route's target found (the workflow of a trigger), for the controller. */
  target?: unknown;
}

/** A process instance's key (X-API-Key or ?api_key=): that instance only. */
export interface InstanceCaller {
  kind: 'instance';
  credential: 'instance-key' | 'instance-key-query';
  userId: number;
  instanceId: string;
  scope: Scope;
  target?: unknown;
}

/** A request signed (Standard Webhooks) with one of the secrets of the workflow its URL names. */
export interface SignatureCaller {
  kind: 'signature';
  credential: 'webhook-signature';
  instanceId: string;
  workflowId: string;
  scope: Scope;
  target?: unknown;
}

declare module '../kernel/auth' {
  interface CredentialCallers {
    // quire: a user's credentials.
    'api-key': UserCaller;
    jwt: UserCaller;
    session: UserCaller;
    oauth: UserCaller;
    // triggers: organization and instance keys, signed webhooks.
    'organization-key': OrganizationCaller;
    'instance-key': InstanceCaller;
    'instance-key-query': InstanceCaller;
    'webhook-signature': SignatureCaller;
  }
}
