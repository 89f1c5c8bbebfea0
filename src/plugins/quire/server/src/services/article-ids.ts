/**
 * An article's id as a path names it: the full id, or a unique prefix of it among the caller's
 * articles (services/article-lookup `resolveArticleId`). The route stage of routes/stages.ts and the
 * controllers reach it here, never the repository itself.
 */
import type { Core } from '@strapi/strapi';
import { articleUuid, resolveArticleId } from './article-lookup';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** The full id of the caller's article `raw` names (404 none, 400 several). */
  fullId: (userId: number, raw: string): Promise<string> => resolveArticleId(strapi, userId, raw),
  /** The normalised full id, or 404 when `raw` is not one. */
  uuid: (raw: string): string => articleUuid(raw),
});
