/**
 * HTML to Markdown for imports, in a worker thread with a deadline and a memory cap.
 *
 * Readability and the HTML parsers are synchronous and their cost grows with the page's
 * size and nesting (measured: a 2 MiB page of nested divs kept Readability busy for 40 s, a
 * 1,000-deep one for minutes). Run on the main thread, one hostile page would stall every
 * request; in a worker it costs one core until the deadline, then the worker is terminated.
 */
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { cleanTitle, htmlToImportMarkdown } from './import-document';
import { extractReadable } from './readable';

/** `html`: a document given as is; `page`: a fetched web page, reduced to its main content first. */
export type HtmlJob = { kind: 'html'; html: string } | { kind: 'page'; html: string; url: string };

export interface HtmlJobResult {
  markdown: string;
  /** The document's `<title>`, or the page's title as Readability reads it; null when none. */
  title: string | null;
  /** Pages only: `<link rel=canonical>`, else `og:url`, else the page's address. */
  canonicalUrl?: string;
}

export type ConversionFailure = 'too-deep' | 'timeout' | 'memory';

export class ConversionError extends Error {
  readonly reason: ConversionFailure;
  constructor(reason: ConversionFailure, message: string) {
    super(message);
    this.name = 'ConversionError';
    this.reason = reason;
  }
}

export function convertHtml(job: HtmlJob): HtmlJobResult {
  if (job.kind === 'html') return htmlToImportMarkdown(job.html);
  const page = extractReadable(job.html, job.url);
  return { markdown: htmlToImportMarkdown(page.html).markdown, title: cleanTitle(page.title), canonicalUrl: page.canonicalUrl };
}

const isStackOverflow = (error: unknown) => error instanceof RangeError && /call stack/i.test(error.message);

type Message = { ok: true; result: HtmlJobResult } | { ok: false; tooDeep: boolean; message: string };

// The worker's side: this same file, started with a job.
if (!isMainThread && workerData?.quireHtmlJob) {
  let message: Message;
  try {
    message = { ok: true, result: convertHtml(workerData.quireHtmlJob as HtmlJob) };
  } catch (error) {
    message = { ok: false, tooDeep: isStackOverflow(error), message: String((error as Error)?.message ?? error) };
  }
  parentPort!.postMessage(message);
}

export interface WorkerLimits {
  timeoutMs: number;
  maxMemoryMb: number;
}

/**
 * Runs `convertHtml(job)` in a fresh worker. Rejects with ConversionError when the document
 * nests too deeply for the parsers, takes longer than `timeoutMs`, or needs more than
 * `maxMemoryMb` of heap; with a plain Error for anything else.
 */
export function convertHtmlInWorker(job: HtmlJob, limits: WorkerLimits): Promise<HtmlJobResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, 'html-worker.js'), {
      workerData: { quireHtmlJob: job },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      worker.terminate().catch(() => undefined);
    };
    const timer = setTimeout(
      () => settle(() => reject(new ConversionError('timeout', `Not converted within ${limits.timeoutMs} ms.`))),
      limits.timeoutMs,
    );
    worker.once('message', (message: Message) =>
      settle(() => {
        if (message.ok) resolve(message.result);
        else if (message.tooDeep) reject(new ConversionError('too-deep', message.message));
        else reject(new Error(`HTML conversion failed: ${message.message}`));
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ConversionError('memory', `Needed more than ${limits.maxMemoryMb} MB.`)
            : isStackOverflow(error)
              ? new ConversionError('too-deep', error.message)
              : error,
        ),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`The HTML conversion worker exited (${code}) without an answer.`))));
  });
}
