/**
 * Input schemas of the article routes: query strings and bodies. Controllers get what they
 * parse to; the messages name the field and say why ("title must not be empty."), the hints
 * (`withHint`) say what to send instead, and the rules that span fields (after or before,
 * markdown or html, one of markdown, html or url) are refinements here with their own message
 * and nextAction (`rule`).
 */
import { z } from 'zod';
import { describeIssue, rule, withHint, type HintContext } from '#kernel/parse';
import { DEFAULT_DEVICE_NAME, DEVICE_NAME_MAX } from '../domain/device-login';
import { MAX_QUERY_LENGTH } from '../domain/search';
import { KEY_SCOPES, NOTE_KINDS } from './records';
import { REASON_MAX, reasonField } from './change-sets';

const REASON_NEXT = `Pass reason as a string of at most ${REASON_MAX} characters saying why, or leave it out.`;

/** An ISO-8601 date and time with a zone (Z or an offset). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

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

/**
 * Section text (Markdown or HTML) past its limit: the message says so in words a person reads
 * (the field's name stays only as the "field: " prefix), and the nextAction (`splitHint`) says
 * how to go on, which is to split it, not to reword it.
 */
const sectionText = (max: number, what: string, holder: string) =>
  z.string().max(max, {
    error: (issue) =>
      `${what} is ${String(issue.input ?? '').length.toLocaleString('en')} characters long; ${holder} at most ${max.toLocaleString('en')}.`,
  });

export const markdownText = sectionText(LIMITS.markdown, 'The Markdown', 'one request takes');
const htmlText = sectionText(LIMITS.html, 'The section', 'one section holds');

/** True when a problem is section text (a markdown or html field) over its size limit. */
const isTooLong = (issue: { code: string; origin?: string; path?: ReadonlyArray<PropertyKey> } | undefined) =>
  issue?.code === 'too_big' && issue.origin === 'string' && ['markdown', 'html'].includes(String(issue.path?.[issue.path.length - 1]));

/** What to do with text over the limit: split it at headings, and send the parts in turn. */
export const splitNext = (articleId?: string) =>
  `Split the text at headings into parts of at most ${LIMITS.markdown.toLocaleString('en')} characters and send each in its own request: this one with the first part, ` +
  `the others with POST /api/articles/${articleId ?? '{id}'}/sections, "after" the last section.`;

/** A hint that answers text over the limit with `splitNext`, and anything else as `hint` does. */
const splitHint =
  (hint: (field: string, context: HintContext) => string | undefined) =>
  (field: string, context: HintContext): string | undefined =>
    isTooLong(context.issue as Parameters<typeof isTooLong>[0]) ? splitNext(context.params.id) : hint(field, context);

/** A Markdown body that must say something. */
export const markdownField = markdownText.refine(nonBlank, 'must not be empty');

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
const noteUrl = nullableText(LIMITS.url).refine(
  (v) => v === null || isHttpUrl(v),
  'The link must be a full web address that starts with http:// or https://, such as https://example.com/page.',
);

const TITLE_NEXT = 'Pass a non-empty "title" string.';
const MARKDOWN_NEXT = 'Pass the section body as a non-empty Markdown string in "markdown".';
const anchorNext = (params: { id?: string }) => `Pass section anchors as strings, from GET /api/articles/${params.id}/outline.`;

/** `POST /api/articles` (and the `article.import` trigger action, which extends it). */
export const createArticleInput = z.strictObject({
  title: titleField,
  markdown: markdownText.nullish(),
  premise: premiseField.optional(),
});
withHint(
  createArticleInput,
  splitHint((field) => (field === 'title' ? TITLE_NEXT : field === 'markdown' ? 'Pass the article body as a Markdown string in "markdown".' : undefined)),
);

export const updateArticleInput = withHint(z.strictObject({ title: titleField }), TITLE_NEXT);

export const listArticlesQuery = withHint(
  z.object({
    limit: z
      .string()
      .regex(/^\d+$/, 'must be an integer from 1 to 100')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 100, 'must be an integer from 1 to 100')
      .optional()
      .describe('How many articles (1 to 100, default 20).'),
    cursor: z.string().min(1, 'must not be empty').optional().describe('The nextCursor of the previous page.'),
  }),
  'Pass limit as an integer from 1 to 100, and cursor as the nextCursor of the previous page, unchanged (or leave it out for the first page).',
);

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

