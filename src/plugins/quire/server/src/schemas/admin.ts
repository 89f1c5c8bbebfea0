/** The admin panel's article routes (routes/admin.ts): their queries and what they answer (Strapi's admin format). */
import { z } from 'zod';
import { pagingQuery } from '#kernel/admin-routes';
import { timestamp } from '#kernel/schemas';
import { LIMITS, markdownText, titleField } from './inputs/shared';
import { actor, ARTICLE_STATUSES, sectionRecord, suggestionRecord, userSummary } from './records';

/** An optional query parameter: absent and empty are the same. */
const optional = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const adminArticlesQuery = z.object({
  ...pagingQuery,
  q: optional(z.string().trim().max(LIMITS.title, `must be at most ${LIMITS.title} characters`)).describe('Part of the title, any case.'),
  owner: optional(
    z.union([z.literal('me'), z.coerce.number({ error: 'must be a user id or "me"' }).int('must be a user id or "me"').positive('must be a user id or "me"')]),
  ).describe('The owner\'s user id, or `me`: the signed-in admin\'s own user (none yet: no articles).'),
  status: optional(z.enum(ARTICLE_STATUSES, { error: `must be one of ${ARTICLE_STATUSES.join(', ')}` })),
});

export const adminOwnersQuery = z.object({
  q: optional(z.string().trim().max(200, 'must be at most 200 characters')).describe('Part of the username or email, any case.'),
  limit: optional(z.coerce.number({ error: 'must be a whole number from 1 to 100' }).int().min(1).max(100)).describe('Default 20.'),
});

export const adminArticle = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    status: z.enum(ARTICLE_STATUSES),
    words: z.number().int().min(0),
    sections: z.number().int().min(0),
    owner: userSummary.nullable().describe('null when the owner\'s account was deleted.'),
    createdAt: timestamp,
    updatedAt: timestamp,
    publishedAt: timestamp.nullable(),
    changedSincePublished: z
      .boolean()
      .describe('Published, and its sections or title changed since: the public page is older than the article (republish to update it).'),
    openThreads: z.number().int().min(0).describe('How many of its threads (comments on quoted text, CONTRACT 24) are open.'),
  })
  .meta({ id: 'AdminArticle', description: 'An article of any user, with its owner (the admin panel\'s list).' });

export const articleOwner = z.strictObject({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  articles: z.number().int().min(0).describe('How many articles they own.'),
});

export const adminArticleDetail = adminArticle
  .extend({ publicUrl: z.string().nullable().describe('The public page while the article is published, else null.') })
  .meta({ id: 'AdminArticleDetail', description: 'An article of any user, with its owner and public page (the canvas).' });

/** The canvas's sections: every section of the article, in order, with its content. */
export const adminSections = z.strictObject({ sections: z.array(sectionRecord) });

export type AdminArticle = z.infer<typeof adminArticle>;
export type AdminArticleDetail = z.infer<typeof adminArticleDetail>;

/** POST /quire/articles: a new article for a user (articles belong to the server's users; editors act on them). */
export const adminCreateArticleInput = z.strictObject({
  title: titleField,
  markdown: markdownText.nullish().describe('Optional Markdown to start from, split into sections at its top-level headings.'),
  owner: z
    .union([z.literal('me'), z.number({ error: 'must be a user id or "me"' }).int('must be a user id or "me"').positive('must be a user id or "me"')])
    .describe('The user who owns it, or `me`: the signed-in admin\'s own user, made on first use with the admin\'s email and name.'),
});

/** GET /quire/me/user: the signed-in admin's own user, if it has one yet. */
export const adminOwnUser = userSummary.nullable().describe('The admin\'s own user (its articles are theirs), or null until their first article of their own.');

/** PUT /quire/articles/{id}: rename. */
export const adminRenameArticleInput = z.strictObject({ title: titleField });

export const adminTrashQuery = z.object({ ...pagingQuery });

export const adminUsersQuery = adminOwnersQuery;
export const userSummaryList = z.array(userSummary);

/** An article in the trash (the panel's Trash view). */
export const adminTrashedArticle = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    words: z.number().int().min(0),
    sections: z.number().int().min(0),
    owner: userSummary.nullable().describe('null when the owner\'s account was deleted.'),
    deletedAt: timestamp,
    deletedBy: z.string().describe('The editor who deleted it.'),
    purgeAt: timestamp.describe('When it is deleted for good (30 days after it was deleted).'),
  })
  .meta({ id: 'AdminTrashedArticle', description: 'A deleted article, restorable until purgeAt.' });

/** The public page an article would have if published now. */
export const adminPreview = z.strictObject({
  html: z.string().describe('The complete HTML page (the public page\'s template, marked noindex).'),
  url: z.string().describe('The address it has (or would have) once published.'),
});

/** A version of a section that came from a suggestion: who accepted it (its `by` stays the suggestion's author). */
export const adminAcceptedRevision = z
  .strictObject({
    rev: z.number().int().min(1),
    acceptedBy: actor,
  })
  .meta({ id: 'AdminAcceptedRevision', description: 'A version that came from an accepted suggestion, and who accepted it.' });
export const adminAcceptedList = z.strictObject({ accepted: z.array(adminAcceptedRevision) });

/** Where a suggestion shows in the canvas (CONTRACT 20): a section, and what the suggestion makes of it. */
export const adminSuggestionPlace = z
  .strictObject({
    section: z.string().describe('The id of the section it shows in.'),
    change: z.enum(['edit', 'delete', 'insert', 'move']).describe('insert: new sections after this one.'),
    current: z.string().describe('The section\'s stored HTML now (empty for an insert).'),
    suggested: z.string().describe('What the suggestion makes of it (empty for a delete; the new sections for an insert).'),
  })
  .meta({ id: 'AdminSuggestionPlace' });
export const adminSuggestionInPlace = suggestionRecord
  .extend({
    stale: z.boolean().describe('A section it changes has changed since it was made: it can only be applied by hand.'),
    places: z.array(adminSuggestionPlace),
    changeSet: z
      .strictObject({ id: z.string(), anchor: z.string().describe('A unique prefix of its id among the article\'s change sets (the canvas marks its words with data-change="<anchor>").'), reason: z.string().nullable() })
      .nullable()
      .describe('Its pending change set (CONTRACT 23), with the reason it was made for; null for a suggestion older than change sets.'),
  })
  .meta({ id: 'AdminSuggestionInPlace', description: 'An open suggestion (pending or stale), with the sections it shows in.' });
export const adminSuggestionsInPlace = z.strictObject({ suggestions: z.array(adminSuggestionInPlace).describe('Oldest first.') });

export type AdminTrashedArticle = z.infer<typeof adminTrashedArticle>;
export type AdminAcceptedRevision = z.infer<typeof adminAcceptedRevision>;

/** Home widgets: how many rows a widget shows. */
export const adminWidgetQuery = z.object({
  limit: optional(z.coerce.number({ error: 'must be a whole number from 1 to 20' }).int().min(1).max(20)).describe('Default 5.'),
});

export const adminAgentChanges = z.strictObject({
  articles: z.array(z.strictObject({ id: z.string(), title: z.string(), changedAt: timestamp, by: z.string().describe('The agent (its key\'s or client\'s name).') })),
});

export const adminPendingSuggestions = z.strictObject({
  total: z.number().int().min(0).describe('Pending suggestions on every article.'),
  articles: z.array(z.strictObject({ id: z.string(), title: z.string(), pending: z.number().int().min(1), newestAt: timestamp })),
});
