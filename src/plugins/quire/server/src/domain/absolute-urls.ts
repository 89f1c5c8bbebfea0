import type { Element, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

/** Attributes that carry a URL in the HTML our sanitiser lets through. */
const URL_ATTRIBUTES: Record<string, string[]> = {
  a: ['href'],
  img: ['src'],
  q: ['cite'],
  blockquote: ['cite'],
  del: ['cite'],
  ins: ['cite'],
};

/**
 * `value` resolved against `base` when it is relative; absolute and fragment-only URLs are kept.
 * A root-relative URL ("/uploads/a.png") hangs off the base's path, as Quire's own URLs hang off
 * PUBLIC_URL, which may have one (https://example.com/quire + /uploads/a.png).
 */
export function absoluteUrl(value: string, base: string): string {
  const trimmed = value.trim();
  if (!trimmed || trimmed.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return value;
  const rootRelative = /^\/(?![/\\])/.test(trimmed);
  try {
    return new URL(rootRelative ? trimmed.slice(1) : trimmed, base.endsWith('/') ? base : base + '/').toString();
  } catch {
    return value;
  }
}

const htmlProcessor = unified().use(rehypeParse, { fragment: true }).use(rehypeStringify);

/** Rewrites every relative link and image URL of an HTML fragment against `base`. */
export function absolutizeHtml(html: string, base: string): string {
  const tree = htmlProcessor.parse(html) as HastRoot;
  visit(tree, 'element', (node: Element) => {
    for (const attribute of URL_ATTRIBUTES[node.tagName] ?? []) {
      const property = attribute === 'href' ? 'href' : attribute === 'src' ? 'src' : 'cite';
      const value = node.properties?.[property];
      if (typeof value === 'string') node.properties[property] = absoluteUrl(value, base);
    }
  });
  return htmlProcessor.stringify(tree);
}

const markdownParser = unified().use(remarkParse).use(remarkGfm);

/**
 * Rewrites relative link, image and definition URLs of a Markdown document against `base`,
 * editing only those URLs in the source: everything else stays byte for byte as written.
 * Linear in the document: each destination is found near its node's end (or start, for a
 * definition) and the result is assembled once.
 */
export function absolutizeMarkdown(markdown: string, base: string): string {
  const tree = markdownParser.parse(markdown) as MdastRoot;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  visit(tree, (node: any) => {
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition') return;
    if (typeof node.url !== 'string') return;
    const absolute = absoluteUrl(node.url, base);
    const start = node.position?.start?.offset;
    const end = node.position?.end?.offset;
    if (absolute === node.url || start === undefined || end === undefined) return;
    // The destination follows the last "](" of a link or image, and the first "]:" of a definition.
    const from = node.type === 'definition' ? markdown.indexOf(']:', start) : markdown.lastIndexOf('](', end - 2);
    if (from < start || from >= end) return;
    const at = markdown.slice(from, end).indexOf(node.url);
    if (at >= 0) edits.push({ start: from + at, end: from + at + node.url.length, text: absolute });
  });
  edits.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let done = 0;
  for (const edit of edits) {
    if (edit.start < done) continue; // overlapping edits cannot happen; never apply one twice
    parts.push(markdown.slice(done, edit.start), edit.text);
    done = edit.end;
  }
  parts.push(markdown.slice(done));
  return parts.join('');
}
