import type { Core } from '@strapi/strapi';

/** What an action gets besides its input. */
export interface ActionContext {
  strapi: Core.Strapi;
  executionId: string;
  workflowId: string;
  instanceId: string;
  /** The owner of the process instance (a users-permissions user id). */
  userId: number;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  /** The workflow's config as it was when the execution was triggered. */
  config: Record<string, unknown>;
  /** Aborted when the attempt runs out of time (TRIGGER_ACTION_TIMEOUT_MS) or the server stops. */
  signal: AbortSignal;
}

/** What `parseConfig` and `parseInput` get besides the value. */
export interface ParseContext {
  strapi: Core.Strapi;
}

export interface ActionDefinition {
  /** One sentence for people choosing an action (the admin panel's workflow form). */
  description?: string;
  /** A config to start from, shown in the admin panel's JSON editor ({} when the action takes none). */
  configExample?: Record<string, unknown>;
  /** A payload the admin panel's Send test button triggers the workflow with. */
  inputExample?: unknown;
  /** Does the work; the resolved value becomes the execution's `output` (JSON). */
  run(input: unknown, context: ActionContext): unknown | Promise<unknown>;
  /**
   * Checks a workflow's `config` when it is created or changed and returns what to store;
   * throw `invalidArgument` (src/kernel/errors) naming the field. Default: any JSON object.
   */
  parseConfig?(config: unknown, context: ParseContext): Record<string, unknown>;
  /** Checks the input when the workflow is triggered (a 400 then, before any execution exists). */
  parseInput?(input: unknown, context: ParseContext): unknown;
  /** Attempts allowed for a config (default 1): retries happen when `run` throws a retryable ActionError. */
  maxAttempts?(config: Record<string, unknown>): number;
}

export type ActionHandler = ActionDefinition | ActionDefinition['run'];
