/**
 * Articles (server routes/admin.ts): the list of every user's articles, one article, create,
 * rename, delete to the trash, the preview of its public page, publish, the owners and users
 * an article can belong to. Reads are hooks (loading, reload); writes are calls.
 */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import type { AdminItem, AdminList } from '#kernel/admin-ui/types';
import { useAdminGet } from '#kernel/admin-ui/use-admin-get';
import type { AdminArticle, AdminArticleDetail, AdminPreview, ArticleOnly, CreateArticleInput, Owner, Published, UserSummaryList } from './schema-types';

/** The admin routes of one article. */
export const articleUrl = (id: string, rest = '') => `/quire/articles/${encodeURIComponent(id)}${rest}`;

export interface ArticleListQuery {
  page: string;
  pageSize: string;
  q?: string;
  status?: string;
  owner?: string;
}

export const useArticleList = (query: ArticleListQuery) => useAdminGet<AdminList<AdminArticle>>('/quire/articles', query as never);
export const useArticle = (id: string | null) => useAdminGet<AdminItem<AdminArticleDetail>>(id ? articleUrl(id) : null);
/** Users who own articles, matching what was typed (username or email). */
export const useOwners = (search: string) => useAdminGet<{ data: Owner[] }>('/quire/owners', { q: search || undefined, limit: 20 });
/** Users an article can be given to, matching what was typed. */
export const useUsers = (search: string) => useAdminGet<{ data: UserSummaryList }>('/quire/users', { q: search || undefined, limit: 20 });

export function useArticlesApi() {
  const client = useClient();
  return {
    create: (input: CreateArticleInput) => dataOf<AdminArticleDetail>(client.post('/quire/articles', input)),
    rename: (id: string, title: string) => dataOf<AdminArticleDetail>(client.put(articleUrl(id), { title })),
    /** To the trash, restorable for 30 days. */
    remove: (id: string) => dataOf<{ id: string }>(client.del(articleUrl(id))),
    preview: (id: string) => dataOf<AdminPreview>(client.get(articleUrl(id, '/preview'))),
    publish: (id: string) => dataOf<Published>(client.post(articleUrl(id, '/publish'), {})),
    unpublish: (id: string) => dataOf<ArticleOnly>(client.del(articleUrl(id, '/publish'))),
  };
}
