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
import { invalidArgument } from '#kernel/errors';

/** One section as the pipeline produces it (the stored fields that are not ids or order). */
export interface SectionContent {
  level: number;
  title: string;
  /** Exact source slice (heading line included, no trailing whitespace); null for canvas HTML. */
  markdown: string | null;
  html: string;
  words: number;
  source: 'markdown' | 'html';
  /**
   * What search matches in an html section: the text content of its HTML (stored beside it,
   * column html_text). Null for Markdown sections, which are searched in their source.
   */
  htmlText: string | null;
}

/**
 * The data-* attributes of a link card, the canvas's unfurl preview of a pasted link:
 * `<figure data-type="link-card" data-url data-title data-description data-image data-site-name>`
 * (hast property names). Its URLs must be http(s), like every href and src.
 */
export const LINK_CARD_ATTRIBUTES = ['dataUrl', 'dataTitle', 'dataDescription', 'dataImage', 'dataSiteName'] as const;

/**
 * GitHub's schema (no script, style, event handlers, data:/javascript: URLs), plus the canvas's
 * link cards: a `figure` (with its `figcaption`) may be one, and keeps the card's data-*.
 */
const SANITIZE_SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), 'figure', 'figcaption'],
  attributes: {
    ...defaultSchema.attributes,
    figure: [['dataType', 'link-card'], ...LINK_CARD_ATTRIBUTES],
  },
  protocols: { ...defaultSchema.protocols, dataUrl: ['http', 'https'], dataImage: ['http', 'https'] },
};

/**
 * Markdown to sanitised HTML. With `raw`, rehype-raw parses the tree again with an HTML parser
 * (parse5), which raw HTML needs to be sanitised; without, the pipeline for the Markdown it would
 * give back unchanged (see renderMdast).
 */
function markdownPipeline({ raw }: { raw: boolean }) {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(raw ? [rehypeRaw] : [])
    .use(rehypeSanitize, SANITIZE_SCHEMA)
    .use(rehypeStringify)
    .freeze();
}

/** The whole pipeline (exported for the test that holds the plain one to it). */
export const markdownProcessor = markdownPipeline({ raw: true });
const plainMarkdownProcessor = markdownPipeline({ raw: false });

/**
 * The Markdown nodes whose HTML rehype-raw gives back as it was given. rehype-raw parses the
 * tree again with an HTML parser (parse5), which is what makes raw HTML (`html` nodes) safe
 * to sanitise, and costs about a tenth of a short section's rendering. Without raw HTML it
 * changes nothing in these nodes' HTML (tests/unit/markdown.test.ts compares both pipelines);
 * it does change footnotes (their boolean data-* attributes come back as empty strings) and a
 * code block that starts with a blank line, so a tree with those, or with any other node (raw
 * HTML among them), takes the whole pipeline.
 */
const PLAIN_NODES = new Set([
  'blockquote', 'break', 'code', 'definition', 'delete', 'emphasis', 'heading', 'image', 'imageReference', 'inlineCode', 'link', 'linkReference',
  'list', 'listItem', 'paragraph', 'strong', 'table', 'tableCell', 'tableRow', 'text', 'thematicBreak',
]);

/** Whether these nodes, and all they contain, are PLAIN_NODES. */
function allPlain(nodes: readonly MdastContent[]): boolean {
  const pending: unknown[] = [...nodes];
  while (pending.length > 0) {
    const node = pending.pop() as { type: string; value?: string; children?: unknown[] };
    if (!PLAIN_NODES.has(node.type)) return false;
    // The HTML parser drops a line feed right after <pre> (here, before the code's first line).
    if (node.type === 'code' && node.value!.startsWith('\n')) return false;
    if (node.children) for (const child of node.children) pending.push(child);
  }
  return true;
}

const htmlProcessor = unified()
  .use(rehypeParse, { fragment: true })
  .use(rehypeSanitize, SANITIZE_SCHEMA)
  .use(rehypeStringify)
  .freeze();

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Text is segmented a chunk at a time: on Node 20, each step of Intl.Segmenter costs time in
 * proportion to the whole string, so one 200 KB paragraph took 20 s. Chunks are cut only where
 * Unicode always puts a word boundary (after a line feed, between a space or a CJK stop and a
 * letter or digit), so counts are the same as for the whole text; a run longer than CHUNK_HARD with no
 * such place (a very long CJK paragraph, a token) is cut at a code point, which may count one
 * word twice there.
 */
const CHUNK = 512;
const CHUNK_HARD = 2048;
/**
 * After a line feed; or between a space or a CJK full stop, comma, exclamation or question mark
 * (Word_Break "Other", outside dictionary runs) and a letter or digit (never Extend, Format, ZWJ).
 */
