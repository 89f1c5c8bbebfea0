/** Threads on an article (CONTRACT 24): comments on quoted text, read and written by the canvas as the editor. */
import type { z } from 'zod';
import { dataOf, useClient } from '#kernel/admin-ui/fetch';
import type * as threads from '../../../server/src/schemas/threads';
import { articleUrl } from './articles';

export type ThreadRecord = z.infer<typeof threads.threadRecord>;
export type CommentRecord = z.infer<typeof threads.commentRecord>;
export type CreateThread = z.infer<typeof threads.createThreadInput>;

export function useThreadsApi(articleId: string) {
  const client = useClient();
  const url = (rest: string) => articleUrl(articleId, rest);
  return {
    list: () => dataOf<{ threads: ThreadRecord[] }>(client.get(url('/threads'))),
    create: (input: CreateThread) => dataOf<{ thread: ThreadRecord }>(client.post(url('/threads'), input)),
    reply: (anchor: string, body: string) => dataOf<{ comment: CommentRecord }>(client.post(url(`/threads/${anchor}/comments`), { body })),
    resolve: (anchor: string) => dataOf<{ thread: ThreadRecord }>(client.post(url(`/threads/${anchor}/resolve`), {})),
    reopen: (anchor: string) => dataOf<{ thread: ThreadRecord }>(client.post(url(`/threads/${anchor}/reopen`), {})),
  };
}