const SEARCH_NEXT = 'Pass ?q= as 1 to 200 characters of text to find (matched literally, any case), with no control characters.';
/** C0 and C1 control characters, NUL included: no text a reader searches for has them (and databases refuse NUL). */
const CONTROL_CHARACTER = /\p{Cc}/u;
const searchText = z
  .string({ error: 'is required' })
  .min(1, 'must not be empty')
  .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
  .refine((v) => !CONTROL_CHARACTER.test(v), 'must not contain control characters (NUL, tab, line breaks and the like)')
  .describe('The text to find: 1 to 200 characters, matched literally and case-insensitively (% _ * and the like are plain characters); no control characters.');
const searchLimit = (max: number, fallback: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer from 1 to ${max}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be an integer from 1 to ${max}`)
    .optional()
    .describe(`How many ${what} (1 to ${max}, default ${fallback}).`);

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

/** `GET /api/articles/{id}/search?q=&limit=`. */
export const articleSearchQuery = withHint(z.object({ q: searchText, limit: searchLimit(200, 50, 'matching sections') }), (field) =>
  field === 'limit' ? 'Pass limit as an integer from 1 to 200, or leave it out.' : SEARCH_NEXT,
);

/** `GET /api/search?q=&limit=&cursor=`. */
export const searchQuery = withHint(
  z.object({
    q: searchText,
    limit: searchLimit(100, 20, 'articles'),
    cursor: z.string().min(1, 'must not be empty').optional().describe('The nextCursor of the previous page.'),
  }),
  (field) =>
    field === 'limit' ? 'Pass limit as an integer from 1 to 100, or leave it out.' : field === 'cursor' ? 'Pass the nextCursor you were given, or leave cursor out.' : SEARCH_NEXT,
);

/** `POST /api/keys`: the key's scope, and when it expires (the service checks that it is in the future). */
export const createKeyInput = withHint(
  z.strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
    scope: z.enum(KEY_SCOPES, { error: `must be one of ${KEY_SCOPES.join(', ')}` }).optional().describe('What the key may do: write (default), suggest or read.'),
    expiresAt: z
      .string()
      .refine((v) => ISO_TIME.test(v) && !Number.isNaN(Date.parse(v)), 'must be an ISO-8601 time with a zone, like 2030-01-31T12:00:00Z')
      .nullish()
      .describe('When the key stops working (an ISO time in the future); null or absent: never.'),
  }),
  (field) =>
    field === 'scope'
      ? `Pass "scope" as one of ${KEY_SCOPES.join(', ')}, or leave it out for write.`
      : field === 'expiresAt'
        ? 'Pass "expiresAt" as a future ISO-8601 time (2030-01-31T12:00:00Z), or leave it out for a key that never expires.'
        : 'Pass "name" as a short non-empty string, or leave it out.',
);

/** `GET /api/unfurl?url=`. */
export const unfurlQuery = withHint(
  z.object({ url: z.string().trim().min(1, 'must not be empty').describe('The link to preview (URL-encoded).') }),
  'Pass the link as ?url=<encoded-url>.',
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

/** `POST /api/cli/login-request`: the device's name, shown on the approval page. */
export const loginRequestInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(DEVICE_NAME_MAX, `must be at most ${DEVICE_NAME_MAX} characters`)
    // It is shown on the approval page and becomes the key's name: one printable line.
    .regex(/^[^\p{Cc}\p{Cf}\u2028\u2029]*$/u, 'must be one line of printable characters')
    .optional()
    .describe(`The device's name (default "${DEFAULT_DEVICE_NAME}").`),
});

/** `POST /api/cli/login-complete`. */
export const loginCompleteInput = withHint(
  z.strictObject({
    deviceCode: z.string().min(1, 'must not be empty').max(200, 'is not a device code'),
  }),
  'Send the deviceCode that POST /api/cli/login-request returned.',
);

