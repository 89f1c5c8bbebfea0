/** The paging query parameters that listings share (`limit`, `cursor`). */
import { z } from 'zod';

/** A page's `limit` query parameter: an integer from 1 to 100 given as text. */
export const pageLimitQuery = (describe: string) =>
  z
    .string()
    .regex(/^\d+$/, 'must be an integer from 1 to 100')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'must be an integer from 1 to 100')
    .optional()
    .describe(describe);

/** A page's `cursor` query parameter: the previous page's nextCursor. */
export const pageCursorQuery = z.string().min(1, 'must not be empty').optional().describe('The nextCursor of the previous page.');
