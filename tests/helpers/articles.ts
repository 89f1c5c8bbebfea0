/** Small client for the article API in tests. */
import { randomUUID } from 'node:crypto';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import type { OutlineEntry } from '../../src/plugins/quire/server/src/domain/outline';
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

export type { OutlineEntry };

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

/** Every link, image and definition URL of a Markdown document, and whether it has raw HTML. */
export function markdownUrls(markdown: string) {
  const urls: string[] = [];
  let rawHtml = false;
  visit(unified().use(remarkParse).use(remarkGfm).parse(markdown), (node: any) => {
    if (['link', 'image', 'definition'].includes(node.type)) urls.push(node.url);
    if (node.type === 'html') rawHtml = true;
  });
  return { urls, rawHtml };
}