// The CLI login approval page's forms (application/x-www-form-urlencoded). The page reads them
// leniently (a missing field is empty) and answers every problem with a page.
const formField = (description: string) => z.string().optional().describe(description);
const csrf = formField('The form\'s CSRF token.');
const userCode = formField('The user code the CLI printed (XXXX-XXXX).');
export const loginPageQuery = z.object({ code: userCode });
export const signInForm = z.object({ csrf, code: userCode, identifier: formField('Username or email.'), password: formField('Password.') });
export const decisionForm = z.object({ csrf, code: userCode, decision: z.enum(['approve', 'deny']).optional() });
export const signOutForm = z.object({ csrf, code: userCode });
export const codeForm = z.object({ csrf, code: userCode });

// The OAuth authorize page's forms: the authorization request travels in `request`.
const requestForm = z.object({ csrf: z.string(), request: z.string().describe('The authorization request\'s query string.') });
export const oauthSignInForm = requestForm.extend({ identifier: z.string(), password: z.string() });
export const oauthDecisionForm = requestForm.extend({ decision: z.enum(['approve', 'deny']) });

// ---- Atomic edits (CONTRACT section 11) ----

export const MAX_EDIT_OPS = 100;
export const EDIT_OPS = ['insert', 'replace', 'move', 'delete', 'replaceText'] as const;
export type EditOpName = (typeof EDIT_OPS)[number];

/** An anchor of a section, or `$N` / `$N.K`: the sections operation N of the same request produced. */
const sectionRef = z.string().min(1, 'must not be empty').describe('A section anchor, or $N / $N.K: the (K-th) section operation N produced.');
const ifMatchField = z.string().min(1, 'must not be empty').describe('The section\'s ETag: the op fails with 412 when it changed.');
const placementRef = sectionRef.nullish().transform((v) => v ?? undefined);

const insertOp = z
  .strictObject({ op: z.literal('insert'), markdown: markdownField, after: placementRef, before: placementRef })
  .refine((v) => v.after === undefined || v.before === undefined, 'after and before were both given; pass at most one');
const replaceOp = z
  .strictObject({
    op: z.literal('replace'),
    section: sectionRef,
    markdown: markdownField.optional(),
    html: htmlText.optional(),
    ifMatch: ifMatchField.optional(),
  })
  .refine((v) => v.markdown === undefined || v.html === undefined, 'markdown and html were both given; pass one of them')
  .refine((v) => v.markdown !== undefined || v.html !== undefined, 'markdown or html is required');
const moveOp = z
  .strictObject({ op: z.literal('move'), section: sectionRef, after: placementRef, before: placementRef })
  .refine((v) => v.after === undefined || v.before === undefined, 'after and before were both given; pass exactly one')
  .refine((v) => v.after !== undefined || v.before !== undefined, 'after or before is required');
const deleteOp = z.strictObject({ op: z.literal('delete'), section: sectionRef, ifMatch: ifMatchField.optional() });
const replaceTextOp = z.strictObject({
  op: z.literal('replaceText'),
  find: z.string().min(1, 'must not be empty').max(LIMITS.markdown, 'is too long').describe('The literal text to find (case-sensitive).'),
  replace: z.string().max(LIMITS.markdown, 'is too long').describe('What replaces every occurrence ("" deletes them).'),
  section: sectionRef.optional().describe('One section; left out, every Markdown section.'),
  count: z.number().int('must be an integer').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').optional().describe('How many occurrences there must be (default 1).'),
  ifMatch: ifMatchField.optional(),
});

const OP_SCHEMAS = { insert: insertOp, replace: replaceOp, move: moveOp, delete: deleteOp, replaceText: replaceTextOp } as const;
export type EditOp = { [K in EditOpName]: z.output<(typeof OP_SCHEMAS)[K]> }[EditOpName];

const OP_FIELDS: Record<EditOpName, string> = {
  insert: 'An insert takes "markdown", and "after" or "before" (or neither, to append).',
  replace: 'A replace takes "section" and one of "markdown" or "html", and optionally "ifMatch".',
  move: 'A move takes "section" and exactly one of "after" or "before".',
  delete: 'A delete takes "section", and optionally "ifMatch".',
  replaceText: 'A replaceText takes "find", "replace", and optionally "section", "count" and "ifMatch".',
};

const withoutDialect = ({ $schema: _dialect, ...schema }: Record<string, unknown>) => schema;

