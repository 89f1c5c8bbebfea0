/**
 * What the article API's routes answer: the `data` of each success envelope. The routes name
 * them (routes/*.ts), the server's answers are validated against them in the API tests, and
 * the CLI takes its types from them (`Data<'articlePage'>`...).
 */
import { z } from 'zod';
import { deletedId } from '#kernel/schemas';
import {
  actor,
  apiKeyRecord,
  editResult,
  revisionEntry,
  revisionRecord,
  suggestionRecord,
  trashEntry,
  articleRecord,
  linkPreview,
  noteMapEntry,
  noteRecord,
  oauthGrantRecord,
  outlineEntry,
  searchMatch,
  sectionRecord,
  uploadedImage,
  userSummary,
} from './records';
import { authorship, authorSpans, changeList, changeOnly, reverted, withChangeSet } from './change-sets';

const outline = z.array(outlineEntry).describe('Every section, in order.');
const notesMap = z.array(noteMapEntry).describe('The notes map, in the order the notes were added.');

// Articles
export const articlePage = z.strictObject({
  articles: z.array(articleRecord).describe('Most recently updated first.'),
  nextCursor: z.string().nullable().describe('Pass it as ?cursor= for the next page; null on the last page.'),
});
export const articleWithOutline = z.strictObject({ article: articleRecord, outline });
export const articleFull = z.strictObject({
  article: articleRecord,
  outline,
  brief: z.strictObject({ premise: z.string().nullable(), notes: notesMap }),
});
export const articleOnly = z.strictObject({ article: articleRecord });
export const articleDeleted = deletedId('article');
export const outlineOnly = z.strictObject({ outline, ...withChangeSet });

// Sections
export const sectionsAdded = z.strictObject({ added: z.array(outlineEntry).describe('The new sections.'), outline, ...withChangeSet });
export const sectionOnly = z.strictObject({ section: sectionRecord });
export const sectionReplaced = z.strictObject({ updated: z.array(outlineEntry).describe('The sections that took its place.'), outline, ...withChangeSet });

// Atomic edits, history, trash, suggestions
export const editsApplied = z.strictObject({ results: z.array(editResult).describe('One per operation, in order.'), outline, ...withChangeSet });
export const revisionList = z.strictObject({ revisions: z.array(revisionEntry).describe('Newest first, the current version included.') });
export const revisionOnly = z.strictObject({ revision: revisionRecord });
export const revisionRestored = z.strictObject({ section: sectionRecord, outline, ...withChangeSet });
export const trashList = z.strictObject({ sections: z.array(trashEntry).describe('Most recently deleted first.') });
export const suggestionOnly = z.strictObject({ suggestion: suggestionRecord, ...withChangeSet });
export const suggestionList = z.strictObject({ suggestions: z.array(suggestionRecord).describe('Newest first.') });
export const suggestionAccepted = z.strictObject({ suggestion: suggestionRecord, outline, ...withChangeSet });

// Brief and notes
export const brief = z.strictObject({ premise: z.string().nullable(), notes: z.array(noteRecord).describe('Every note, in full.') });
export const premiseOnly = z.strictObject({ premise: z.string().nullable(), ...withChangeSet });
export const premiseRevision = z.strictObject({
  rev: z.number().int().min(1),
  premise: z.string().nullable(),
  by: actor.nullable().describe('Who set it; null for the premise the article had before premise history was kept.'),
  at: z.string().describe('When it was set (ISO-8601).'),
});
export const premiseRevisions = z.strictObject({ revisions: z.array(premiseRevision).describe('Newest first, the current premise included.') });

// Presence (CONTRACT 19)
export const presentEntry = z.strictObject({
  kind: z.enum(['editor', 'agent', 'human']).describe('editor: a person with the article open in the canvas; agent / human: wrote to it over the API in the last 60 s.'),
  name: z.string(),
  section: z.string().nullable().describe('The anchor of the section their caret is in (editors) or they last wrote (agents); null when none.'),
  since: z.string().describe('When they arrived (ISO-8601).'),
});
export const presence = z.strictObject({ present: z.array(presentEntry) });
export const notesOnly = z.strictObject({ notes: notesMap, ...withChangeSet });
export const noteWithMap = z.strictObject({ note: noteRecord, notes: notesMap, ...withChangeSet });
export const noteOnly = z.strictObject({ note: noteRecord });

