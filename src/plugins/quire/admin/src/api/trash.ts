/**
 * The trash: deleted articles (kept 30 days, restorable from the Trash page) and an article's
 * deleted sections (restorable from the canvas's Trash panel).
 */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import type { AdminList } from '#kernel/admin-ui/types';
import { useAdminGet } from '#kernel/admin-ui/use-admin-get';
import { articleUrl } from './articles';
import type { AdminArticleDetail, AdminTrashedArticle, Outline, RestoreFromTrashInput, TrashList } from './schema-types';

export const useTrashedArticles = (query: { page: string; pageSize: string }) => useAdminGet<AdminList<AdminTrashedArticle>>('/quire/trash', query);

export function useTrashApi() {
  const client = useClient();
  return {
    /** Brings a deleted article back, as a draft, with its sections, notes and history. */
    restoreArticle: (id: string) => dataOf<AdminArticleDetail>(client.post(`/quire/trash/${encodeURIComponent(id)}/restore`, {})),
    /** An article's deleted sections, most recently deleted first. */
    sections: (articleId: string) => dataOf<TrashList>(client.get(articleUrl(articleId, '/trash'))),
    restoreSection: (articleId: string, trashId: string, place: RestoreFromTrashInput = {}) =>
      dataOf<Outline>(client.post(articleUrl(articleId, `/trash/${encodeURIComponent(trashId)}/restore`), place)),
  };
}
