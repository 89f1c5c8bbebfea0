/**
 * The Markdown pipeline: split a document into sections at its top-level headings, render
 * Markdown and canvas HTML to sanitised HTML, count words. Pure code, no Strapi.
 *
 * Markdown: remark-parse + remark-gfm -> remark-rehype (raw HTML kept as nodes) -> rehype-raw
 * -> rehype-sanitize (GitHub's schema) -> rehype-stringify. Sanitising runs last, after the
 * only step that can introduce unsafe markup, as rehype-sanitize asks.
 */
import type { Element, Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Heading, Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import { toString as mdastToString } from 'mdast-util-to-string';
import rehypeParse from 'rehype-parse';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { invalidArgument } from './errors';

/** One section as the pipeline produces it (the stored fields that are not ids or order). */
export interface SectionContent {
  level: number;
  title: string;
  /** Exact source slice (heading line included, no trailing whitespace); null for canvas HTML. */
  markdown: string | null;
  html: string;
  words: number;
  source: 'markdown' | 'html';
}

/** GitHub's schema (no script, style, event handlers, data:/javascript: URLs), nothing added. */
const SANITIZE_SCHEMA: SanitizeSchema = defaultSchema;

const markdownProcessor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, SANITIZE_SCHEMA)
  .use(rehypeStringify)
  .freeze();

const htmlProcessor = unified()
  .use(rehypeParse, { fragment: true })
  .use(rehypeSanitize, SANITIZE_SCHEMA)
  .use(rehypeStringify)
  .freeze();

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Words of a text by Unicode word segmentation: CJK counts sensibly, punctuation does not. */
export function countWords(text: string): number {
  let n = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) n += 1;
  return n;
}

/** Elements whose text runs on with their neighbours; every other element separates words. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'kbd', 'mark', 'q',
  'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);

/** Plain text of a sanitised HTML tree, with block boundaries kept as line breaks. */
function hastText(node: HastRoot | HastContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'root' && node.type !== 'element') return '';
  const inner = node.children.map(hastText).join('');
  return node.type === 'element' && !INLINE.has(node.tagName) ? `\n${inner}\n` : inner;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function renderMdast(children: MdastContent[]): { html: string; words: number } {
  const root: MdastRoot = { type: 'root', children };
  const hast = markdownProcessor.runSync(root) as HastRoot;
  return { html: markdownProcessor.stringify(hast), words: countWords(hastText(hast)) };
}

/**
 * Deepest nesting we parse, counted as the characters of indentation, `>` quote markers and
 * list markers before a line's text. The parser's time grows badly with nesting (a list 1,000
 * levels deep took 38 s, 10,000 nested quotes overflowed the stack), and no real document
 * needs more than a few levels.
 */
export const MAX_NESTING_PREFIX = 400;
const NESTING_PREFIX = /^(?:[ \t>]|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))*/;

/** Refuses Markdown nested deeper than MAX_NESTING_PREFIX, before any parser sees it. */
export function assertParseableMarkdown(markdown: string): void {
  let line = 1;
  for (let start = 0; start <= markdown.length; line += 1) {
    const end = markdown.indexOf('\n', start);
    const text = markdown.slice(start, end < 0 ? markdown.length : end);
    if (text.length > MAX_NESTING_PREFIX && NESTING_PREFIX.exec(text)![0].length > MAX_NESTING_PREFIX) {
      throw invalidArgument(
        `The Markdown is nested too deeply at line ${line}: more than ${MAX_NESTING_PREFIX} characters of indentation, quote and list markers.`,
        'Flatten the nesting of lists and block quotes.',
      );
    }
    if (end < 0) break;
    start = end + 1;
  }
}

/** Parses Markdown (GFM) into its syntax tree, refusing pathological nesting first. */
export function parseMarkdown(markdown: string): MdastRoot {
  assertParseableMarkdown(markdown);
  return markdownProcessor.parse(markdown) as MdastRoot;
}

/** Sanitised HTML of a Markdown text (a note body, say). */
export function renderMarkdown(markdown: string): string {
  const tree = parseMarkdown(markdown);
  return renderMdast(tree.children).html;
}

/** The section with nothing in it: what an article keeps when its last section is deleted. */
export function emptySection(): SectionContent {
  return { level: 0, title: '', markdown: '', html: '', words: 0, source: 'markdown' };
}

/** Removes blank lines at the start (not indentation: it may be an indented code block). */
const trimLeadingBlankLines = (text: string) => text.replace(/^(?:[ \t]*\r?\n)+/, '');
const trimEnd = (text: string) => text.replace(/\s+$/, '');

/**
 * Splits a Markdown document into sections. Only headings that are direct children of the
 * document start a section (not those in code, block quotes, lists or HTML blocks). Each
 * section's `markdown` is its exact source slice; text before the first heading, if not
 * blank, is a section of level 0 with title "". A blank document gives no sections.
 *
 * Link and footnote definitions apply across the whole document, as Markdown means them to,
 * so each section is rendered with the definitions found anywhere in the document.
 */
export function splitMarkdown(markdown: string): SectionContent[] {
  const tree = parseMarkdown(markdown);
  const nodes = tree.children;
  const definitions = nodes.filter((n) => n.type === 'definition' || n.type === 'footnoteDefinition');
  const starts: number[] = [];
  nodes.forEach((node, i) => node.type === 'heading' && starts.push(i));

  const groups: { from: number; to: number }[] = [];
  if (starts[0] !== 0) groups.push({ from: 0, to: starts[0] ?? nodes.length });
  starts.forEach((start, k) => groups.push({ from: start, to: starts[k + 1] ?? nodes.length }));

  const sections: SectionContent[] = [];
  for (const { from, to } of groups) {
    const first = nodes[from] as MdastContent | undefined;
    const sliceStart = first?.type === 'heading' ? first.position!.start.offset! : 0;
    const next = nodes[to];
    const sliceEnd = next ? next.position!.start.offset! : markdown.length;
    const slice = trimEnd(trimLeadingBlankLines(markdown.slice(sliceStart, sliceEnd)));
    if (!slice) continue;
    const own = nodes.slice(from, to);
    const borrowed = definitions.filter((d) => !own.includes(d));
    const { html, words } = renderMdast([...own, ...borrowed]);
    const heading = first?.type === 'heading' ? (first as Heading) : undefined;
    sections.push({
      level: heading ? heading.depth : 0,
      title: heading ? collapse(mdastToString(heading, { includeHtml: false })) : '',
      markdown: slice,
      html,
      words,
      source: 'markdown',
    });
  }
  return sections;
}

/** HTML sanitised with the schema of every section (the public copy runs its HTML through it again). */
export function sanitizeHtml(html: string): string {
  return htmlProcessor.stringify(htmlProcessor.runSync(htmlProcessor.parse(html)) as HastRoot);
}

function firstHeading(node: HastRoot | Element): Element | undefined {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (/^h[1-6]$/.test(child.tagName)) return child;
    const found = firstHeading(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * A section edited in the human canvas: one section whose sanitised HTML is canonical.
 * Title and level come from its first h1-h6 (level 0 and "" when it has none).
 */
export function canvasSection(html: string): SectionContent {
  const tree = htmlProcessor.runSync(htmlProcessor.parse(html)) as HastRoot;
  const heading = firstHeading(tree);
  return {
    level: heading ? Number(heading.tagName[1]) : 0,
    title: heading ? collapse(hastText(heading)) : '',
    markdown: null,
    html: htmlProcessor.stringify(tree),
    words: countWords(hastText(tree)),
    source: 'html',
  };
}
