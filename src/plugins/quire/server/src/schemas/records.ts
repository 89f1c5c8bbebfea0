/**
 * The records the article API answers with. Services build them; the routes' response schemas
 * (responses.ts) are made of them; the OpenAPI document names them (`meta.id`); the CLI takes
 * its types from them.
 */
import { z } from 'zod';
import { timestamp, type Agrees, type SameShape } from '#kernel/schemas';
import type { LinkPreview as LinkPreviewShape } from '../domain/link-preview';
import type { OutlineEntry as OutlineEntryShape } from '../domain/outline';

export const NOTE_KINDS = ['source', 'decision', 'idea', 'question'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];
export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export const SECTION_SOURCES = ['markdown', 'html'] as const;
export const NOTE_AUTHORS = ['agent', 'human'] as const;
export type NoteAuthor = (typeof NOTE_AUTHORS)[number];
/** What an API key may do: `write` everything, `suggest` read and suggest section edits, `read` read only. */
export const KEY_SCOPES = ['write', 'suggest', 'read'] as const;

const count = z.number().int().min(0);

export const articleRecord = z
  .strictObject({
    id: z.string().describe('A random UUID v4.'),
    title: z.string(),
    status: z.enum(ARTICLE_STATUSES),
    words: count.describe('The sum of its sections\' words.'),
    sections: count.describe('How many sections it has.'),
    createdAt: timestamp,
    updatedAt: timestamp,
    publishedAt: timestamp.nullable().describe('The last publication; null until published (and after the article went through the trash).'),
    publicUrl: z.string().nullable().describe('The address of its public page while it is published (GET /p/{slug}); null while it is a draft.'),
  })
  .meta({ id: 'Article', description: 'An article\'s record.' });

export const outlineEntry = z
  .strictObject({
    anchor: z.string().describe('The shortest unique prefix of the section\'s id (at least 6 characters).'),
    level: z.number().int().min(0).max(6).describe('The heading level, 0 for text before the first heading.'),
    title: z.string().describe('The heading\'s plain text.'),
    words: count,
    source: z.enum(SECTION_SOURCES).describe('markdown, or html once an editor saved it from the canvas.'),
    rev: z.number().int().min(1).optional().describe('The section\'s revision: only with ?include=rev.'),
  })
  .meta({ id: 'OutlineEntry', description: 'One section in the outline.' });

export const sectionRecord = z
  .strictObject({
    id: z.string(),
    anchor: z.string(),
    level: z.number().int().min(0).max(6),
    title: z.string(),
    words: count,
    source: z.enum(SECTION_SOURCES),
    markdown: z.string().nullable().describe('The exact Markdown source; for html sections null, or with ?as=markdown a Markdown rendering of the HTML.'),
    html: z.string().describe('The rendered, sanitised HTML.'),
  })
  .meta({ id: 'Section', description: 'A section with its content.' });

export const noteMapEntry = z
  .strictObject({
    anchor: z.string(),
    kind: z.enum(NOTE_KINDS),
    title: z.string(),
    url: z.string().nullable(),
  })
  .meta({ id: 'NoteEntry', description: 'A note in the notes map (no body).' });

export const noteRecord = z
  .strictObject({
    anchor: z.string(),
    kind: z.enum(NOTE_KINDS),
    title: z.string(),
    body: z.string().nullable().describe('Markdown; null when the note has none.'),
    url: z.string().nullable(),
    createdBy: z.enum(NOTE_AUTHORS).describe('agent when written with an API key, human with a JWT or session.'),
    html: z.string().describe('The body rendered; "" without a body.'),
  })
  .meta({ id: 'Note', description: 'A note of the Brief, in full.' });

export const apiKeyRecord = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to recognise it.'),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
    scope: z.enum(KEY_SCOPES).describe('write (everything), suggest (read, and suggest section edits) or read.'),
    expiresAt: timestamp.nullable().describe('When the key stops working; null: never.'),
  })
  .meta({ id: 'ApiKey', description: 'An API key\'s record (never its secret).' });

export const searchMatch = z
  .strictObject({
    anchor: z.string().describe('The section\'s anchor.'),
    level: z.number().int().min(0).max(6),
    title: z.string(),
    count: z.number().int().min(1).describe('How many times the query occurs in the section\'s text.'),
    snippets: z.array(z.string()).max(3).describe('Up to 3 extracts of about 160 characters around matches; "…" marks a cut.'),
  })
  .meta({ id: 'SearchMatch', description: 'A section whose text contains the query (its Markdown source, or the text of its HTML).' });

export const userSummary = z
  .strictObject({
    id: z.number().int().describe('The users-permissions user id.'),
    username: z.string(),
    email: z.string(),
  })
  .meta({ id: 'User', description: 'A user of the server.' });

export const linkPreview = z
  .strictObject({
    url: z.string().describe('The final URL, after redirects.'),
    host: z.string().describe('Its host name, without port.'),
    title: z.string(),
    description: z.string(),
    image: z.string().describe('An absolute URL, or "" when the page has none.'),
  })
  .meta({ id: 'LinkPreview', description: 'A link\'s preview card.' });

