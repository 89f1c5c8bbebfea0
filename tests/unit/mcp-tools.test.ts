/**
 * MCP tools are their routes (src/plugins/quire/server/src/mcp/tools.ts): input schemas merged
 * from the route's params, query and body, conditional headers offered as arguments, and a tool
 * of several routes called on the one whose path parameters are given.
 */
import { z } from 'zod';
import { routeGroup } from '../../src/kernel/routes';
import { buildTools, routeFor, TOOL_SPECS } from '../../src/plugins/quire/server/src/mcp/tools';
import { routes } from '../../src/plugins/quire/server/src/routes';

const group = routeGroup('quire', { credentials: ['api-key'] as const });
const fake = group('fake', 'Fake', {
  edits: {
    method: 'POST',
    path: '/api/articles/:id/edits',
    summary: 'edits',
    params: z.object({ id: z.string() }),
    headers: { 'If-Match': 'The outline ETag.' },
    body: z.strictObject({ ops: z.array(z.object({ op: z.string() })), ifMatch: z.string().optional() }),
    responses: { 200: z.object({}) },
  },
  replace: {
    method: 'PATCH',
    path: '/api/articles/:id/sections/:sid',
    summary: 'replace',
    params: z.object({ id: z.string(), sid: z.string() }),
    headers: { 'If-Match': 'The section ETag.' },
    body: z.strictObject({ markdown: z.string() }),
    responses: { 200: z.object({}) },
  },
  articleSearch: { method: 'GET', path: '/api/articles/:id/search', summary: 's', params: z.object({ id: z.string() }), query: z.object({ q: z.string() }), responses: { 200: z.object({}) } },
  search: { method: 'GET', path: '/api/search', summary: 's', query: z.object({ q: z.string(), cursor: z.string().optional() }), responses: { 200: z.object({}) } },
});

it('every tool of the catalog has a name of CONTRACT 16 (or 24) and a description for a model', () => {
  expect(TOOL_SPECS.map((t) => t.name).sort()).toEqual(
    ['add_note', 'add_sections', 'create_article', 'delete_note', 'delete_section', 'edit_article', 'get_article', 'get_brief', 'get_outline', 'get_presence', 'get_section', 'import_article',
      'list_articles', 'list_revisions', 'move_section', 'publish_article', 'replace_section', 'restore_revision', 'search', 'set_premise', 'suggest_edits', 'unfurl', 'update_note',
      // CONTRACT 23
      'list_changes', 'get_change', 'revert_change', 'list_suggestions', 'get_suggestion',
      // CONTRACT 24
      'list_threads', 'get_thread', 'create_thread', 'reply_thread', 'resolve_thread'].sort(),
  );
  for (const spec of TOOL_SPECS) expect(spec.description.length).toBeGreaterThan(60);
});

it('builds the tools of the declared routes, with the routes\' own schemas', () => {
  const tools = buildTools(routes);
  const create = tools.find((t) => t.spec.name === 'create_article')!;
  expect(create.inputSchema.required).toEqual(['title']);
  expect(create.inputSchema.additionalProperties).toBe(false);
});

it('offers If-Match as ifMatch, unless the body takes ifMatch itself', () => {
  const tools = buildTools(Object.values(fake));
  const replace = tools.find((t) => t.spec.name === 'replace_section')!;
  expect(replace.routes[0].placement).toEqual({ id: 'params', sid: 'params', markdown: 'body', ifMatch: 'header' });
  const edits = tools.find((t) => t.spec.name === 'edit_article')!;
  expect(edits.routes[0].placement.ifMatch).toBe('body');
});

it('calls search in one article when given its id, else across articles', () => {
  const search = buildTools(Object.values(fake)).find((t) => t.spec.name === 'search')!;
  expect(search.inputSchema.required).toEqual(['q']);
  expect(routeFor(search, { id: 'abc', q: 'tide' }).route.path).toBe('/api/articles/:id/search');
  expect(routeFor(search, { q: 'tide' }).route.path).toBe('/api/search');
});

it('declares as output schema the routes\' success data, a suggestion\'s 202, or a tool error', () => {
  const tools = buildTools(routes);
  const ajvOf = (schema: object) => {
    // The validator the official SDK's client uses for outputSchema.
    const { AjvJsonSchemaValidator } = require('@modelcontextprotocol/sdk/validation/ajv');
    return new AjvJsonSchemaValidator().getValidator(schema);
  };
  const replace = tools.find((t) => t.spec.name === 'replace_section')!;
  expect(replace.outputSchema.type).toBe('object');
  expect(replace.outputSchema.anyOf.map((s) => s.required)).toEqual([['updated', 'outline'], ['suggestion'], ['error']]);
  const validate = ajvOf(replace.outputSchema);
  expect(validate({ updated: [], outline: [] }).valid).toBe(true);
  expect(validate({ error: { code: 'precondition-failed', message: 'Changed.', nextAction: 'Read it again.' } }).valid).toBe(true);
  expect(validate({ error: { code: 'x', message: 'y', stack: 'z' } }).valid).toBe(false);
  expect(validate({ updated: [] }).valid).toBe(false);
  const search = tools.find((t) => t.spec.name === 'search')!;
  expect(search.outputSchema.anyOf).toHaveLength(3);
});

describe('the messages of one JSON-RPC batch run a few at a time', () => {
  it('never runs more than BATCH_CONCURRENCY at once, and runs them all', async () => {
    const { BATCH_CONCURRENCY, MAX_BATCH_MESSAGES, limiter } = require('../../src/plugins/quire/server/src/mcp/limits');
    const limit = limiter(BATCH_CONCURRENCY);
    let running = 0;
    let most = 0;
    const release: Array<() => void> = [];
    const done = Array.from({ length: MAX_BATCH_MESSAGES }, (_, i) =>
      limit(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
        return i;
      }),
    );
    // Release them one by one as they start: each release lets a queued one in.
    while (release.length || running) {
      await new Promise(setImmediate);
      release.shift()?.();
    }
    expect(await Promise.all(done)).toEqual(Array.from({ length: MAX_BATCH_MESSAGES }, (_, i) => i));
    expect(most).toBe(BATCH_CONCURRENCY);
  });
});
