/**
 * The MCP tools of CONTRACT §16: each tool IS a declared route (kernel/routes.ts). Its input
 * schema is the route's path parameters, query and JSON body side by side (one source: the route
 * schemas); calling it is calling the route, with the caller's own credential, so the route's
 * guard, key scope, suggestion, parsing and errors apply unchanged (mcp/server.ts).
 *
 * A tool names its route by method and path, not by controller, so a route added on another
 * branch (edits, revisions, search, suggestions) becomes a tool as soon as it is declared; until
 * then the tool is simply not listed.
 */
import { z } from 'zod';
import type { AnyRoute } from '#kernel/routes';
import { MIN_ANCHOR_LENGTH } from '../domain/anchors';

export interface ToolSpec {
  name: string;
  /**
   * `METHOD /path` of the route, as declared; or several, the first whose path parameters the
   * arguments all give being called (search: in one article when `id` is given, else everywhere).
   */
  route: string | readonly string[];
  title: string;
  /** Written for a model: what it does, when to use it, what comes back. */
  description: string;
}

const ANCHORS =
  `Sections and notes are named by anchors: a unique prefix of their id (outlines give ${MIN_ANCHOR_LENGTH} characters, more only where that many are not unique; ` +
  'pass them as given). ' +
  'The article id may be shortened to a unique prefix too.';
const ETAGS =
  'When a read answers with an ETag (a second text block "ETag: ...", and _meta.etag), pass it back as ifMatch to a write: ' +
  'it then applies only if nothing changed since, and a stale one is the tool error precondition-failed (read again, then redo the change).';
const MARKDOWN = 'Markdown is split into sections at its top-level headings (# or ##, whichever comes first).';

