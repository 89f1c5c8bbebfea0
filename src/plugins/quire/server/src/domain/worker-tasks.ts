/**
 * The tasks of the worker pool (kernel/worker-pool): every CPU-heavy step of the article
 * service, run in a worker thread so that no request keeps the event loop busy. The parsers
 * are synchronous and some are super-linear in hostile input (nested image labels, runs of
 * emphasis, deep HTML for Readability, jsdom on many attributes); in a worker, such an input
 * costs one thread until the deadline, then the thread is replaced.
 *
 * Each export is a task by name, taking one structured-cloneable value. Modules that load
 * jsdom are required on first use, so that threads doing only Markdown start fast.
 */
import { workerTask } from '#kernel/worker-task';
import * as diff from './diff';
import * as frontMatter from './front-matter';
import * as htmlReplace from './html-replace';
import { htmlToMarkdown } from './html-to-markdown';
import { cleanTitle, htmlToImportMarkdown, resolveTitle } from './import-document';
import * as markdown from './markdown';
import type { SectionContent } from './markdown';
import * as publication from './publication';

/** `html`: a document given as is; `page`: a fetched web page, reduced to its main content first. */
export type HtmlJob = { kind: 'html'; html: string } | { kind: 'page'; html: string; url: string };

export interface HtmlJobResult {
  markdown: string;
  /** The document's `<title>`, or the page's title as Readability reads it; null when none. */
  title: string | null;
  /** Pages only: `<link rel=canonical>`, else `og:url`, else the page's address. */
  canonicalUrl?: string;
}

/** HTML to Markdown for imports (a page is first reduced to its main content by Readability). */
export function htmlToMarkdownDocument(job: HtmlJob): HtmlJobResult {
  if (job.kind === 'html') return htmlToImportMarkdown(job.html);
  const { extractReadable } = require('./readable') as typeof import('./readable');
  const page = extractReadable(job.html, job.url);
  return { markdown: htmlToImportMarkdown(page.html).markdown, title: cleanTitle(page.title), canonicalUrl: page.canonicalUrl };
}

export interface ArticleDraft {
  title: string;
  markdown: string;
  sections: SectionContent[];
}

/** An imported document's title and body (see resolveTitle), split into sections. */
export function articleDraft(input: { markdown: string; explicit?: string | null; page?: string | null }): ArticleDraft {
  const resolved = resolveTitle(input.markdown, { explicit: input.explicit, page: input.page });
  return { title: resolved.title, markdown: resolved.markdown, sections: resolved.markdown ? markdown.splitMarkdown(resolved.markdown) : [] };
}

/** The sanitised SVG text of an upload (domain/svg, which loads jsdom: required on first use). */
function sanitizeSvgText(bytes: Uint8Array): string {
  return (require('./svg') as typeof import('./svg')).sanitizeUploadedSvg(bytes);
}

// Piscina finds a task by its name among the module's exports.
export const {
  splitMarkdown,
  renderMarkdown,
  canvasSection,
  splitCanvasSection,
  splitFrontMatter,
  convertHtml,
  draftArticle,
  sanitizeSvg,
  publicationContent,
  diffAll,
  countHtmlText,
  replaceHtmlText,
  sectionMarkdown,
} = {
  splitMarkdown: workerTask(markdown.splitMarkdown),
  renderMarkdown: workerTask(markdown.renderMarkdown),
  canvasSection: workerTask(markdown.canvasSection),
  splitCanvasSection: workerTask(markdown.splitCanvasSection),
  splitFrontMatter: workerTask(frontMatter.splitFrontMatter),
  convertHtml: workerTask(htmlToMarkdownDocument),
  draftArticle: workerTask(articleDraft),
  sanitizeSvg: workerTask(sanitizeSvgText),
  publicationContent: workerTask((input: { sections: publication.PublishedSection[]; publicUrl: string }) =>
    publication.publicationContent(input.sections, input.publicUrl),
  ),
  diffAll: workerTask(diff.diffAll),
  countHtmlText: workerTask(htmlReplace.countHtmlText),
  replaceHtmlText: workerTask(htmlReplace.replaceHtmlText),
  sectionMarkdown: workerTask(htmlToMarkdown),
};

/** Each task's input and result, for the main thread's side. */
export interface Tasks {
  splitMarkdown: [string, SectionContent[]];
  renderMarkdown: [string, string];
  canvasSection: [string, SectionContent];
  splitCanvasSection: [{ html: string; level: number }, SectionContent[]];
  splitFrontMatter: [string, { data: Record<string, unknown>; body: string }];
  convertHtml: [HtmlJob, HtmlJobResult];
  draftArticle: [{ markdown: string; explicit?: string | null; page?: string | null }, ArticleDraft];
  sanitizeSvg: [Uint8Array, string];
  publicationContent: [{ sections: publication.PublishedSection[]; publicUrl: string }, publication.PublicationContent];
  diffAll: [diff.DiffPart[][], string[]];
  countHtmlText: [{ html: string; find: string }, htmlReplace.HtmlTextCount];
  replaceHtmlText: [{ html: string; find: string; replace: string }, SectionContent];
  sectionMarkdown: [string, string];
}