/** Each op checked by the schema of its kind, so that a problem names `ops[N] (op)` and its field. */
const opsField = z
  .array(z.unknown())
  .min(1, 'must hold at least one operation')
  .max(MAX_EDIT_OPS, `must hold at most ${MAX_EDIT_OPS} operations`)
  .superRefine((ops, issues) => {
    for (const [i, raw] of ops.entries()) {
      const name = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { op?: unknown }).op : undefined;
      if (!EDIT_OPS.includes(name as EditOpName)) {
        const got = name === undefined ? 'no "op"' : `op ${JSON.stringify(name)}`;
        issues.addIssue({ code: 'custom', ...rule(`ops[${i}]: ${got} is not an operation.`, `Give each operation an "op": one of ${EDIT_OPS.join(', ')}.`) });
        return;
      }
      const result = OP_SCHEMAS[name as EditOpName].safeParse(raw, { reportInput: true });
      if (!result.success) {
        const issue = result.error.issues[0];
        issues.addIssue({ code: 'custom', ...rule(`ops[${i}] (${name}): ${describeIssue(issue)}`, isTooLong(issue) ? splitNext() : OP_FIELDS[name as EditOpName]) });
        return;
      }
    }
  })
  .transform((ops) => ops.map((raw) => OP_SCHEMAS[(raw as { op: EditOpName }).op].parse(raw) as EditOp))
  .meta({
    description: `1 to ${MAX_EDIT_OPS} operations, applied in order, all or nothing.`,
    // Subschemas of the document they are put in: without a `$schema` of their own.
    items: { oneOf: Object.values(OP_SCHEMAS).map((schema) => withoutDialect(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }))) },
  });

export const editsInput = withHint(
  z.strictObject({
    ops: opsField,
    dryRun: z.boolean().optional().describe('true: check and answer with diffs, write nothing.'),
    ifMatch: z.string().min(1, 'must not be empty').optional().describe('The outline\'s ETag (as the If-Match header).'),
    reason: reasonField,
  }),
  (field) => (field === 'reason' ? REASON_NEXT : field === 'ops' ? `Pass "ops": a list of 1 to ${MAX_EDIT_OPS} operations.` : field === 'dryRun' ? 'Pass dryRun as true or false.' : 'Pass ifMatch as the outline\'s ETag.'),
);

/** `POST .../suggestions`: ops as for edits, and a note for the reviewer. */
export const suggestInput = withHint(
  z.strictObject({ ops: opsField, note: z.string().max(2_000, 'must be at most 2,000 characters').nullish().transform((v) => v ?? null), reason: reasonField }),
  (field) => (field === 'reason' ? REASON_NEXT : field === 'note' ? 'Pass note as a short string for the reviewer.' : `Pass "ops": a list of 1 to ${MAX_EDIT_OPS} operations.`),
);

/** `POST .../trash/{anchor}/restore`: where the section goes back (the end when neither is given). */
export const restoreFromTrashInput = withHint(
  z
    .strictObject({ after: anchorField, before: anchorField, reason: reasonField })
    .refine((v) => v.after === undefined || v.before === undefined, rule('after and before were both given; pass at most one.', 'Pass "after" or "before", or neither to append at the end.')),
  (_field, { params }) => anchorNext(params),
);

export const rejectSuggestionInput = withHint(
  z.strictObject({ reason: z.string().max(2_000, 'must be at most 2,000 characters').nullish().transform((v) => v ?? null) }),
  'Pass reason as a short string, or leave it out.',
);

export const SUGGESTION_STATUSES = ['pending', 'accepted', 'rejected', 'stale'] as const;
export const listSuggestionsQuery = withHint(
  z.object({ status: z.enum(SUGGESTION_STATUSES, { error: `must be one of ${SUGGESTION_STATUSES.join(', ')}` }).optional().describe('Only suggestions with this status.') }),
  `Pass status as one of ${SUGGESTION_STATUSES.join(', ')}, or leave it out.`,
);

/** `?include=rev` on the outline and article GETs. */
export const includeRevQuery = withHint(
  z.object({ include: z.enum(['rev'], { error: 'must be rev' }).optional().describe('rev: every outline entry gains its section\'s rev.') }),
  'Pass include=rev, or leave it out.',
);

export const revisionParams = z.object({ rev: z.string().regex(/^[1-9]\d{0,9}$/, 'must be a positive integer').transform(Number) });
