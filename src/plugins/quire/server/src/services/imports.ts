import type { Core } from '@strapi/strapi';
import { quireConfig } from '../config';
import { importFrontMatter } from '../schemas/inputs/imports';
import { LIMITS } from '../schemas/inputs/shared';
import { ApiError, invalidArgument } from '#kernel/errors';
import type { ArticleDraft, HtmlJob } from '../domain/worker-tasks';
import { parseInput } from '#kernel/parse';
import type { NoteAuthor, NoteInput } from './notes';
import type { Subject } from './workers';
import { getService } from './get-service';

export type ImportSource = { markdown: string } | { html: string } | { url: string };

/** What the import turns into one createArticle call. */
interface Document {
  draft: ArticleDraft;
  premise?: string | null;
  notes: NoteInput[];
}

const FRONT_MATTER_NEXT = 'Fix the front matter: title (text), premise (text), notes (a list of {kind, title, body?, url?}).';

/**
 * Imports: a Markdown document (with optional YAML front matter), an HTML document, or a web
 * page's main content become one new article, in one transaction. HTML is converted to
 * Markdown, so imported sections are Markdown-canonical. Every parsing step runs in the worker
 * pool (services/workers) with the import deadline. Imports are rate limited per user: those
 * from URLs (IMPORT_RATE_LIMIT a minute), which fetch through the guarded fetcher of link
 * previews, and those of documents (IMPORT_DOCUMENT_RATE_LIMIT a minute), counted apart.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const { importRateLimit: perMinute, importDocumentRateLimit: documentsPerMinute, importTimeoutMs: timeoutMs } = quireConfig(strapi);
  const workers = () => getService(strapi, 'workers');

  const subject = (field: string, kind: 'page' | 'document'): Subject => ({
    field,
    what: `the ${kind}`,
    verb: 'import',
    done: 'converted',
    nextAction: kind === 'page' ? 'Save the article part of the page as HTML or Markdown and import that instead.' : 'Import a smaller or simpler document, or its Markdown.',
  });

  function checkSize(field: string, markdown: string) {
    if (markdown.length > LIMITS.markdown) {
      throw invalidArgument(
        `${field} converts to more than ${LIMITS.markdown.toLocaleString('en')} characters of Markdown.`,
        'Split the document and import it in parts.',
      );
    }
  }

  async function fromMarkdown(source: string, title: string | undefined): Promise<Document> {
    const about = subject('markdown', 'document');
    const { data, body } = await workers().splitFrontMatter(source.replace(/^\uFEFF/, ''), about, timeoutMs);
    let front;
    try {
      front = parseInput(importFrontMatter, data, FRONT_MATTER_NEXT);
    } catch (error) {
      if (error instanceof ApiError) throw invalidArgument(`markdown front matter: ${error.message}`, error.nextAction);
      throw error;
    }
    const draft = await workers().draftArticle({ markdown: body, explicit: title ?? front.title }, about, timeoutMs);
    return { draft, premise: front.premise, notes: front.notes ?? [] };
  }

  /** HTML (a document, or a fetched page reduced to its main content) to Markdown, off the main thread. */
  function convert(field: string, job: HtmlJob) {
    return workers().convertHtml(job, subject(field, job.kind === 'page' ? 'page' : 'document'), timeoutMs);
  }

  async function fromHtml(html: string, title: string | undefined): Promise<Document> {
    const converted = await convert('html', { kind: 'html', html });
    checkSize('html', converted.markdown);
    const draft = await workers().draftArticle({ markdown: converted.markdown, explicit: title, page: converted.title }, subject('html', 'document'), timeoutMs);
    return { draft, notes: [] };
  }

  async function fromUrl(userId: number, url: string, title: string | undefined): Promise<Document> {
    await getService(strapi, 'rateLimit')
      .consume('import-url', String(userId), { points: perMinute, durationSec: 60 }, 1, `Too many imports from URLs (at most ${perMinute} a minute).`);
    const page = await getService(strapi, 'unfurl').fetchPage(url);
    const converted = await convert('url', { kind: 'page', html: page.html, url: page.url });
    checkSize('url', converted.markdown);
    const draft = await workers().draftArticle({ markdown: converted.markdown, explicit: title, page: converted.title }, subject('url', 'page'), timeoutMs);
    const canonicalUrl = converted.canonicalUrl && converted.canonicalUrl.length <= LIMITS.url ? converted.canonicalUrl : page.url;
    // The page's own address becomes a source note of the Brief.
    const source: NoteInput = { kind: 'source', title: converted.title ?? new URL(canonicalUrl).hostname, url: canonicalUrl };
    return { draft, notes: [source] };
  }

  return {
    async importArticle(userId: number, source: ImportSource, options: { title?: string; author: NoteAuthor; actor?: { kind: 'agent' | 'human' | 'editor'; name: string } }) {
      const field = Object.keys(source)[0];
      if (!('url' in source)) {
        await getService(strapi, 'rateLimit')
          .consume('import-document', String(userId), { points: documentsPerMinute, durationSec: 60 }, 1, `Too many imports of documents (at most ${documentsPerMinute} a minute).`);
      }
      try {
        let document: Document;
        if ('url' in source) document = await fromUrl(userId, source.url, options.title);
        else if ('html' in source) document = await fromHtml(source.html, options.title);
        else document = await fromMarkdown(source.markdown, options.title);
        return await getService(strapi, 'articles').createArticle(userId, {
          title: document.draft.title,
          markdown: document.draft.markdown,
          contents: document.draft.sections,
          premise: document.premise,
          notes: document.notes,
          notesCreatedBy: options.author,
          actor: options.actor,
        });
      } catch (error) {
        // Inputs small enough to parse on the main thread can still overflow the parsers' stack.
        if (error instanceof RangeError && /call stack/i.test(error.message)) {
          throw invalidArgument(`${field} is nested too deeply to import.`, 'Flatten the deepest nesting (lists, quotes, elements) and retry.');
        }
        throw error;
      }
    },
  };
};
