/** Input schemas of the section routes: add, move, replace, read. */
import { z } from 'zod';
import { rule, withHint } from '#kernel/parse';
import { reasonField } from '../change-sets';
import { anchorField, anchorNext, htmlText, MARKDOWN_NEXT, markdownField, splitHint } from './shared';

export const addSectionsInput = withHint(
  z
    .strictObject({
      markdown: markdownField,
      after: anchorField,
      before: anchorField,
      reason: reasonField,
    })
    .refine(
      (v) => v.after === undefined || v.before === undefined,
      rule('after and before were both given; pass at most one.', 'Pass "after" or "before", or neither to append at the end.'),
    ),
  splitHint((field, { params }) => (field === 'after' || field === 'before' ? anchorNext(params) : MARKDOWN_NEXT)),
);

const MOVE_NEXT = 'Pass exactly one of "after" or "before": the anchor of another section.';
export const moveSectionInput = withHint(
  z
    .strictObject({ after: anchorField, before: anchorField, reason: reasonField })
    .refine((v) => v.after === undefined || v.before === undefined, rule('after and before were both given; pass exactly one.', MOVE_NEXT))
    .refine((v) => v.after !== undefined || v.before !== undefined, rule('after or before is required.', MOVE_NEXT)),
  (_field, { params }) => anchorNext(params),
);

const REPLACE_NEXT = 'Pass either "markdown" (Markdown canonical) or "html" (from the canvas, HTML canonical).';
/** `PATCH .../sections/{sid}`: exactly one of markdown or html, as the content to write. */
export const replaceSectionInput = withHint(
  z
    .strictObject({
      markdown: markdownField.optional(),
      html: htmlText.optional(),
      reason: reasonField,
    })
    .refine((v) => v.markdown === undefined || v.html === undefined, rule('markdown and html were both given; pass one of them.', REPLACE_NEXT))
    .refine((v) => v.markdown !== undefined || v.html !== undefined, rule('markdown or html is required.', REPLACE_NEXT))
    .transform((v): { markdown: string } | { html: string } => (v.markdown !== undefined ? { markdown: v.markdown } : { html: v.html! })),
  splitHint((field) => (field === 'html' ? 'Pass the section as an HTML string in "html".' : MARKDOWN_NEXT)),
);

/** `GET /api/articles/{id}/sections/{sid}?as=`: `as=markdown` renders an html section's HTML as Markdown (CONTRACT 20). */
export const sectionQuery = withHint(
  z.object({
    as: z
      .enum(['markdown'], { error: 'must be "markdown"' })
      .optional()
      .describe('markdown: an html section\'s "markdown" is a Markdown rendering of its HTML (its source stays html); Markdown sections are unchanged.'),
  }),
  'Pass ?as=markdown for a Markdown rendering of an html section, or leave "as" out.',
);
