/** Input schemas of search, in one article and across articles. */
import { z } from 'zod';
import { withHint } from '#kernel/parse';
import { MAX_QUERY_LENGTH } from '../../domain/search';

const SEARCH_NEXT = 'Pass ?q= as 1 to 200 characters of text to find (matched literally, any case), with no control characters.';
/** C0 and C1 control characters, NUL included: no text a reader searches for has them (and databases refuse NUL). */
const CONTROL_CHARACTER = /\p{Cc}/u;
const searchText = z
  .string({ error: 'is required' })
  .min(1, 'must not be empty')
  .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
  .refine((v) => !CONTROL_CHARACTER.test(v), 'must not contain control characters (NUL, tab, line breaks and the like)')
  .describe('The text to find: 1 to 200 characters, matched literally and case-insensitively (% _ * and the like are plain characters); no control characters.');
const searchLimit = (max: number, fallback: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer from 1 to ${max}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be an integer from 1 to ${max}`)
    .optional()
    .describe(`How many ${what} (1 to ${max}, default ${fallback}).`);


/** `GET /api/articles/{id}/search?q=&limit=`. */
export const articleSearchQuery = withHint(z.object({ q: searchText, limit: searchLimit(200, 50, 'matching sections') }), (field) =>
  field === 'limit' ? 'Pass limit as an integer from 1 to 200, or leave it out.' : SEARCH_NEXT,
);

/** `GET /api/search?q=&limit=&cursor=`. */
export const searchQuery = withHint(
  z.object({
    q: searchText,
    limit: searchLimit(100, 20, 'articles'),
    cursor: z.string().min(1, 'must not be empty').optional().describe('The nextCursor of the previous page.'),
  }),
  (field) =>
    field === 'limit' ? 'Pass limit as an integer from 1 to 100, or leave it out.' : field === 'cursor' ? 'Pass the nextCursor you were given, or leave cursor out.' : SEARCH_NEXT,
);
