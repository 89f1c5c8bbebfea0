/** What the plugin's admin routes answer: the server's own types (type-only imports, erased from the bundle). */
import type { ArticleOwner } from '../../server/src/services/admin-articles';

export type { AdminArticle, AdminArticleDetail, ArticleOwner } from '../../server/src/services/admin-articles';
export type { LinkPreview, NoteKind, NoteRecord, OutlineEntry, SectionRecord } from '../../server/src/schemas/records';

/** GET /quire/owners: a user who owns articles, with how many. */
export type Owner = ArticleOwner & { articles: number };

/** The admin routes of one article (routes/admin.ts on the server). */
export const articleUrl = (id: string, rest = '') => `/quire/articles/${encodeURIComponent(id)}${rest}`;
