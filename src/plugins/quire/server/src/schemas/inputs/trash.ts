/** Input schemas of the trash routes. */
import { z } from 'zod';
import { rule, withHint } from '#kernel/parse';
import { reasonField } from '../change-sets';
import { anchorField, anchorNext } from './shared';

/** `POST .../trash/{anchor}/restore`: where the section goes back (the end when neither is given). */
export const restoreFromTrashInput = withHint(
  z
    .strictObject({ after: anchorField, before: anchorField, reason: reasonField })
    .refine((v) => v.after === undefined || v.before === undefined, rule('after and before were both given; pass at most one.', 'Pass "after" or "before", or neither to append at the end.')),
  (_field, { params }) => anchorNext(params),
);