export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'list_articles',
    route: 'GET /api/articles',
    title: 'List articles',
    description:
      'Lists your articles, most recently updated first, a page at a time (limit 1-100, default 20; pass the nextCursor you got as cursor for the next page). ' +
      'Returns article records (id, title, status, words, updatedAt...) without their text. Use it to find the article to work on.',
  },
  {
    name: 'create_article',
    route: 'POST /api/articles',
    title: 'Create an article',
    description:
      `Creates an article from a title, optional Markdown and an optional premise (the one-sentence point of the piece, kept in its Brief). ${MARKDOWN} ` +
      'Returns the article record and its outline (the sections with their anchors). Write long articles section by section: create with the first part, then add_sections.',
  },
  {
    name: 'get_article',
    route: 'GET /api/articles/:id',
    title: 'Get an article',
    description:
      'Returns an article\'s record, its outline (anchor, title, level, words of every section, in order) and its Brief (premise and notes map). ' +
      'It does not return the text: read sections one at a time with get_section. ' + ANCHORS,
  },
  {
    name: 'get_outline',
    route: 'GET /api/articles/:id/outline',
    title: 'Get an outline',
    description: 'Returns only the outline of an article: every section\'s anchor, title, level and word count, in order. Cheap; call it again after structural changes. ' + ANCHORS,
  },
  {
    name: 'get_section',
    route: 'GET /api/articles/:id/sections/:sid',
    title: 'Read a section',
    description:
      'Returns one section in full: its Markdown (the canonical text unless it was edited as HTML in the canvas), its HTML, title, level and words. ' +
      'A section edited in the canvas (source "html") has markdown null: pass as: "markdown" for a Markdown rendering of it. ' +
      ANCHORS +
      ' ' +
      ETAGS,
  },
  {
    name: 'add_sections',
    route: 'POST /api/articles/:id/sections',
    title: 'Add sections',
    description:
      `Inserts Markdown after or before a section (anchors from the outline), or at the end when neither is given. ${MARKDOWN} ` +
      'Returns the sections added and the new outline. Add a long article one section (or a few) per call.',
  },
  {
    name: 'replace_section',
    route: 'PATCH /api/articles/:id/sections/:sid',
    title: 'Replace a section',
    description:
      'Replaces one section\'s content with new Markdown (which may split into several sections that take its place) or with HTML. ' +
      'Read it first with get_section; send the whole new section, heading included. Returns the section(s) written and the outline. ' + ANCHORS + ' ' + ETAGS,
  },
  {
    name: 'move_section',
    route: 'POST /api/articles/:id/sections/:sid/move',
    title: 'Move a section',
    description: 'Moves a section right after or right before another one (pass exactly one of after, before). Its text and anchor do not change. Returns the new outline.',
  },
  {
    name: 'delete_section',
    route: 'DELETE /api/articles/:id/sections/:sid',
    title: 'Delete a section',
    description: 'Deletes one section (the last section of an article becomes an empty one). Returns the new outline.',
  },
  {
    name: 'edit_article',
    route: 'POST /api/articles/:id/edits',
    title: 'Edit atomically',
    description:
      'Applies up to 100 operations in order, all or nothing: insert, replace, move, delete, and replaceText (replace a literal text in one section or everywhere; ' +
      'count must equal the number of occurrences). Later operations may name sections earlier ones produced as $N (or $N.K). dryRun: true shows the result and diffs ' +
      'without writing. Prefer it for several changes at once or a small textual fix. Returns one result per operation and the outline.',
  },
  {
    name: 'search',
    route: ['GET /api/articles/:id/search', 'GET /api/search'],
    title: 'Search articles',
    description:
      'Finds text (matched literally, case-insensitively): in one article when you pass its id (the sections that contain it, in outline order, with counts and snippets), ' +
      'else across all your articles (per article, its matching sections; page with cursor). Use it to find the section to edit without reading every one.',
  },
  {
    name: 'get_presence',
    route: 'GET /api/articles/:id/presence',
    title: 'Who is in an article',
    description:
      'Lists who is in an article now: people with it open in the canvas (kind "editor", with the anchor of the section their caret is in) and agents that wrote to it in the last 60 s. ' +
      'Before rewriting a section, check that no person is in it; prefer another section, or small edits, while they are.',
  },
  {
    name: 'get_brief',
    route: 'GET /api/articles/:id/brief',
    title: 'Read the Brief',
    description:
      'Returns an article\'s Brief: its premise and every note in full (kind, title, body, url). Notes are the writer\'s research and decisions: facts, sources, ' +
      'quotes, terms, instructions. Read it before writing.',
  },
  {
    name: 'set_premise',
    route: 'PATCH /api/articles/:id/brief',
    title: 'Set the premise',
    description: 'Sets the article\'s premise (what the piece argues, in a sentence or two), or clears it with null or "". Returns the premise.',
  },
  {
    name: 'add_note',
    route: 'POST /api/articles/:id/notes',
    title: 'Add a note',
    description: 'Adds a note to the Brief: kind (one of the kinds in the schema), title, and optional Markdown body and source url. Returns the note and the notes map.',
  },
  {
    name: 'update_note',
    route: 'PATCH /api/articles/:id/notes/:nid',
    title: 'Change a note',
    description: 'Changes some fields of a note (kind, title, body, url; null clears body or url). Returns the note and the notes map. ' + ANCHORS,
  },
  {
    name: 'delete_note',
    route: 'DELETE /api/articles/:id/notes/:nid',
    title: 'Delete a note',
    description: 'Deletes a note of the Brief (its anchor is in get_brief or in the answer of add_note). Returns the notes map that remains.',
  },
  {
    name: 'list_revisions',
    route: 'GET /api/articles/:id/sections/:sid/revisions',
    title: 'List a section\'s revisions',
    description: 'Lists the saved versions of a section, newest first (the current one included), with who wrote each. Use restore_revision to bring one back.',
  },
  {
    name: 'restore_revision',
    route: 'POST /api/articles/:id/sections/:sid/revisions/:rev/restore',
    title: 'Restore a revision',
    description: 'Makes an earlier version of a section current again (as a new revision; nothing is lost). Returns the section and the outline.',
  },
  {
    name: 'suggest_edits',
    route: 'POST /api/articles/:id/suggestions',
    title: 'Suggest edits',
    description: 'Proposes operations (as in edit_article) for a person to accept or reject, instead of applying them, with an optional note explaining why. Returns the suggestion with a dry run of its result.',
  },
  {
    name: 'list_threads',
    route: 'GET /api/articles/:id/threads',
    title: 'List comment threads',
    description:
      'Lists the comment threads on an article\'s text (people\'s and agents\'), in outline order, each with its quote, its section\'s anchor, open or resolved, detached (its text was deleted) and every comment. ' +
      'Filter with status (open, resolved) and section. Read the open ones before you edit: they are what people asked about.',
  },
  {
    name: 'get_thread',
    route: 'GET /api/articles/:id/threads/:anchor',
    title: 'Get a comment thread',
    description: 'Returns one thread (by its anchor, from list_threads) with its quote and all its comments, oldest first.',
  },
  {
    name: 'create_thread',
    route: 'POST /api/articles/:id/threads',
    title: 'Comment on text',
    description:
      'Opens a thread on a passage of a section: quote is the exact text as a reader sees it (1-500 characters, no Markdown; get_section\'s text), occurrence picks a later repeat (default 1), body is the comment in Markdown. ' +
      'The thread stays on those words through later edits. Use it to ask or explain something about a passage instead of changing it. ' + ANCHORS,
  },
  {
    name: 'reply_thread',
    route: 'POST /api/articles/:id/threads/:anchor/comments',
    title: 'Reply in a thread',
    description: 'Adds a comment (Markdown body) to a thread, e.g. to answer a person\'s question about the text. Returns the comment.',
  },
  {
    name: 'resolve_thread',
    route: 'POST /api/articles/:id/threads/:anchor/resolve',
    title: 'Resolve a thread',
    description: 'Marks a thread resolved once what it asked is done (it stays listed with status resolved). Returns the thread.',
  },
  {
    name: 'list_suggestions',
    route: 'GET /api/articles/:id/suggestions',
    title: 'List suggestions',
    description:
      'Lists an article\'s suggestions, newest first (status: pending, accepted, rejected or stale), with who made them, the dry run of their ops and, for a rejected one, the reviewer\'s reason. ' +
      'Check it after suggesting to learn whether your suggestion was accepted or why it was rejected.',
  },
  {
    name: 'get_suggestion',
    route: 'GET /api/articles/:id/suggestions/:anchor',
    title: 'Read a suggestion',
    description: 'Returns one suggestion (its anchor from suggest_edits or list_suggestions): status, ops, dry-run results, who decided and the reason of a rejection.',
  },
  {
    name: 'list_changes',
    route: 'GET /api/articles/:id/changes',
    title: 'List change sets',
    description:
      'Lists an article\'s change sets, newest first: every write (yours, people\'s, other agents\') with who, why (reason), when, status and the sections it changed (words inserted and deleted). ' +
      'Filter by since (an anchor or ISO time), by (agent, human, editor), run, section; page with cursor. Use it to see what changed since you last read.',
  },
  {
    name: 'get_change',
    route: 'GET /api/articles/:id/changes/:anchor',
    title: 'Read a change set',
    description: 'Returns one change set with a word-level diff per section ({op: "=", "+" or "-", text}): what it inserted and deleted.',
  },
  {
    name: 'revert_change',
    route: ['POST /api/articles/:id/changes/:anchor/revert', 'POST /api/articles/:id/changes/revert'],
    title: 'Revert a change set or a run',
    description:
      'Undoes one change set (anchor) or every change set of a run (run) in the text as it is now: what it inserted is removed, what it deleted put back; what others wrote since stays. ' +
      'Passages changed since are left and listed as conflicts. dryRun: true shows the result without writing. Say why in reason.',
  },
  {
    name: 'publish_article',
    route: 'POST /api/articles/:id/publish',
    title: 'Publish',
    description: 'Publishes (or republishes) a snapshot of the article as it is now. Returns the public URL of the page and of its Markdown copy. Only publish when the person asked for it.',
  },
  {
    name: 'import_article',
    route: 'POST /api/articles/import',
    title: 'Import an article',
    description: 'Creates an article from exactly one of: markdown (may carry YAML front matter: title, premise, notes), html, or url (a public web page, fetched and reduced to its article text). Returns the article and its outline.',
  },
  {
    name: 'unfurl',
    route: 'GET /api/unfurl',
    title: 'Preview a link',
    description: 'Fetches a public web page\'s title, description and image, to cite it or add it as a source note.',
  },
];

