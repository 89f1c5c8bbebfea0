/** Input schemas of the API key routes. */
import { z } from 'zod';
import { withHint } from '#kernel/parse';
import { KEY_SCOPES } from '../records';

/** An ISO-8601 date and time with a zone (Z or an offset). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/** `POST /api/keys`: the key's scope, and when it expires (the service checks that it is in the future). */
export const createKeyInput = withHint(
  z.strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
    scope: z.enum(KEY_SCOPES, { error: `must be one of ${KEY_SCOPES.join(', ')}` }).optional().describe('What the key may do: write (default), suggest or read.'),
    expiresAt: z
      .string()
      .refine((v) => ISO_TIME.test(v) && !Number.isNaN(Date.parse(v)), 'must be an ISO-8601 time with a zone, like 2030-01-31T12:00:00Z')
      .nullish()
      .describe('When the key stops working (an ISO time in the future); null or absent: never.'),
  }),
  (field) =>
    field === 'scope'
      ? `Pass "scope" as one of ${KEY_SCOPES.join(', ')}, or leave it out for write.`
      : field === 'expiresAt'
        ? 'Pass "expiresAt" as a future ISO-8601 time (2030-01-31T12:00:00Z), or leave it out for a key that never expires.'
        : 'Pass "name" as a short non-empty string, or leave it out.',
);
