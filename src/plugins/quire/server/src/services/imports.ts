import type { Core } from '@strapi/strapi';
import { LIMITS, importFrontMatter } from '../controllers/inputs';
import { positiveIntEnv } from '../domain/env';
import { ApiError, invalidArgument } from '../domain/errors';
import { splitFrontMatter } from '../domain/front-matter';
import { ConversionError, convertHtmlInWorker, type HtmlJob } from '../domain/html-worker';
import { resolveTitle } from '../domain/import-document';
import { parseInput } from '../domain/validation';
import type { NoteAuthor, NoteInput } from './notes';

export type ImportSource = { markdown: string } | { html: string } | { url: string };

/** What the import turns into one createArticle call. */
interface Document {
  title: string;
  markdown: string;
  premise?: string | null;
  notes: NoteInput[];
}

/** Heap of one conversion worker: a 2 MiB page parsed by jsdom needs a few hundred MB. */
const WORKER_MEMORY_MB = 512;

const FRONT_MATTER_NEXT = 'Fix the front matter: title (text), premise (text), notes (a list of {kind, title, body?, url?}).';

/**
 * Imports: a Markdown document (with optional YAML front matter), an HTML document, or a web
 * page's main content become one new article, in one transaction. HTML is converted to
 * Markdown, so imported sections are Markdown-canonical. Web pages come only through the
 * guarded fetcher of link previews, rate limited per user (IMPORT_RATE_LIMIT a minute).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const perMinute = positiveIntEnv('IMPORT_RATE_LIMIT', 10);
  const timeoutMs = positiveIntEnv('IMPORT_TIMEOUT_MS', 20_000);

  /** Parsers recurse: a document nested thousands of levels deep is refused, not a 500. */
  const tooDeep = (field: string) =>
    invalidArgument(`${field} is nested too deeply to import.`, 'Flatten the deepest nesting (lists, quotes, elements) and retry.');

  function checkSize(field: string, markdown: string) {
    if (markdown.length > LIMITS.markdown) {
      throw invalidArgument(
        `${field} converts to more than ${LIMITS.markdown.toLocaleString('en')} characters of Markdown.`,
        'Split the document and import it in parts.',
      );
    }
  }

  function fromMarkdown(source: string, title: string | undefined): Document {
    const { data, body } = splitFrontMatter(source.replace(/^\uFEFF/, ''));
    let front;
    try {
      front = parseInput(importFrontMatter, data, FRONT_MATTER_NEXT);
    } catch (error) {
      if (error instanceof ApiError) throw invalidArgument(`markdown front matter: ${error.message}`, error.nextAction);
      throw error;
    }
    const resolved = resolveTitle(body, { explicit: title ?? front.title });
    return { title: resolved.title, markdown: resolved.markdown, premise: front.premise, notes: front.notes ?? [] };
  }

  /** HTML (a document, or a fetched page reduced to its main content) to Markdown, off the main thread. */
  async function convert(field: string, job: HtmlJob) {
    try {
      return await convertHtmlInWorker(job, { timeoutMs, maxMemoryMb: WORKER_MEMORY_MB });
    } catch (error) {
      if (!(error instanceof ConversionError)) throw error;
      if (error.reason === 'too-deep') throw tooDeep(field);
      throw invalidArgument(
        `${field}: the ${job.kind === 'page' ? 'page' : 'document'} is too complex to import (it could not be converted ${
          error.reason === 'timeout' ? `within ${Math.round(timeoutMs / 100) / 10} seconds` : `in ${WORKER_MEMORY_MB} MB of memory`
        }).`,
        job.kind === 'page' ? 'Save the article part of the page as HTML or Markdown and import that instead.' : 'Import a smaller or simpler document, or its Markdown.',
      );
    }
  }

  async function fromHtml(html: string, title: string | undefined): Promise<Document> {
    const converted = await convert('html', { kind: 'html', html });
    checkSize('html', converted.markdown);
    const resolved = resolveTitle(converted.markdown, { explicit: title, page: converted.title });
    return { title: resolved.title, markdown: resolved.markdown, notes: [] };
  }

  async function fromUrl(userId: number, url: string, title: string | undefined): Promise<Document> {
    await strapi
      .plugin('quire')
      .service('rateLimit')
      .consume('import-url', String(userId), { points: perMinute, durationSec: 60 }, 1, `Too many imports from URLs (at most ${perMinute} a minute).`);
    const page = await strapi.plugin('quire').service('unfurl').fetchPage(url);
    const converted = await convert('url', { kind: 'page', html: page.html, url: page.url });
    checkSize('url', converted.markdown);
    const resolved = resolveTitle(converted.markdown, { explicit: title, page: converted.title });
    const canonicalUrl = converted.canonicalUrl && converted.canonicalUrl.length <= LIMITS.url ? converted.canonicalUrl : page.url;
    // The page's own address becomes a source note of the Brief.
    const source: NoteInput = { kind: 'source', title: converted.title ?? new URL(canonicalUrl).hostname, url: canonicalUrl };
    return { title: resolved.title, markdown: resolved.markdown, notes: [source] };
  }

  return {
    async importArticle(userId: number, source: ImportSource, options: { title?: string; author: NoteAuthor }) {
      const field = Object.keys(source)[0];
      try {
        let document: Document;
        if ('url' in source) document = await fromUrl(userId, source.url, options.title);
        else if ('html' in source) document = await fromHtml(source.html, options.title);
        else document = fromMarkdown(source.markdown, options.title);
        return await strapi.plugin('quire').service('articles').createArticle(userId, {
          title: document.title,
          markdown: document.markdown,
          premise: document.premise,
          notes: document.notes,
          notesCreatedBy: options.author,
        });
      } catch (error) {
        if (error instanceof RangeError && /call stack/i.test(error.message)) throw tooDeep(field);
        throw error;
      }
    },
  };
};
