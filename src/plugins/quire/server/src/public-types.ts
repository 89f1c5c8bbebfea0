/**
 * The quire plugin's one public types module: the shapes of the services other plugins reach
 * through `strapi.plugin('quire').service(name)`. Type-only: it exports no value, and it is the
 * only file of this plugin another plugin may import, and only with `import type`
 * (tests/unit/boundaries.test.ts). Each entry is the service's own signature, so a change here
 * that breaks a caller fails `npm run compile`.
 */
import type articles from './services/articles';
import type inputs from './services/inputs';
import type notes from './services/notes';
import type rateLimit from './services/rate-limit';
import type redis from './services/redis';

/** The article API's input schemas (same limits, same messages), for other plugins to extend. */
export type QuireInputs = ReturnType<typeof inputs>;
/** Creating an article for a user ({title, markdown, premise?}). */
export type QuireArticles = Pick<ReturnType<typeof articles>, 'createArticle'>;
/** Adding a note to one of a user's articles. */
export type QuireNotes = Pick<ReturnType<typeof notes>, 'add'>;
/** The shared rate limits (429 `rate-limited` with Retry-After). */
export type QuireRateLimit = Pick<ReturnType<typeof rateLimit>, 'consume' | 'blockedFor'>;
/** Where Redis is, if anywhere (REDIS_URL). */
export type QuireRedis = Pick<ReturnType<typeof redis>, 'url'>;

/** What `strapi.plugin('quire').service(name)` gives other plugins, by name. */
export interface QuireServices {
  inputs: QuireInputs;
  articles: QuireArticles;
  notes: QuireNotes;
  rateLimit: QuireRateLimit;
  redis: QuireRedis;
}
