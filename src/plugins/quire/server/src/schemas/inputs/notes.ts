/** Input schemas of the brief and its notes. */
import { z } from 'zod';
import { rule, withHint } from '#kernel/parse';
import { NOTE_KINDS } from '../records';
import { reasonField } from '../change-sets';
import { LIMITS, nullableText, premiseField, text, TITLE_NEXT } from './shared';

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
const noteUrl = nullableText(LIMITS.url).refine(
  (v) => v === null || isHttpUrl(v),
  'The link must be a full web address that starts with http:// or https://, such as https://example.com/page.',
);

export const patchBriefInput = withHint(z.strictObject({ premise: premiseField, reason: reasonField }), 'Pass premise as a string, or null (or "") to clear it.');

const noteNext = (field: string) =>
  ({
    kind: `Pass kind as one of ${NOTE_KINDS.join(', ')}.`,
    title: TITLE_NEXT,
    body: 'Pass body as a Markdown string, or null to clear it.',
    url: 'Pass url as an absolute http(s) URL, or null to clear it.',
  })[field];

/** `POST .../notes` (and the `article.note` trigger action, which extends it). */
export const createNoteInput = z.strictObject({
  kind: noteKind,
  title: noteTitle,
  body: noteBody.optional(),
  url: noteUrl.optional(),
  reason: reasonField,
});
withHint(createNoteInput, noteNext);

export const patchNoteInput = withHint(
  z
    .strictObject({
      kind: noteKind.optional(),
      title: noteTitle.optional(),
      body: noteBody.optional(),
      url: noteUrl.optional(),
      reason: reasonField,
    })
    .refine(
      (v) => Object.entries(v).some(([field, value]) => field !== 'reason' && value !== undefined),
      rule('Nothing to change: pass at least one of kind, title, body, url.', 'Pass the fields to change.'),
    ),
  noteNext,
);