// ---- input schemas: the route's, side by side ----

type JsonSchema = Record<string, any>;

/** One route a tool may call, and which argument goes where in its request. */
export interface ToolRoute {
  route: AnyRoute;
  placement: Record<string, 'params' | 'query' | 'body' | 'header'>;
  /** The path parameters it needs (all given: this route is the one called). */
  pathParams: string[];
  /** The header each `header` argument is sent as (ifMatch: If-Match, run: Quire-Run). */
  headerNames: Record<string, string>;
}

export interface Tool {
  spec: ToolSpec;
  routes: ToolRoute[];
  /** Read-only when every route of it is. */
  access: 'read' | 'write';
  method: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[]; additionalProperties: false };
  /** What its results' structuredContent is: one of its routes' success `data` schemas, or a tool error's `{error}`. */
  outputSchema: { type: 'object'; anyOf: JsonSchema[]; $defs?: Record<string, JsonSchema> };
}

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** A tool error's structured content (mcp/results.ts `toolError`): the envelope's error. */
export const toolErrorContent = z.strictObject({
  error: z.strictObject({
    code: z.string().describe('The API\'s error code: not-found, invalid-argument, permission-denied, precondition-failed...'),
    message: z.string(),
    nextAction: z.string().optional().describe('What to do about it.'),
  }),
});

