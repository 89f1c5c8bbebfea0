/**
 * Change sets (CONTRACT 23): the `reason` every write takes, the `changeSet` every write
 * answers, the change set record, and the inputs and answers of the changes, revert and
 * authorship routes (routes/changes.ts).
 */
import { z } from 'zod';
import { withHint } from '#kernel/parse';
import { timestamp } from '#kernel/schemas';
import { pageCursorQuery, pageLimitQuery } from './page-query';
import { actor } from './records';

export const REASON_MAX = 500;
export const RUN_MAX = 100;

/** Why a writer made a change: in the body of every write (or the Quire-Reason header). */
export const reasonField = z
  .string({ error: 'must be a string' })
  .max(REASON_MAX, `must be at most ${REASON_MAX} characters`)
  .optional()
  .describe(`Why you make this change (at most ${REASON_MAX} characters): kept with its change set. The Quire-Reason header works too.`);

/** The headers of every article write: its reason and run (routes/route.ts adds them to each write route). */
export const WRITE_HEADERS = {
  'Quire-Reason': { description: `Why you make this change (at most ${REASON_MAX} characters); a "reason" in the body wins.`, schema: z.string().max(REASON_MAX, `must be at most ${REASON_MAX} characters`).optional() },
  'Quire-Run': {
    description: `Groups this write's change set with others into one run (1 to ${RUN_MAX} characters), which can be listed (?run=) and reverted as one (POST /api/articles/{id}/changes/revert).`,
    schema: z.string().min(1, 'must not be empty').max(RUN_MAX, `must be at most ${RUN_MAX} characters`).optional(),
  },
};

export const changeSetRef = z
  .strictObject({ id: z.string(), anchor: z.string().describe('A unique prefix of the id among the article\'s change sets.') })
  .meta({ id: 'ChangeSetRef', description: 'The change set a write made (CONTRACT 23): GET /api/articles/{id}/changes/{anchor} shows it.' });

/** What every write answers beside its data (absent for dry runs and writes that changed nothing). */
export const withChangeSet = { changeSet: changeSetRef.optional().describe('The change set this write made (or, for a suggestion, its pending change set).') };

export const CHANGE_STATUSES = ['applied', 'pending', 'accepted', 'rejected', 'reverted'] as const;

export const diffPart = z.strictObject({ op: z.enum(['=', '+', '-']), text: z.string() }).meta({ id: 'WordDiffPart', description: '= kept, + inserted, - deleted (whitespace kept).' });

const changeSection = z.strictObject({
  anchor: z.string().describe('The section\'s anchor (of its id, for a section deleted since).'),
  title: z.string(),
  inserted: z.number().int().min(0).describe('Words inserted.'),
  deleted: z.number().int().min(0).describe('Words deleted.'),
  moved: z.literal(true).optional().describe('Present when the change moved the section.'),
  diff: z.array(diffPart).optional().describe('GET .../changes/{anchor} only: the word-level diff; = and - joined give the text before, = and + the text after (empty when the text was too large to keep).'),
});

export const changeSetRecord = z
  .strictObject({
    id: z.string(),
    anchor: z.string().describe('A unique prefix of the id among the article\'s change sets.'),
    by: actor,
    reason: z.string().nullable().describe('Why, as the writer said (reason or Quire-Reason).'),
    at: timestamp.describe('When (for coalesced typing: its last keystroke\'s save).'),
    status: z.enum(CHANGE_STATUSES).describe('applied; pending, accepted or rejected (a suggestion); reverted.'),
    run: z.string().nullable().describe('The Quire-Run it was made in.'),
    sections: z.array(changeSection).describe('The sections it changed, in the order it changed them.'),
    notes: z.array(z.strictObject({ id: z.string(), title: z.string() })).optional().describe('A change of the Brief: the notes it changed (id "premise": the premise).'),
    revertedBy: z.string().nullable().describe('The id of the change set that reverted it.'),
  })
  .meta({ id: 'ChangeSet', description: 'One write: who, why, when, and the sections it changed (CONTRACT 23).' });

const kind = z.enum(['agent', 'human', 'editor'], { error: 'must be agent, human or editor' });

export const listChangesQuery = withHint(
  z.object({
    since: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional().describe('Only change sets after this one (an anchor) or since this ISO time.'),
    by: kind.optional().describe('Only change sets by this kind of writer.'),
    run: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional().describe('Only the change sets of this run (Quire-Run).'),
    section: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a section anchor').optional().describe('Only change sets that changed this section (its anchor).'),
    limit: pageLimitQuery('How many (1 to 100, default 50).'),
    cursor: pageCursorQuery,
  }),
  'Pass since as an anchor or ISO time, by as agent, human or editor, limit as an integer from 1 to 100, and cursor as the nextCursor of the previous page.',
);

export const revertInput = withHint(
  z.strictObject({ dryRun: z.boolean().optional().describe('Show what would be reverted, write nothing.'), reason: reasonField }),
  'Pass {"dryRun"?: boolean, "reason"?: string}.',
);

export const revertRunInput = withHint(
  z.strictObject({
    run: z.string({ error: 'is required: the run (Quire-Run) to revert' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('The run whose change sets to revert.'),
    dryRun: z.boolean().optional().describe('Show what would be reverted, write nothing.'),
    reason: reasonField,
  }),
  'Pass {"run": "<the Quire-Run id>", "dryRun"?: boolean, "reason"?: string}.',
);

export const changeList = z.strictObject({
  changes: z.array(changeSetRecord).describe('Newest first.'),
  nextCursor: z.string().nullable().describe('Pass it as ?cursor= for the next page; null on the last page.'),
});
export const changeOnly = z.strictObject({ change: changeSetRecord });
export const revertConflict = z.strictObject({
  section: z.string().describe('The section\'s anchor.'),
  text: z.string().describe('The passage (what the change wrote there, or what it deleted).'),
  reason: z.string().describe('Why it was left as it is.'),
});
export const reverted = z.strictObject({
  change: changeSetRecord.nullable().describe('The revert, itself a change set (null for a dry run).'),
  reverted: z.array(z.string()).describe('The anchors of the change sets reverted (in part or in whole).'),
  conflicts: z.array(revertConflict).describe('Passages changed since, left as they are.'),
  ...withChangeSet,
});

export const authorSpans = z.strictObject({
  spans: z
    .array(
      z.strictObject({
        text: z.string(),
        by: actor.nullable().describe('Who wrote it; null for text older than change sets (or written with the article).'),
        change: z.string().nullable().describe('The id of the change set that wrote it (an id is also an anchor).'),
      }),
    )
    .describe('In order; joined, the texts are the section\'s text (its Markdown, heading included; its HTML for an html section).'),
});

export const authorship = z.strictObject({
  words: z.strictObject({ agent: z.number().int().min(0), human: z.number().int().min(0), editor: z.number().int().min(0) }).describe('The article\'s words by kind of writer.'),
  byName: z.array(z.strictObject({ name: z.string(), kind: kind, words: z.number().int().min(0) })).describe('By writer, most words first.'),
});

/** `POST .../suggestions/{anchor}/accept`: all of it, or the ops of some sections (the rest stays pending). */
export const acceptSuggestionInput = withHint(
  z.strictObject({
    sections: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be section anchors'))
      .min(1, 'must name at least one section')
      .max(100, 'must name at most 100 sections')
      .optional()
      .describe('Accept only the operations that change these sections (anchors); the rest stays pending.'),
    reason: reasonField,
  }),
  'Pass {"sections"?: [section anchors]}, or no body to accept all of it.',
);
