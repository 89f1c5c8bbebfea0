/** Input schemas of the article routes (create, rename, list, read). */
import { z } from 'zod';
import { withHint } from '#kernel/parse';
import { pageCursorQuery, pageLimitQuery } from '../page-query';
import { markdownText, premiseField, splitHint, TITLE_NEXT, titleField } from './shared';

/** `POST /api/articles` (and the `article.import` trigger action, which extends it). */
export const createArticleInput = z.strictObject({
  title: titleField,
  markdown: markdownText.nullish(),
  premise: premiseField.optional(),
});
withHint(
  createArticleInput,
  splitHint((field) => (field === 'title' ? TITLE_NEXT : field === 'markdown' ? 'Pass the article body as a Markdown string in "markdown".' : undefined)),
);

export const updateArticleInput = withHint(z.strictObject({ title: titleField }), TITLE_NEXT);

export const listArticlesQuery = withHint(
  z.object({
    limit: pageLimitQuery('How many articles (1 to 100, default 20).'),
    cursor: pageCursorQuery,
  }),
  'Pass limit as an integer from 1 to 100, and cursor as the nextCursor of the previous page, unchanged (or leave it out for the first page).',
);

/** `?include=rev` on the outline and article GETs. */
export const includeRevQuery = withHint(
  z.object({ include: z.enum(['rev'], { error: 'must be rev' }).optional().describe('rev: every outline entry gains its section\'s rev.') }),
  'Pass include=rev, or leave it out.',
);
