/**
 * Input schemas of the article routes. Controllers parse with them; the messages name the
 * field and say why ("title must not be empty.").
 */
import { z } from 'zod';
import { NOTE_KINDS } from '../services/notes';

export const LIMITS = {
  title: 300,
  markdown: 2_000_000,
  html: 2_000_000,
  premise: 20_000,
  noteTitle: 300,
  noteBody: 100_000,
  url: 2_048,
};

const nonBlank = (s: string) => s.trim().length > 0;

const text = (max: number) => z.string().max(max, `must be at most ${max.toLocaleString('en')} characters`);

/** A string field where null means "none" (and clears it). */
const nullableText = (max: number) =>
  z
    .string({ error: (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? 'must be a string or null' : undefined) })
    .max(max, `must be at most ${max.toLocaleString('en')} characters`)
    .nullable();

export const titleField = text(LIMITS.title).trim().min(1, 'must not be empty');

/** A Markdown body that must say something. */
export const markdownField = text(LIMITS.markdown).refine(nonBlank, 'must not be empty');

/** An anchor in a body; null is the same as leaving it out. */
const anchorField = z
  .string()
  .min(1, 'must not be empty')
  .nullish()
  .transform((v) => v ?? undefined);

const premiseField = nullableText(LIMITS.premise);

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const noteKind = z.enum(NOTE_KINDS, { error: `must be one of ${NOTE_KINDS.join(', ')}` });
const noteTitle = text(LIMITS.noteTitle).trim().min(1, 'must not be empty');
const noteBody = nullableText(LIMITS.noteBody);
const noteUrl = nullableText(LIMITS.url).refine((v) => v === null || isHttpUrl(v), 'must be an absolute http or https URL');

export const createArticleInput = z.strictObject({
  title: titleField,
  markdown: text(LIMITS.markdown).nullish(),
  premise: premiseField.optional(),
});

export const updateArticleInput = z.strictObject({ title: titleField });

export const listArticlesQuery = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'must be an integer from 1 to 100')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'must be an integer from 1 to 100')
    .optional(),
  cursor: z.string().min(1, 'must not be empty').optional(),
});

export const addSectionsInput = z.strictObject({
  markdown: markdownField,
  after: anchorField,
  before: anchorField,
});

export const moveSectionInput = z.strictObject({ after: anchorField, before: anchorField });

export const replaceSectionInput = z.strictObject({
  markdown: markdownField.optional(),
  html: text(LIMITS.html).optional(),
});

export const patchBriefInput = z.strictObject({ premise: premiseField });

export const createNoteInput = z.strictObject({
  kind: noteKind,
  title: noteTitle,
  body: noteBody.optional(),
  url: noteUrl.optional(),
});

export const patchNoteInput = z.strictObject({
  kind: noteKind.optional(),
  title: noteTitle.optional(),
  body: noteBody.optional(),
  url: noteUrl.optional(),
});

/** `POST /api/articles/import`: one of markdown, html or url (checked in the controller), and a title. */
export const importArticleInput = z.strictObject({
  markdown: markdownField.optional(),
  html: text(LIMITS.html).refine(nonBlank, 'must not be empty').optional(),
  url: z.string().trim().min(1, 'must not be empty').max(LIMITS.url, `must be at most ${LIMITS.url.toLocaleString('en')} characters`).optional(),
  title: titleField.optional(),
});

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
