/** Input schemas of the suggestion routes. */
import { z } from 'zod';
import { withHint } from '#kernel/parse';
import { reasonField } from '../change-sets';
import { MAX_EDIT_OPS, opsField } from './edits';
import { REASON_NEXT } from './shared';

/** `POST .../suggestions`: ops as for edits, and a note for the reviewer. */
export const suggestInput = withHint(
  z.strictObject({ ops: opsField, note: z.string().max(2_000, 'must be at most 2,000 characters').nullish().transform((v) => v ?? null), reason: reasonField }),
  (field) => (field === 'reason' ? REASON_NEXT : field === 'note' ? 'Pass note as a short string for the reviewer.' : `Pass "ops": a list of 1 to ${MAX_EDIT_OPS} operations.`),
);

/** `POST .../suggestions/{anchor}/reject`: all of it, or the ops of some sections (the rest stays pending). */
export const rejectSuggestionInput = withHint(
  z.strictObject({
    reason: z.string().max(2_000, 'must be at most 2,000 characters').nullish().transform((v) => v ?? null),
    sections: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be section anchors'))
      .min(1, 'must name at least one section')
      .max(100, 'must name at most 100 sections')
      .optional()
      .describe('Reject only the operations that change these sections (anchors of sections it changes); the rest stays pending.'),
  }),
  (field) => (field.startsWith('sections') ? 'Pass sections as a list of the anchors of sections this suggestion changes, or leave it out to reject all of it.' : 'Pass reason as a short string, or leave it out.'),
);

export const SUGGESTION_STATUSES = ['pending', 'accepted', 'rejected', 'stale'] as const;
export const listSuggestionsQuery = withHint(
  z.object({ status: z.enum(SUGGESTION_STATUSES, { error: `must be one of ${SUGGESTION_STATUSES.join(', ')}` }).optional().describe('Only suggestions with this status.') }),
  `Pass status as one of ${SUGGESTION_STATUSES.join(', ')}, or leave it out.`,
);
