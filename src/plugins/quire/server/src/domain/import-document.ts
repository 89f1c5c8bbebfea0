/**
 * Turning documents from elsewhere into an article's Markdown: HTML (a file, or a web page's
 * main content) to sanitised, Markdown-canonical text, and the title rules of an import.
 * Pure code, no Strapi.
 */
import type { Element, ElementContent, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { takeTitle } from './document-title';
import { htmlToMarkdown } from './html-to-markdown';

export const MAX_TITLE_LENGTH = 300;

/**
 * The sections' sanitiser (GitHub's schema), which also drops the contents of elements that are
 * never prose: GitHub's schema unwraps them, so a style sheet would come through as text.
 * Figures are kept (no attributes) so that their captions become paragraphs.
 */
const IMPORT_SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  // Captions stay paragraphs of their own instead of running into the text around them.
  tagNames: [...(defaultSchema.tagNames ?? []), 'figure', 'figcaption'],
  strip: [...(defaultSchema.strip ?? []), 'style', 'noscript', 'template', 'title', 'textarea', 'select', 'button', 'iframe', 'object', 'embed'],
};

const documentParser = unified().use(rehypeParse); // a whole document: <head> and <body>
const sanitizer = unified().use(rehypeSanitize, IMPORT_SCHEMA).use(rehypeStringify);

function textOf(node: Root | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' || node.type === 'root') return node.children.map((child) => textOf(child as ElementContent)).join('');
  return '';
}

function findElement(node: Root | Element, tagName: string): Element | undefined {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === tagName) return child;
    const found = findElement(child, tagName);
    if (found) return found;
  }
  return undefined;
}

/** A title as an article takes it: one line, whitespace collapsed, at most 300 characters; null when blank. */
export function cleanTitle(raw: string | null | undefined): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const chars = Array.from(text); // never split a surrogate pair
  return chars.length > MAX_TITLE_LENGTH ? chars.slice(0, MAX_TITLE_LENGTH).join('').trimEnd() : text;
}

/**
 * HTML (a fragment or a whole document) to Markdown: the body is sanitised like every section
 * (no script, event handler, style, `javascript:`/`data:` URL survives) and then converted,
 * keeping headings, lists, links, images, code, tables and emphasis. `title` is the document's
 * `<title>`, when it has one.
 */
export function htmlToImportMarkdown(html: string): { markdown: string; title: string | null } {
  const tree = documentParser.parse(html) as Root;
  const titleElement = findElement(tree, 'title');
  const body = findElement(tree, 'body');
  const content: Root = { type: 'root', children: body ? body.children : [] };
  const clean = sanitizer.stringify(sanitizer.runSync(content) as Root);
  return { markdown: htmlToMarkdown(clean), title: cleanTitle(titleElement ? textOf(titleElement) : null) };
}

const sameText = (a: string, b: string) => a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Removes a leading level-1 heading that repeats `title` (pages often show their title twice:
 * in `<title>` and as the first heading); the article shows its title itself.
 */
export function withoutTitleHeading(markdown: string, title: string): string {
  const taken = takeTitle(markdown);
  return taken.body !== markdown && taken.title !== null && sameText(taken.title, title) ? taken.body : markdown;
}

/**
 * The title of an imported document and the body that remains. An explicit title (the
 * request's, the front matter's, a page's) wins and leaves the body whole, except that a
 * leading heading repeating a page's title is dropped; otherwise a leading level-1 heading
 * becomes the title (and leaves the body), else the first heading's text; else "Untitled".
 */
export function resolveTitle(
  markdown: string,
  given: { explicit?: string | null; page?: string | null },
): { title: string; markdown: string } {
  const explicit = cleanTitle(given.explicit);
  const page = cleanTitle(given.page);
  if (explicit) return { title: explicit, markdown: page ? withoutTitleHeading(markdown, page) : markdown };
  if (page) return { title: page, markdown: withoutTitleHeading(markdown, page) };
  const taken = takeTitle(markdown);
  return { title: cleanTitle(taken.title) ?? 'Untitled', markdown: taken.body };
}