export const uploadedImage = z
  .strictObject({
    url: z.string().describe('The image\'s absolute public URL.'),
    name: z.string(),
    mime: z.string(),
    size: count.describe('Bytes.'),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
  })
  .meta({ id: 'UploadedImage', description: 'A hosted image.' });

export const ACTOR_KINDS = ['agent', 'human', 'editor'] as const;
export const actor = z
  .strictObject({
    kind: z.enum(ACTOR_KINDS).describe('agent: an API key or OAuth token; human: a JWT or the session; editor: an admin user on the canvas.'),
    name: z.string().describe('The key\'s name, the user\'s username, or the admin editor\'s name.'),
  })
  .meta({ id: 'Actor', description: 'Who made a change.' });

const editOpNames = ['insert', 'replace', 'move', 'delete', 'replaceText'] as const;

export const editResult = z
  .strictObject({
    op: z.enum(editOpNames),
    added: z.array(outlineEntry).optional().describe('insert: the new sections.'),
    updated: z.array(outlineEntry).optional().describe('replace, replaceText: the sections that took the old one\'s place.'),
    removed: z.array(z.string()).optional().describe('delete: the removed anchors.'),
    replaced: count.optional().describe('replaceText: how many occurrences were replaced.'),
    diff: z.string().optional().describe('Dry runs: a unified diff of the text the operation changed (Markdown; HTML for html sections).'),
  })
  .meta({ id: 'EditResult', description: 'What one operation of an edits request did.' });

export const revisionEntry = z
  .strictObject({
    rev: z.number().int().min(1),
    title: z.string(),
    level: z.number().int().min(0).max(6),
    words: count,
    source: z.enum(SECTION_SOURCES),
    createdAt: timestamp.describe('When this version was made.'),
    by: actor,
  })
  .meta({ id: 'RevisionEntry', description: 'One version of a section, in its history.' });

export const revisionRecord = revisionEntry
  .extend({
    markdown: z.string().nullable().describe('The version\'s Markdown; null for html sections.'),
    html: z.string(),
  })
  .meta({ id: 'Revision', description: 'One version of a section, with its content.' });

export const trashEntry = z
  .strictObject({
    id: z.string().describe('The section\'s id (kept when it is restored).'),
    anchor: z.string().describe('A unique prefix of the id among the article\'s trash.'),
    title: z.string(),
    level: z.number().int().min(0).max(6),
    words: count,
    deletedAt: timestamp,
    by: actor.describe('Who deleted it.'),
  })
  .meta({ id: 'TrashedSection', description: 'A deleted section, restorable for 30 days.' });

export const SUGGESTION_STATES = ['pending', 'accepted', 'rejected', 'stale'] as const;
export const suggestionRecord = z
  .strictObject({
    id: z.string(),
    anchor: z.string().describe('A unique prefix of the id among the article\'s suggestions.'),
    status: z.enum(SUGGESTION_STATES),
    note: z.string().nullable().describe('What the suggester says about it.'),
    ops: z.array(z.record(z.string(), z.unknown())).describe('The operations, as sent (POST .../edits).'),
    createdAt: timestamp,
    by: actor,
    decidedAt: timestamp.nullable(),
    decidedBy: actor.nullable(),
    reason: z.string().nullable().describe('Why it was rejected, as the person who rejected it said (null unless rejected with a reason).'),
    results: z.array(editResult).describe('The dry run\'s results, against the article as it was when the suggestion was made.'),
  })
  .meta({ id: 'Suggestion', description: 'Proposed edits, waiting for a person with write access.' });

export type ArticleRecord = z.infer<typeof articleRecord>;
export type OutlineEntry = z.infer<typeof outlineEntry>;
export type SectionRecord = z.infer<typeof sectionRecord>;
export type NoteMapEntry = z.infer<typeof noteMapEntry>;
export type NoteRecord = z.infer<typeof noteRecord>;
export type ApiKeyRecord = z.infer<typeof apiKeyRecord>;
export type SearchMatch = z.infer<typeof searchMatch>;
export type UserSummary = z.infer<typeof userSummary>;
export type LinkPreview = z.infer<typeof linkPreview>;
export type UploadedImage = z.infer<typeof uploadedImage>;

/** The domain declares these two shapes (it imports no schema); these fail to compile if a schema and its shape part. */
export type OutlineEntryAgrees = Agrees<SameShape<OutlineEntry, OutlineEntryShape>>;
export type LinkPreviewAgrees = Agrees<SameShape<LinkPreview, LinkPreviewShape>>;

/** A connected app (an OAuth grant a person approved). */
export const oauthGrantRecord = z
  .strictObject({
    id: z.string(),
    client: z.strictObject({ id: z.string().describe('Its client_id (a URL for a client ID metadata document).'), name: z.string(), uri: z.string().nullable() }),
    scope: z.enum(['write', 'suggest', 'read']),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'OAuthGrant' });
export type OAuthGrantRecord = z.infer<typeof oauthGrantRecord>;
