/** Small client for the article API in tests. */
import { randomUUID } from 'node:crypto';
import { bearer, type TestApp } from './strapi';

export type Client = ReturnType<typeof client>;

export function client(app: TestApp, credential: string) {
  const h = bearer(credential);
  return {
    get: (path: string) => app.http.get(path).set(h),
    post: (path: string, body?: unknown) => app.http.post(path).set(h).send(body as object),
    patch: (path: string, body?: unknown) => app.http.patch(path).set(h).send(body as object),
    del: (path: string) => app.http.delete(path).set(h),
  };
}

/** Creates an article through the API and returns `data` of the 201. */
export async function newArticle(c: Client, body: Record<string, unknown> = { title: 'Test article' }) {
  const res = await c.post('/api/articles', body);
  if (res.status !== 201) throw new Error(`article creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { article: { id: string }; outline: OutlineEntry[] };
}

export interface OutlineEntry {
  anchor: string;
  level: number;
  title: string;
  words: number;
  source: string;
}

/** A Markdown document of n sections titled S1..Sn. */
export const sectionsDoc = (n: number, prefix = 'S') =>
  Array.from({ length: n }, (_, i) => `## ${prefix}${i + 1}\n\nBody of ${prefix}${i + 1}.`).join('\n\n');

/**
 * A prefix shared by two of the given ids or anchors (exists whenever there are more than 16:
 * there are only 16 hex digits). Its first character is enough.
 */
export function sharedPrefix(anchors: string[]): string {
  const seen = new Set<string>();
  for (const a of anchors) {
    if (seen.has(a[0])) return a[0];
    seen.add(a[0]);
  }
  throw new Error('no shared prefix');
}

/** An id that exists nowhere. */
export const missingId = () => randomUUID();
