/** Input schemas of the media routes. */
import { z } from 'zod';
import { withHint } from '#kernel/parse';

/** `GET /api/unfurl?url=`. */
export const unfurlQuery = withHint(
  z.object({ url: z.string().trim().min(1, 'must not be empty').describe('The link to preview (URL-encoded).') }),
  'Pass the link as ?url=<encoded-url>.',
);
