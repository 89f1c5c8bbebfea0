/** The admin panel's article routes (routes/admin.ts): their queries and what they answer (Strapi's admin format). */
import { z } from 'zod';
import { pagingQuery } from '../../../../../kernel/admin-routes';
import { timestamp } from '../../../../../kernel/schemas';
import { LIMITS } from './inputs';
import { ARTICLE_STATUSES, sectionRecord, userSummary } from './records';

/** An optional query parameter: absent and empty are the same. */
const optional = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const adminArticlesQuery = z.object({
  ...pagingQuery,
  q: optional(z.string().trim().max(LIMITS.title, `must be at most ${LIMITS.title} characters`)).describe('Part of the title, any case.'),
  owner: optional(z.coerce.number({ error: 'must be a user id' }).int('must be a user id').positive('must be a user id')).describe('The owner\'s user id.'),
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