const SAFE_CUT = /\n|[\u0020\u3001\u3002\uff01\uff1f](?=[\p{Lu}\p{Ll}\p{Lt}\p{Lo}\p{Nd}])/u;

function cutAfter(text: string, from: number): number {
  const limit = from + CHUNK_HARD;
  if (limit >= text.length) return text.length;
  const window = text.slice(from + CHUNK, limit);
  const match = SAFE_CUT.exec(window);
  if (match) return from + CHUNK + match.index + 1;
  // No safe place: cut at a code point, never between the halves of a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/**
 * A run of ASCII between whitespace that is one word wherever it is: letters and digits, after
 * opening brackets or quotes and before closing ones or punctuation (each of those is a segment
 * of its own, not a word, as Intl.Segmenter splits them: none joins letters it does not sit between).
 */
const ONE_WORD = /^[("'[]*[A-Za-z0-9]+[)"'\].,;:!?]*$/;
const ASCII_TEXT = /^[\x00-\x7f]*$/;
const ASCII_WHITESPACE = /[ \t\n\v\f\r]+/;

function countSegmentWords(text: string): number {
  // In ASCII text, Unicode puts a word boundary on both sides of every run of whitespace, so
  // the runs between them are counted one at a time, the common ones without the segmenter.
  if (ASCII_TEXT.test(text)) {
    let words = 0;
    for (const run of text.split(ASCII_WHITESPACE)) {
      if (run) words += ONE_WORD.test(run) ? 1 : countWithSegmenter(run);
    }
    return words;
  }
  return countWithSegmenter(text);
}

function countWithSegmenter(text: string): number {
  let n = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) n += 1;
  return n;
}

/** Words of a text by Unicode word segmentation: CJK counts sensibly, punctuation does not. */
export function countWords(text: string): number {
  let n = 0;
  for (let start = 0; start < text.length; ) {
    const end = text.length - start <= CHUNK_HARD ? text.length : cutAfter(text, start);
    n += countSegmentWords(text.slice(start, end));
    start = end;
  }
  return n;
}

/** Elements whose text runs on with their neighbours; every other element separates words. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'kbd', 'mark', 'q',
  'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);

/** Whether an element's text runs on with its neighbours' (inline) rather than standing apart (block). */
export const isInlineElement = (tagName: string) => INLINE.has(tagName);

/** Plain text of a sanitised HTML tree, with block boundaries kept as line breaks, built in one pass. */
function hastText(node: HastRoot | HastContent): string {
  const parts: string[] = [];
  const walk = (n: HastRoot | HastContent) => {
    if (n.type === 'text') parts.push(n.value);
    if (n.type !== 'root' && n.type !== 'element') return;
    const block = n.type === 'element' && !INLINE.has(n.tagName);
    if (block) parts.push('\n');
    for (const child of n.children) walk(child);
    if (block) parts.push('\n');
  };
  walk(node);
  return parts.join('');
}

/** Text content as search shows it: blocks on their own lines, no blank runs or edge whitespace. */
const searchableText = (text: string) => text.replace(/[ \t]*\n\s*\n\s*/g, '\n\n').trim();

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function renderMdast(children: MdastContent[]): { html: string; words: number } {
  const root: MdastRoot = { type: 'root', children };
  const processor = allPlain(children) ? plainMarkdownProcessor : markdownProcessor;
  const hast = processor.runSync(root) as HastRoot;
  return { html: processor.stringify(hast), words: countWords(hastText(hast)) };
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
  return { level: 0, title: '', markdown: '', html: '', words: 0, source: 'markdown', htmlText: null };
}

/** Removes blank lines at the start (not indentation: it may be an indented code block). */
const trimLeadingBlankLines = (text: string) => text.replace(/^(?:[ \t]*\r?\n)+/, '');
const trimEnd = (text: string) => text.replace(/\s+$/, '');

type Definition = Extract<MdastContent, { type: 'definition' | 'footnoteDefinition' }>;

/** Key of a definition or reference, as mdast-util-to-hast matches them. */
const definitionKey = (kind: 'link' | 'footnote', identifier: string) => `${kind}:${identifier.toUpperCase()}`;

/** The document's top-level definitions by key, in document order (a key may repeat). */
function definitionsById(nodes: MdastContent[]): Map<string, Definition[]> {
  const byId = new Map<string, Definition[]>();
  for (const node of nodes) {
    if (node.type !== 'definition' && node.type !== 'footnoteDefinition') continue;
    const key = definitionKey(node.type === 'definition' ? 'link' : 'footnote', node.identifier);
    const list = byId.get(key);
    if (list) list.push(node);
    else byId.set(key, [node]);
  }
  return byId;
}

/**
 * The definitions, from elsewhere in the document, that `own` nodes refer to (footnotes may
 * refer to other footnotes), in document order: what rendering `own` alone needs.
 */
function usedDefinitions(own: MdastContent[], definitions: Map<string, Definition[]>): Definition[] {
  if (definitions.size === 0) return [];
  const ownSet = new Set<unknown>(own);
  const used = new Set<Definition>();
  const seen = new Set<string>();
  const pending: unknown[] = [...own];
  while (pending.length > 0) {
    const node = pending.pop() as { type: string; identifier?: string; children?: unknown[] };
    if (node.type === 'linkReference' || node.type === 'imageReference' || node.type === 'footnoteReference') {
      const key = definitionKey(node.type === 'footnoteReference' ? 'footnote' : 'link', String(node.identifier));
      if (!seen.has(key)) {
        seen.add(key);
        for (const definition of definitions.get(key) ?? []) {
          if (ownSet.has(definition)) continue;
          used.add(definition);
          if (definition.type === 'footnoteDefinition') pending.push(definition);
        }
      }
    }
    if (node.children) for (const child of node.children) pending.push(child);
  }
  return [...used].sort((a, b) => a.position!.start.offset! - b.position!.start.offset!);
}

/**
 * Splits a Markdown document into sections. Only headings that are direct children of the
 * document start a section (not those in code, block quotes, lists or HTML blocks). Each
 * section's `markdown` is its exact source slice; text before the first heading, if not
 * blank, is a section of level 0 with title "". A blank document gives no sections.
 *
 * Link and footnote definitions apply across the whole document, as Markdown means them to,
 * so each section is rendered with the definitions it uses, wherever they are in the document
 * (only those: rendering every definition in every section made the cost sections times
 * definitions).
 */
export function splitMarkdown(markdown: string): SectionContent[] {
  const tree = parseMarkdown(markdown);
  const nodes = tree.children;
  const definitions = definitionsById(nodes);
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
    const { html, words } = renderMdast([...own, ...usedDefinitions(own, definitions)]);
    const heading = first?.type === 'heading' ? (first as Heading) : undefined;
    sections.push({
      level: heading ? heading.depth : 0,
      title: heading ? collapse(mdastToString(heading, { includeHtml: false })) : '',
      markdown: slice,
      html,
      words,
      source: 'markdown',
      htmlText: null,
    });
  }
  return sections;
}

/** HTML sanitised with the schema of every section (the public copy runs its HTML through it again). */
export function sanitizeHtml(html: string): string {
  return htmlProcessor.stringify(htmlProcessor.runSync(htmlProcessor.parse(html)) as HastRoot);
}

/** HTML parsed as a fragment and sanitised with the sections' schema: a tree to edit, then `stringifyHtml`. */
export function parseSectionHtml(html: string): HastRoot {
  return htmlProcessor.runSync(htmlProcessor.parse(html)) as HastRoot;
}

export function stringifyHtml(tree: HastRoot): string {
  return htmlProcessor.stringify(tree);
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
  const text = hastText(tree);
  return {
    level: heading ? Number(heading.tagName[1]) : 0,
    title: heading ? collapse(hastText(heading)) : '',
    markdown: null,
    html: htmlProcessor.stringify(tree),
    words: countWords(text),
    source: 'html',
    htmlText: searchableText(text),
  };
}

/**
 * A section typed in the canvas, split where a heading at the section's own level or above
 * starts a new one (CONTRACT 22), as splitMarkdown splits an agent's Markdown: only headings that
 * are top-level blocks count (not those in a quote or list), and the first block is the section's
 * own heading. The section's level is its first block's, when that is a heading; else `level`
 * (what it had); a section of level 0 (the text before the first heading) splits at any heading.
 * A deeper heading stays inside. Each part is a canvasSection; one part when nothing splits.
 */
export function splitCanvasSection(input: { html: string; level: number }): SectionContent[] {
  const tree = htmlProcessor.runSync(htmlProcessor.parse(input.html)) as HastRoot;
  const headingLevel = (node: HastRoot['children'][number]) => (node.type === 'element' && /^h[1-6]$/.test(node.tagName) ? Number(node.tagName[1]) : 0);
  const blocks = tree.children;
  const firstBlock = blocks.findIndex((node) => node.type === 'element');
  const own = firstBlock >= 0 ? headingLevel(blocks[firstBlock]) : 0;
  const level = own || input.level || 6;
  const starts = [0];
  blocks.forEach((node, i) => {
    const heading = headingLevel(node);
    if (i > firstBlock && heading && heading <= level) starts.push(i);
  });
  if (starts.length === 1) return [canvasSection(input.html)];
  return starts.map((start, k) => canvasSection(htmlProcessor.stringify({ type: 'root', children: blocks.slice(start, starts[k + 1] ?? blocks.length) } as HastRoot)));
}
