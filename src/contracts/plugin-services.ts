import type { z } from 'zod';

/**
 * What the quire plugin offers other plugins through `strapi.plugin('quire').service(name)`.
 * Plugins never import each other's files: the triggers plugin types those calls with this,
 * and the quire plugin checks at compile time that its services keep these shapes
 * (quire/server/src/services/contract.ts), so a change that would break a caller fails
 * `npm run compile` on the side that made it.
 */

/** A new article's fields, as the article API's create schema gives them. */
export interface QuireArticleFields {
  title: string;
  markdown?: string | null;
  premise?: string | null;
}

/** A new note's fields, as the article API's note schema gives them. */
export interface QuireNoteFields {
  kind: 'source' | 'decision' | 'idea' | 'question';
  title: string;
  body?: string | null;
  url?: string | null;
}

/** A strict zod object schema whose output has the fields of `T`. */
type StrictSchemaOf<T> = z.ZodObject<{ [K in keyof T]-?: z.ZodType<T[K]> }, z.core.$strict>;

export interface QuireServices {
  /** The article API's input schemas (same limits, same messages), for other plugins to extend. */
  inputs: { createArticle: StrictSchemaOf<QuireArticleFields>; createNote: StrictSchemaOf<QuireNoteFields>; limits: { markdown: number } };
  /** Creating an article for a user. */
  articles: { createArticle: (userId: number, input: QuireArticleFields) => Promise<{ article: { id: string } }> };
  /** Adding a note (written by an agent) to one of a user's articles. */
  notes: { add: (userId: number, articleId: string, input: QuireNoteFields, createdBy: 'agent') => Promise<{ note: { anchor: string } }> };
}

/** A skill (CONTRACT 21): an enabled workflow of an organization, as agents see it. */
export interface SkillRecord {
  /** `^[a-z0-9_]{1,64}$`, unique in the organization, made from the workflow's name. */
  name: string;
  /** The workflow's name. */
  title: string;
  description: string | null;
  /** JSON Schema 2020-12 of the input, or null (any input). */
  inputSchema: Record<string, unknown> | null;
  processInstanceId: string;
  workflowId: string;
  triggerUrl: string;
}

interface SkillCallIds {
  executionId: string;
  workflowId: string;
  processInstanceId: string;
  /** True when an idempotency key named an earlier call: nothing ran again. */
  duplicate: boolean;
}

/** What a skill call ends with: the output, the execution's error, or where to poll while it runs. */
export type SkillCallResult =
  | (SkillCallIds & { status: 'success'; output: unknown })
  | (SkillCallIds & { status: 'failed'; error: { code: string; message: string } })
  | (SkillCallIds & { status: 'pending' | 'running'; statusUrl: string });

/**
 * What the triggers plugin offers other plugins through `strapi.plugin('triggers').service(name)`
 * (the MCP server's tools for organization keys); the triggers plugin checks it at compile time
 * (triggers/server/src/services/contract.ts).
 */
export interface TriggersServices {
  skills: {
    /** The organization's skills: one per enabled workflow. */
    list: (organizationId: string) => Promise<SkillRecord[]>;
    /**
     * Triggers the skill's workflow as the organization's key would and waits up to
     * `waitSeconds` (default and at most 30). Throws the API's errors (ApiError): 404 for an
     * unknown or disabled skill, 400 for an input its inputSchema refuses (nothing runs), 422 for
     * an idempotency key first used with another input, 429 past the instance's trigger rate
     * limit (TRIGGER_RATE_LIMIT, the same counter as POST /webhook, in the app's rate limits).
     */
    call: (organizationId: string, name: string, input: unknown, options?: { idempotencyKey?: string; waitSeconds?: number }) => Promise<SkillCallResult>;
    /**
     * The skill named `name` among the enabled workflows of the organizations `userId` owns
     * (the oldest organization first), or null: what a mention in a thread starts (CONTRACT 24).
     */
    findForOwner: (userId: number, name: string) => Promise<{ organizationId: string; skill: SkillRecord } | null>;
    /**
     * A call's execution once it is finished, or as it is when `waitMs` runs out (polls the
     * database, so it sees executions finished by any process). Null when the execution is gone
     * or not the organization's.
     */
    outcome: (organizationId: string, ids: { processInstanceId: string; workflowId: string; executionId: string }, waitMs: number) => Promise<SkillCallResult | null>;
  };
}