/**
 * The output schema of a tool: the `data` schemas its routes declare for their success statuses
 * (a suggestible write's 202 `{suggestion}` beside its 200), or the `{error}` of a tool error,
 * whose structuredContent a client validates as well. JSON Schema 2020-12, like the inputs.
 */
function outputSchemaOf(routes: readonly AnyRoute[]): Tool['outputSchema'] {
  const answers = new Set<z.ZodType>();
  for (const route of routes) {
    for (const [status, answer] of Object.entries(route.responses)) if (Number(status) >= 200 && Number(status) < 300 && isZod(answer)) answers.add(answer);
  }
  const json = z.toJSONSchema(z.union([...answers, toolErrorContent] as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]), { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return { type: 'object', ...json } as Tool['outputSchema'];
}

/** Headers a route declares that a tool takes as arguments: If-Match as ifMatch, Quire-Run as run (CONTRACT 23). */
const OFFERED_HEADERS: Record<string, string> = { 'if-match': 'ifMatch', 'quire-run': 'run' };

/** The headers a route declares that become arguments (argument name -> header and description). */
function offeredHeaders(route: AnyRoute): Record<string, { header: string; description: string }> {
  const offered: Record<string, { header: string; description: string }> = {};
  for (const [name, spec] of Object.entries(route.headers ?? {})) {
    const argument = OFFERED_HEADERS[name.toLowerCase()];
    if (argument) offered[argument] = { header: name, description: typeof spec === 'string' ? spec : spec.description };
  }
  return offered;
}

/** One route's arguments: the properties of its params, query and body side by side (a name in two of them is a declaration error). */
function routeArguments(toolName: string, route: AnyRoute) {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const placement: ToolRoute['placement'] = {};
  const headerNames: Record<string, string> = {};
  const add = (part: 'params' | 'query' | 'body', schema: z.ZodType | undefined) => {
    if (!schema) return;
    const json = jsonSchemaOf(schema);
    if (json.type !== 'object') throw new Error(`Tool ${toolName}: the ${part} of ${route.method} ${route.path} is not an object schema.`);
    for (const [name, property] of Object.entries<JsonSchema>(json.properties ?? {})) {
      if (placement[name]) throw new Error(`Tool ${toolName}: "${name}" is both in the ${placement[name]} and the ${part} of ${route.method} ${route.path}.`);
      placement[name] = part;
      properties[name] = property;
    }
    for (const name of json.required ?? []) required.add(name);
  };
  add('params', route.params);
  add('query', isZod(route.query) ? route.query : undefined);
  add('body', isZod(route.body) ? route.body : undefined);
  for (const [name, { header, description }] of Object.entries(offeredHeaders(route))) {
    // A body that takes the same thing itself (POST .../edits has `ifMatch`, a run revert `run`) keeps it there.
    if (placement[name]) continue;
    placement[name] = 'header';
    headerNames[name] = header;
    properties[name] = { type: 'string', description };
  }
  // Path parameters are described for people reading paths; say what they are for a model.
  if (placement.id === 'params') properties.id = { ...properties.id, description: 'The article\'s id (or a unique prefix of it).' };
  const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  return { properties, required, toolRoute: { route, placement, pathParams, headerNames } };
}

/** Builds a tool from its declared routes: their arguments merged; required only where every route requires it. */
export function toolOf(spec: ToolSpec, routes: readonly AnyRoute[]): Tool {
  const parts = routes.map((route) => routeArguments(spec.name, route));
  const properties = Object.assign({}, ...parts.map((p) => p.properties).reverse()) as Record<string, JsonSchema>;
  const required = [...parts[0].required].filter((name) => parts.every((p) => p.required.has(name)));
  return {
    spec,
    routes: parts.map((p) => p.toolRoute),
    access: routes.every((r) => r.access === 'read') ? 'read' : 'write',
    method: routes[0].method,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    outputSchema: outputSchemaOf(routes),
  };
}

/** The route a call goes to: the first whose path parameters the arguments all give. */
export function routeFor(tool: Tool, args: Record<string, unknown>): ToolRoute {
  return tool.routes.find((r) => r.pathParams.every((name) => args[name] !== undefined && args[name] !== '')) ?? tool.routes[tool.routes.length - 1];
}

/** The tools whose routes are declared, in the catalog's order. */
export function buildTools(routes: readonly AnyRoute[]): Tool[] {
  const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  const tools: Tool[] = [];
  for (const spec of TOOL_SPECS) {
    const declared = (typeof spec.route === 'string' ? [spec.route] : spec.route).flatMap((key) => byKey.get(key) ?? []);
    if (declared.length) tools.push(toolOf(spec, declared));
  }
  return tools;
}
