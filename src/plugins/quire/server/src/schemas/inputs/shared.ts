/**
 * What the input schemas of every resource share: the size limits, the text fields and their
 * hints. The schemas themselves are in this folder, one file per resource. Controllers get what
 * they parse to; the messages name the field and say why ("title must not be empty."), the
 * hints (`withHint`) say what to send instead, and the rules that span fields (after or before,
 * markdown or html, one of markdown, html or url) are refinements with their own message and
 * nextAction (`rule`). Section text over its limit answers with how to split it.
 */
import { z } from 'zod';
import type { HintContext } from '#kernel/parse';
import { REASON_MAX } from '../change-sets';

export const REASON_NEXT = `Pass reason as a string of at most ${REASON_MAX} characters saying why, or leave it out.`;

export const LIMITS = {
  title: 300,
  markdown: 2_000_000,
  html: 2_000_000,
  premise: 20_000,
  noteTitle: 300,
  noteBody: 100_000,
  url: 2_048,
};

export const nonBlank = (s: string) => s.trim().length > 0;

export const text = (max: number) => z.string().max(max, `must be at most ${max.toLocaleString('en')} characters`);

/** A string field where null means "none" (and clears it). */
export const nullableText = (max: number) =>
  z
    .string({ error: (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? 'must be a string or null' : undefined) })
    .max(max, `must be at most ${max.toLocaleString('en')} characters`)
    .nullable();

export const titleField = text(LIMITS.title).trim().min(1, 'must not be empty');

/**
 * Section text (Markdown or HTML) past its limit: the message says so in words a person reads
 * (the field's name stays only as the "field: " prefix), and the nextAction (`splitHint`) says
 * how to go on, which is to split it, not to reword it.
 */
export const sectionText = (max: number, what: string, holder: string) =>
  z.string().max(max, {
    error: (issue) =>
      `${what} is ${String(issue.input ?? '').length.toLocaleString('en')} characters long; ${holder} at most ${max.toLocaleString('en')}.`,
  });

export const markdownText = sectionText(LIMITS.markdown, 'The Markdown', 'one request takes');
export const htmlText = sectionText(LIMITS.html, 'The section', 'one section holds');

/** True when a problem is section text (a markdown or html field) over its size limit. */
export const isTooLong = (issue: { code: string; origin?: string; path?: ReadonlyArray<PropertyKey> } | undefined) =>
  issue?.code === 'too_big' && issue.origin === 'string' && ['markdown', 'html'].includes(String(issue.path?.[issue.path.length - 1]));

/** What to do with text over the limit: split it at headings, and send the parts in turn. */
export const splitNext = (articleId?: string) =>
  `Split the text at headings into parts of at most ${LIMITS.markdown.toLocaleString('en')} characters and send each in its own request: this one with the first part, ` +
  `the others with POST /api/articles/${articleId ?? '{id}'}/sections, "after" the last section.`;

/** A hint that answers text over the limit with `splitNext`, and anything else as `hint` does. */
export const splitHint =
  (hint: (field: string, context: HintContext) => string | undefined) =>
  (field: string, context: HintContext): string | undefined =>
    isTooLong(context.issue as Parameters<typeof isTooLong>[0]) ? splitNext(context.params.id) : hint(field, context);

/** A Markdown body that must say something. */
export const markdownField = markdownText.refine(nonBlank, 'must not be empty');

/** An anchor in a body; null is the same as leaving it out. */
export const anchorField = z
  .string()
  .min(1, 'must not be empty')
  .nullish()
  .transform((v) => v ?? undefined);

export const premiseField = nullableText(LIMITS.premise);

export const TITLE_NEXT = 'Pass a non-empty "title" string.';
export const MARKDOWN_NEXT = 'Pass the section body as a non-empty Markdown string in "markdown".';
export const anchorNext = (params: { id?: string }) => `Pass section anchors as strings, from GET /api/articles/${params.id}/outline.`;
