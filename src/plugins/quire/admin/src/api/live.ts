/** Around the live canvas: who is present, link previews for pasted URLs, the admin's session kept fresh. */
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import { articleUrl } from './articles';
import type { Presence, UnfurlPreview } from './schema-types';

export function useLiveApi() {
  const client = useClient();
  return {
    presence: (articleId: string) => dataOf<Presence>(client.get(articleUrl(articleId, '/presence'))),
    unfurl: (url: string) => dataOf<UnfurlPreview>(client.get('/quire/unfurl', { params: { url } })),
    /** Any admin call refreshes an expired access token first (the live channel then reads the stored one). */
    touchSession: () => client.get('/admin/users/me').then(() => undefined),
  };
}
