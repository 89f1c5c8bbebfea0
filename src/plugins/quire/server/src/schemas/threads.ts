/**
 * Threads (CONTRACT 24): comments on quoted text. Inputs, records and the routes' answers in one
 * file (the routes in routes/threads.ts name them; the CLI takes its types from here).
 */
import { z } from 'zod';
import { withHint } from '#kernel/parse';
import { timestamp } from '#kernel/schemas';
import { actor } from './records';

export const QUOTE_MAX = 500;
export const COMMENT_MAX = 10_000;
export const THREAD_STATUSES = ['open', 'resolved'] as const;
export const EXECUTION_STATES = ['pending', 'running', 'success', 'failed', 'not-found', 'refused', 'limited'] as const;

const body = z
  .string({ error: 'must be a string of Markdown' })
  .refine((v) => v.trim().length > 0, 'must not be empty')
  .refine((v) => v.length <= COMMENT_MAX, `must be at most ${COMMENT_MAX.toLocaleString('en')} characters`)
  .describe(`The comment, in Markdown (1 to ${COMMENT_MAX.toLocaleString('en')} characters). Mention a skill of your organization with @name to start it on the thread.`);

const BODY_HINT = `Pass "body": the comment in Markdown, 1 to ${COMMENT_MAX.toLocaleString('en')} characters.`;

/** `POST /api/articles/{id}/threads`. */
export const createThreadInput = withHint(
  z.strictObject({
    section: z.string({ error: 'must be a section anchor' }).regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a section anchor').describe('The anchor of the section the quote is in.'),
    quote: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .max(QUOTE_MAX, `must be at most ${QUOTE_MAX} characters`)
      .describe(`The text the thread is about, exactly as a reader sees it in the section (1 to ${QUOTE_MAX} characters; no Markdown or HTML).`),
    body,
    occurrence: z.number().int('must be a whole number').min(1, 'must be at least 1').max(10_000, 'must be at most 10000').optional().describe('Which occurrence of the quote in the section (default 1).'),
  }),
  (field) =>
    field === 'section'
      ? 'Pass "section": the anchor of a section (GET /api/articles/{id}/outline lists them).'
      : field === 'quote'
        ? `Pass "quote": 1 to ${QUOTE_MAX} characters of the section's text, as a reader sees it.`
        : field === 'occurrence'
          ? 'Pass "occurrence" as a whole number from 1, or leave it out for the first.'
          : BODY_HINT,
);

/** `POST .../threads/{anchor}/comments`. */
export const commentInput = withHint(z.strictObject({ body }), BODY_HINT);

/** `GET .../threads?status=&section=`. */
export const listThreadsQuery = withHint(
  z.object({
    status: z.enum(THREAD_STATUSES, { error: `must be one of ${THREAD_STATUSES.join(', ')}` }).optional().describe('Only threads with this status.'),
    section: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a section anchor').optional().describe('Only threads on this section (its anchor).'),
  }),
  (field) => (field === 'status' ? `Pass status as one of ${THREAD_STATUSES.join(', ')}, or leave it out.` : 'Pass section as a section anchor, or leave it out.'),
);

export const executionLink = z
  .strictObject({
    id: z.string().nullable().describe('The execution\'s id (null when none was started).'),
    skill: z.string().describe('The skill mentioned.'),
    status: z
      .enum(EXECUTION_STATES)
      .describe('pending, running, success or failed: the execution; not-found: no such skill in the article owner\'s organizations; refused: the skill would not start (its input schema, its rate limit); limited: the thread had its 5 agent replies this hour.'),
  })
  .meta({ id: 'ThreadExecution', description: 'A skill a comment mentioned, and what became of it.' });

export const commentRecord = z
  .strictObject({
    id: z.string(),
    body: z.string().describe('As written (Markdown).'),
    html: z.string().describe('Its sanitised rendering (no script, no event handlers).'),
    by: actor,
    at: timestamp,
    executions: z.array(executionLink).describe('The skills it mentioned and started (empty for most comments).'),
  })
  .meta({ id: 'ThreadComment', description: 'A comment in a thread.' });

export const threadRecord = z
  .strictObject({
    id: z.string(),
    anchor: z.string().describe('A unique prefix of the id among the article\'s threads.'),
    section: z.string().describe('The anchor of the section it is on (as in the outline).'),
    quote: z.string().describe('The text it is on, as a reader sees it now (it follows edits; a detached thread keeps its last quote).'),
    start: z.number().int().min(0).describe('Where the quote starts in the section\'s reader text (characters, UTF-16).'),
    end: z.number().int().min(0).describe('Where it ends (exclusive).'),
    status: z.enum(THREAD_STATUSES),
    detached: z.boolean().describe('True once all of its quoted text was deleted: the thread is kept, but no longer marks any text.'),
    comments: z.array(commentRecord).describe('Oldest first; the first is the one that opened the thread.'),
    createdAt: timestamp,
    by: actor,
    resolvedAt: timestamp.nullable(),
    resolvedBy: actor.nullable(),
  })
  .meta({ id: 'Thread', description: 'Comments on a quoted passage of a section.' });

export type ThreadRecord = z.infer<typeof threadRecord>;
export type CommentRecord = z.infer<typeof commentRecord>;
export type ExecutionLink = z.infer<typeof executionLink>;

export const threadOnly = z.strictObject({ thread: threadRecord });
export const threadList = z.strictObject({ threads: z.array(threadRecord).describe('In outline order, then oldest first; threads of deleted sections last.') });
export const commentOnly = z.strictObject({ comment: commentRecord });

/** The `data` of the threads routes, for the CLI. */
export const threadResponses = { threadOnly, threadList, commentOnly };
export type ThreadData<K extends keyof typeof threadResponses> = z.infer<(typeof threadResponses)[K]>;
