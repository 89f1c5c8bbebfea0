/** Input schemas of an import: the request, and the front matter of an imported Markdown document. */
import { z } from 'zod';
import { rule, withHint } from '#kernel/parse';
import { LIMITS, markdownField, nonBlank, premiseField, sectionText, splitHint, text, titleField } from './shared';
import { createNoteInput } from './notes';

const IMPORT_SOURCES = ['markdown', 'html', 'url'] as const;
const ONE_SOURCE_NEXT = 'Pass exactly one of "markdown" (Markdown text), "html" (HTML text) or "url" (a web page), and optionally "title".';
export type ImportSource = { markdown: string } | { html: string } | { url: string };

/** `POST /api/articles/import`: exactly one of markdown, html or url, and an optional title. */
export const importArticleInput = withHint(
  z
    .strictObject({
      markdown: markdownField.optional(),
      html: sectionText(LIMITS.html, 'The HTML', 'one request takes').refine(nonBlank, 'must not be empty').optional(),
      url: z.string().trim().min(1, 'must not be empty').max(LIMITS.url, `must be at most ${LIMITS.url.toLocaleString('en')} characters`).optional(),
      title: titleField.optional(),
    })
    .superRefine((v, issues) => {
      const given = IMPORT_SOURCES.filter((name) => v[name] !== undefined);
      if (given.length === 1) return;
      const message = given.length ? `Pass only one of markdown, html or url (got ${given.join(' and ')}).` : 'One of markdown, html or url is required.';
      issues.addIssue({ code: 'custom', ...rule(message, ONE_SOURCE_NEXT) });
    })
    .transform((v) => {
      const name = IMPORT_SOURCES.find((n) => v[n] !== undefined)!;
      return { source: { [name]: v[name] } as ImportSource, title: v.title };
    }),
  splitHint((field) =>
    ({
      markdown: 'Pass the document as a Markdown string in "markdown".',
      html: 'Pass the document as an HTML string in "html".',
      url: 'Pass the page as an absolute http(s) URL in "url".',
      title: 'Pass a non-empty "title" string, or leave it out to take it from the document.',
    })[field] ?? ONE_SOURCE_NEXT,
  ),
);

export const MAX_IMPORTED_NOTES = 1_000;

/**
 * YAML front matter of an imported Markdown document. Keys other than these (date, tags,
 * layout... of other tools) are ignored; a blank title is no title.
 */
export const importFrontMatter = z.object({
  title: text(LIMITS.title).nullish(),
  premise: premiseField.optional(),
  notes: z.array(createNoteInput).max(MAX_IMPORTED_NOTES, `must have at most ${MAX_IMPORTED_NOTES.toLocaleString('en')} notes`).nullish(),
});
