/**
 * The public copy of a published article, built once at publish time: a complete HTML page
 * and a Markdown document, both with absolute URLs and sanitised content. Pure code, no Strapi.
 */
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeParse from 'rehype-parse';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { stringify as stringifyYaml } from 'yaml';
import { absolutizeHtml, absolutizeMarkdown } from './absolute-urls';
import { htmlToMarkdown } from './html-to-markdown';
import { sanitizeHtml } from './markdown';
import { renderPublicPage } from '../pages/public-page';
import { trimTrailingSlashes } from '#kernel/config';

export interface PublishedSection {
  source: string;
  /** The exact Markdown of a Markdown section; null for a canvas (HTML) section. */
  markdown: string | null;
  /** The section's sanitised HTML. */
  html: string;
}

export interface PublicationInput {
  title: string;
  slug: string;
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  publishedAt: string;
  sections: PublishedSection[];
}

export interface PublicCopy {
  url: string;
  markdownUrl: string;
  /** The complete HTML document served at `url`. */
  html: string;
  /** The Markdown document served at `markdownUrl`: YAML front matter, then the sections. */
  markdown: string;
}

const DESCRIPTION_LENGTH = 200;

export const publicPaths = (publicUrl: string, slug: string) => {
  const url = `${trimTrailingSlashes(publicUrl)}/p/${slug}`;
  return { url, markdownUrl: `${url}.md` };
};

/** URL schemes the sanitiser keeps (GitHub's schema): links, and images. */
const LINK_SCHEMES = new Set(['http', 'https', 'mailto', 'irc', 'ircs', 'xmpp']);
const IMAGE_SCHEMES = new Set(['http', 'https']);

function safeUrl(url: string, schemes: Set<string>): boolean {
  const match = /^([^/?#]*?):/.exec(url.trim());
  return !match || schemes.has(match[1].toLowerCase());
}

const markdownParser = unified().use(remarkParse).use(remarkGfm);

/**
 * Whether a Markdown section may go into the public copy as it was written: no raw HTML
 * (only its sanitised rendering may be published) and no link or image the sanitiser would
 * drop (`javascript:`, `data:`...). Other sections are published from their sanitised HTML.
 */
export function isPublishableMarkdown(markdown: string): boolean {
  const tree = markdownParser.parse(markdown) as MdastRoot;
  let clean = true;
  visit(tree, (node: any) => {
    if (node.type === 'html') clean = false;
    else if ((node.type === 'link' || node.type === 'definition') && !safeUrl(node.url, LINK_SCHEMES)) clean = false;
    else if (node.type === 'image' && !safeUrl(node.url, IMAGE_SCHEMES)) clean = false;
    return clean ? undefined : false;
  });
  return clean;
}

const fragmentParser = unified().use(rehypeParse, { fragment: true });

/** Text as read: an image reads as its alternative text. */
function textOf(node: ElementContent | HastRoot): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' && node.tagName === 'img') return typeof node.properties?.alt === 'string' ? node.properties.alt : '';
  if (node.type === 'element' || node.type === 'root') return node.children.map((child) => textOf(child as ElementContent)).join('');
  return '';
}

/** The first paragraph's text (cut at a word, about 200 characters) and the first http(s) image. */
function summary(sectionsHtml: string[]): { description: string; imageUrl: string } {
  let description = '';
  let imageUrl = '';
  for (const html of sectionsHtml) {
    visit(fragmentParser.parse(html) as HastRoot, 'element', (node: Element) => {
      if (!description && node.tagName === 'p') description = textOf(node).replace(/\s+/g, ' ').trim();
      const src = node.properties?.src;
      if (!imageUrl && node.tagName === 'img' && typeof src === 'string' && /^https?:\/\//i.test(src)) imageUrl = src;
    });
    if (description && imageUrl) break;
  }
  if (description.length > DESCRIPTION_LENGTH) {
    const cut = description.slice(0, DESCRIPTION_LENGTH);
    description = `${cut.slice(0, Math.max(cut.lastIndexOf(' '), DESCRIPTION_LENGTH / 2)).trimEnd()}…`;
  }
  return { description, imageUrl };
}

/** What a publication holds that costs parsing: built off the event loop, and outside the article's lock. */
export interface PublicationContent {
  /** Each section's HTML with absolute URLs, sanitised. */
  sectionsHtml: string[];
  description: string;
  imageUrl: string;
  /** The Markdown document's body (after the front matter), with absolute URLs. */
  body: string;
}

/** The parsed, rewritten and sanitised content of a publication (everything but its title, slug and date). */
export function publicationContent(sections: PublishedSection[], publicUrl: string): PublicationContent {
  const base = trimTrailingSlashes(publicUrl);
  // Absolute first, then sanitised: the sanitiser runs last, on exactly what is published.
  const sectionsHtml = sections.map((section) => sanitizeHtml(absolutizeHtml(section.html, base)));
  const { description, imageUrl } = summary(sectionsHtml);
  const parts = sections.map((section, i) =>
    section.source === 'markdown' && section.markdown !== null && isPublishableMarkdown(section.markdown)
      ? section.markdown
      : htmlToMarkdown(sectionsHtml[i]),
  );
  const body = absolutizeMarkdown(parts.filter((part) => part.trim() !== '').join('\n\n'), base);
  return { sectionsHtml, description, imageUrl, body };
}

/** Both public documents from their content: no parsing, only templates. */
export function assemblePublication(content: PublicationContent, input: Omit<PublicationInput, 'sections'> & { noindex?: boolean }): PublicCopy {
  const { url, markdownUrl } = publicPaths(input.publicUrl, input.slug);
  const { sectionsHtml, description, imageUrl, body } = content;
  const html = renderPublicPage({ title: input.title, description, canonicalUrl: url, markdownUrl, imageUrl, publishedAt: input.publishedAt, sectionsHtml, noindex: input.noindex });
  const frontMatter = stringifyYaml(
    { title: input.title, ...(description ? { description } : {}), date: input.publishedAt, canonical_url: url },
    { lineWidth: 0 },
  );
  const markdown = `---\n${frontMatter}---\n${body ? `\n${body}\n` : ''}`;
  return { url, markdownUrl, html, markdown };
}

/** Builds both public documents of an article as it is now. */
export function buildPublication(input: PublicationInput): PublicCopy {
  return assemblePublication(publicationContent(input.sections, input.publicUrl), input);
}
