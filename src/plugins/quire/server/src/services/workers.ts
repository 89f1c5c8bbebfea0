import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { createWorkerPool, PoolBusyError, TaskLimitError, type WorkerPool } from '#kernel/worker-pool';
import type { SerializedError } from '#kernel/worker-task';
import { ApiError, invalidArgument, rateLimited } from '#kernel/errors';
import { quireConfig } from '../config';
import type { Tasks } from '../domain/worker-tasks';

/** How a failure names what was being worked on: "markdown: the Markdown is too complex to process...". */
export interface Subject {
  /** The request field, or null when the message should not start with one. */
  field: string | null;
  /** "the Markdown", "the page", "The SVG"... */
  what: string;
  /** "process", "import", "publish"... */
  verb: string;
  /** "rendered", "converted", "sanitised"... */
  done: string;
  nextAction: string;
}

const reviveError = (e: SerializedError) =>
  e.code ? new ApiError(e.code, e.message, e.nextAction, { status: e.status, headers: e.headers }) : Object.assign(new Error(e.message), { name: e.name });

/**
 * The article service's CPU-heavy steps (Markdown, HTML, YAML, SVG, publication), run in the
 * process's bounded pool of worker threads (kernel/worker-pool, tasks in domain/worker-tasks)
 * so that no request keeps the event loop busy for long. Inputs of at most
 * WORKER_INLINE_MAX_CHARS characters (a paragraph) run on the main thread instead, sparing
 * them the round trip: the most hostile of them costs about 40 ms (see README, Performance).
 * Failures become the envelope:
 * a full pool 429 `rate-limited` with Retry-After; a deadline, the heap cap or a stack overflow
 * 400 `invalid-argument` saying the input is too complex and what to do.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const config = quireConfig(strapi);
  let pool: WorkerPool | undefined;
  const workers = () =>
    (pool ??= createWorkerPool({
      // Compiled next to this file in dist/; Jest's API tests load the app from dist/ too.
      filename: path.join(__dirname, '..', 'domain', 'worker-tasks.js'),
      threads: config.workerThreads,
      maxQueue: config.workerQueue,
      timeoutMs: config.workerTimeoutMs,
      maxMemoryMb: config.workerMemoryMb,
      reviveError,
    }));

  function failure(error: unknown, subject: Subject): unknown {
    if (error instanceof PoolBusyError) {
      return rateLimited(error.retryAfterSec, 'The server is busy with other documents: none of its workers is free.');
    }
    if (!(error instanceof TaskLimitError)) return error;
    const prefix = subject.field ? `${subject.field}: ${subject.what}` : subject.what.replace(/^./, (c) => c.toUpperCase());
    if (error.limit === 'too-deep') {
      return invalidArgument(`${subject.field ?? prefix} is nested too deeply to ${subject.verb}.`, 'Flatten the deepest nesting (lists, quotes, elements) and retry.');
    }
    const limit = error.limit === 'timeout' ? `within ${Math.round(error.timeoutMs / 100) / 10} seconds` : `in ${error.maxMemoryMb} MB of memory`;
    return invalidArgument(`${prefix} is too complex to ${subject.verb} (it could not be ${subject.done} ${limit}).`, subject.nextAction);
  }

  async function run<K extends keyof Tasks>(
    task: K,
    input: Tasks[K][0],
    subject: Subject,
    options: { size: number; timeoutMs?: number; alwaysInWorker?: boolean },
  ): Promise<Tasks[K][1]> {
    const inline = !options.alwaysInWorker && options.size <= config.workerInlineMaxChars;
    try {
      return await workers().run<Tasks[K][1]>(task, input, { timeoutMs: options.timeoutMs, inline });
    } catch (error) {
      throw failure(error, subject);
    }
  }

  const MARKDOWN_NEXT =
    'Split it into smaller sections, or simplify what nests or repeats (links and images inside one another, long runs of * or _, tables of thousands of rows, thousands of footnotes).';
  const markdownSubject = (field: string): Subject => ({ field, what: 'the Markdown', verb: 'process', done: 'rendered', nextAction: MARKDOWN_NEXT });

  const htmlSubject = (field: string): Subject => ({ field, what: 'the HTML', verb: 'process', done: 'sanitised', nextAction: 'Split it into smaller sections, or simplify its nesting.' });

  return {

    /** splitMarkdown (domain/markdown), off the event loop. */
    splitMarkdown(markdown: string, field = 'markdown') {
      return run('splitMarkdown', markdown, markdownSubject(field), { size: markdown.length });
    },

    /** renderMarkdown (domain/markdown), off the event loop. */
    renderMarkdown(markdown: string, field = 'body') {
      return run('renderMarkdown', markdown, markdownSubject(field), { size: markdown.length });
    },

    /** canvasSection (domain/markdown), off the event loop. */
    canvasSection(html: string, field = 'html') {
      return run('canvasSection', html, htmlSubject(field), { size: html.length });
    },

    /** splitCanvasSection (domain/markdown): a typed section split at its headings, off the event loop. */
    splitCanvasSection(html: string, level: number, field = 'html') {
      return run('splitCanvasSection', { html, level }, htmlSubject(field), { size: html.length });
    },

    /** An imported document's front matter and body (domain/front-matter). */
    splitFrontMatter(source: string, subject: Subject, timeoutMs?: number) {
      return run('splitFrontMatter', source, subject, { size: source.length, timeoutMs });
    },

    /** An imported document's title and sections (domain/worker-tasks articleDraft). */
    draftArticle(input: Tasks['draftArticle'][0], subject: Subject, timeoutMs?: number) {
      return run('draftArticle', input, subject, { size: input.markdown.length, timeoutMs });
    },

    /** HTML (a document, or a page reduced by Readability) to Markdown; always in a worker (jsdom). */
    convertHtml(job: Tasks['convertHtml'][0], subject: Subject, timeoutMs?: number) {
      return run('convertHtml', job, subject, { size: job.html.length, timeoutMs, alwaysInWorker: true });
    },

    /** An uploaded SVG, sanitised (domain/svg); always in a worker (jsdom). */
    sanitizeSvg(bytes: Buffer) {
      const subject: Subject = { field: null, what: 'the SVG', verb: 'sanitise', done: 'sanitised', nextAction: 'Simplify the drawing, or export it as PNG.' };
      return run('sanitizeSvg', bytes, subject, { size: bytes.length, alwaysInWorker: true });
    },

    /** The parsed part of a publication (domain/publication publicationContent). */
    publicationContent(input: Tasks['publicationContent'][0]) {
      const size = input.sections.reduce((sum, s) => sum + s.html.length + (s.markdown?.length ?? 0), 0);
      const subject: Subject = {
        field: null,
        what: 'the article',
        verb: 'publish',
        done: 'rendered',
        nextAction: 'Simplify or split its largest sections, then publish again.',
      };
      return run('publicationContent', input, subject, { size });
    },

    /** The unified diffs of a dry run, one per op (domain/diff: bounded, then coarse). */
    diffs(jobs: Tasks['diffAll'][0]) {
      const size = jobs.reduce((sum, parts) => sum + parts.reduce((n, p) => n + p.before.length + p.after.length, 0), 0);
      const subject: Subject = { field: null, what: 'the diff', verb: 'compute', done: 'computed', nextAction: 'Retry without dryRun, or with fewer operations.' };
      return run('diffAll', jobs, subject, { size });
    },

    /** replaceText on an html section, step 1: its occurrences in the text (domain/html-replace). */
    countHtmlText(input: Tasks['countHtmlText'][0]) {
      return run('countHtmlText', input, htmlSubject('html'), { size: input.html.length });
    },

    /** replaceText on an html section, step 2: the section with them replaced, sanitised. */
    replaceHtmlText(input: Tasks['replaceHtmlText'][0]) {
      return run('replaceHtmlText', input, htmlSubject('html'), { size: input.html.length });
    },

    /** A Markdown rendering of an html section's HTML (GET ...?as=markdown). */
    sectionMarkdown(html: string) {
      const subject: Subject = { field: null, what: 'the section\'s HTML', verb: 'convert', done: 'converted', nextAction: 'Read the section without ?as=markdown (its HTML).' };
      return run('sectionMarkdown', html, subject, { size: html.length });
    },

    stats() {
      return pool?.stats() ?? null;
    },

    async close() {
      const closing = pool;
      pool = undefined;
      await closing?.close();
    },
  };
};
