import type { z } from 'zod';
import type { createRateLimits } from './rate-limit';

/**
 * What the quire plugin offers other plugins through `strapi.plugin('quire').service(name)`.
 * Plugins never import each other's files: the triggers plugin types those calls with this,
 * and the quire plugin checks at compile time that its services keep these shapes
 * (quire/server/src/services/contract.ts), so a change that would break a caller fails
 * `npm run compile` on the side that made it.
 */

/** A new article's fields, as the article API's create schema gives them. */
export interface QuireArticleFields {
  title: string;
  markdown?: string | null;
  premise?: string | null;
}

/** A new note's fields, as the article API's note schema gives them. */
export interface QuireNoteFields {
  kind: 'source' | 'decision' | 'idea' | 'question';
  title: string;
  body?: string | null;
  url?: string | null;
}

/** A strict zod object schema whose output has the fields of `T`. */
type StrictSchemaOf<T> = z.ZodObject<{ [K in keyof T]-?: z.ZodType<T[K]> }, z.core.$strict>;

export interface QuireServices {
  /** The article API's input schemas (same limits, same messages), for other plugins to extend. */
  inputs: { createArticle: StrictSchemaOf<QuireArticleFields>; createNote: StrictSchemaOf<QuireNoteFields>; limits: { markdown: number } };
  /** Creating an article for a user. */
  articles: { createArticle: (userId: number, input: QuireArticleFields) => Promise<{ article: { id: string } }> };
  /** Adding a note (written by an agent) to one of a user's articles. */
  notes: { add: (userId: number, articleId: string, input: QuireNoteFields, createdBy: 'agent') => Promise<{ note: { anchor: string } }> };
  /** The shared rate limits (429 `rate-limited` with Retry-After). */
  rateLimit: Pick<ReturnType<typeof createRateLimits>, 'consume' | 'blockedFor'>;
  /** Where Redis is, if anywhere (REDIS_URL). */
  redis: { url: () => string | null };
}