// Publishing
export const published = z.strictObject({
  article: articleRecord,
  url: z.string().describe('The public page: {PUBLIC_URL}/p/{slug}.'),
  markdownUrl: z.string().describe('Its Markdown: {PUBLIC_URL}/p/{slug}.md.'),
});

// Search
export const articleSearch = z.strictObject({ matches: z.array(searchMatch).describe('In outline order.') });
export const searchResults = z.strictObject({
  results: z
    .array(
      z.strictObject({
        article: z.strictObject({ id: z.string(), title: z.string() }),
        matches: z.array(searchMatch).describe('In outline order, at most 10 (the article\'s own search gives all).'),
      }),
    )
    .describe('Articles with a match, most recently updated first.'),
  nextCursor: z.string().nullable().describe('Pass it as ?cursor= for the next page; null on the last page.'),
});

// Keys and identity
export const keyList = z.strictObject({ keys: z.array(apiKeyRecord) });
export const keyIssued = z.strictObject({ key: apiKeyRecord, secret: z.string().describe('The full key, shown this once only.') });
export const keyRevoked = deletedId('key');
export const me = z.strictObject({ user: userSummary, via: z.enum(['key', 'session']).describe('key for an API key or an OAuth access token (agent credentials), session for a JWT or the session cookie.') });

// CLI login
export const loginRequested = z.strictObject({
  deviceCode: z.string().describe('Secret: poll POST /api/cli/login-complete with it.'),
  userCode: z.string().describe('What the person types on the approval page (XXXX-XXXX).'),
  verificationUrl: z.string(),
  verificationUrlComplete: z.string().describe('The approval page with the code filled in.'),
  expiresIn: z.number().int().describe('Seconds until the login expires.'),
  interval: z.number().int().describe('Seconds to wait between polls.'),
});

// Media
export const imageHosted = uploadedImage;
export const preview = linkPreview;

export const grantList = z.strictObject({ grants: z.array(oauthGrantRecord).describe('Newest first; revoked ones are gone.') });
export const grantRevoked = z.strictObject({ revoked: z.literal(true), id: z.string() });


/** The response data schemas by name, for types: `Data<'articlePage'>`. */
export const responses = {
  articlePage,
  articleWithOutline,
  articleFull,
  articleOnly,
  articleDeleted,
  outlineOnly,
  sectionsAdded,
  sectionOnly,
  sectionReplaced,
  editsApplied,
  revisionList,
  revisionOnly,
  revisionRestored,
  trashList,
  suggestionOnly,
  suggestionList,
  suggestionAccepted,
  brief,
  premiseOnly,
  premiseRevision,
  premiseRevisions,
  presentEntry,
  presence,
  notesOnly,
  noteWithMap,
  noteOnly,
  published,
  articleSearch,
  searchResults,
  keyList,
  keyIssued,
  keyRevoked,
  me,
  loginRequested,
  imageHosted,
  preview,
  grantList,
  grantRevoked,
  changeList,
  changeOnly,
  reverted,
  authorSpans,
  authorship,
};

export type Data<K extends keyof typeof responses> = z.infer<(typeof responses)[K]>;

/** POST /api/mcp: a JSON-RPC 2.0 answer of the Model Context Protocol (its result or error is the protocol's). */
export const jsonRpcAnswer = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
  })
  .meta({ id: 'JsonRpcAnswer' });


// ---- OAuth (not the envelope: the formats of their RFCs) ----

export const oauthError = z
  .looseObject({ error: z.string().describe('The RFC 6749 error code.'), error_description: z.string().optional() })
  .meta({ id: 'OAuthError' });
export const protectedResourceMetadata = z
  .looseObject({ resource: z.string(), authorization_servers: z.array(z.string()), scopes_supported: z.array(z.string()), bearer_methods_supported: z.array(z.string()) })
  .meta({ id: 'ProtectedResourceMetadata' });
export const authorizationServerMetadata = z
  .looseObject({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    client_id_metadata_document_supported: z.literal(true),
  })
  .meta({ id: 'AuthorizationServerMetadata' });
export const clientRegistered = z
  .looseObject({ client_id: z.string(), client_id_issued_at: z.number(), client_name: z.string(), redirect_uris: z.array(z.string()), token_endpoint_auth_method: z.literal('none') })
  .meta({ id: 'ClientRegistration' });
export const tokenIssued = z
  .strictObject({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number(), refresh_token: z.string(), scope: z.enum(['write', 'suggest', 'read']) })
  .meta({ id: 'TokenResponse' });
