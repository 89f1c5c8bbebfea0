/**
 * POST /api/mcp driven by the official SDK's client over Streamable HTTP, the way an agent
 * connects: list the tools, call them with an API key, read tool errors.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startListeningApp } from '../helpers/cli-login';
import { createKey, registerUser, type TestApp } from '../helpers/strapi';
import type { TestServer } from '../helpers/servers';
import { startUnfurlSite } from '../helpers/unfurl-site';

jest.setTimeout(120_000);

let app: TestApp;
let base: string;
let key: string;
let otherKey: string;
/** The link-preview fixture site, a private address the app is told to allow (UNFURL_ALLOWED_PRIVATE_HOSTS). */
let site: TestServer;
/** A web app allowed by CORS_ORIGINS (the server's own origin is PUBLIC_URL's, `base`). */
const TRUSTED_ORIGIN = 'https://app.example.com';

async function connect(secret?: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'quire-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
    requestInit: { headers: { ...(secret ? { Authorization: `Bearer ${secret}` } : {}), ...headers } },
  });
  await client.connect(transport);
  // Listing the tools makes the client check every result against the tool's outputSchema.
  await client.listTools();
  return client;
}

/** A tool's successful result: its structured content (the route's data), also given as JSON text. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result: any = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`);
  // The first text block is the data as JSON, nothing more; an ETag comes as a second block.
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  expect(result.content.slice(1)).toEqual(result._meta?.etag ? [{ type: 'text', text: `ETag: ${result._meta.etag}` }] : []);
  return result.structuredContent;
}

/** A tool error: its text has the code, message and nextAction. */
async function callError(client: Client, name: string, args: Record<string, unknown>) {
  const result: any = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return { text: result.content[0].text as string, error: result.structuredContent.error };
}

beforeAll(async () => {
  // Port 1 as the trap: only the fixture's /hostile page points at it, and this file does not open it.
  site = await startUnfurlSite(1);
  ({ app, base } = await startListeningApp({ CORS_ORIGINS: `${TRUSTED_ORIGIN},https://other.example.org`, UNFURL_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${site.port}` }));
  const ada = await registerUser(app, 'ada');
  key = await createKey(app, ada, 'agent');
  otherKey = await createKey(app, await registerUser(app, 'bob'), 'bob agent');
});

afterAll(async () => {
  await app?.close();
  await site?.close();
});

describe('POST /api/mcp', () => {
  it('refuses a request without a credential with 401 and the resource metadata URL', async () => {
    const res = await app.http.post('/api/mcp').set('Accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`);
    expect(res.body.error.code).toBe('unauthenticated');
  });

  it('lists the tools of CONTRACT 16 whose routes exist, with the routes\' input schemas', async () => {
    const client = await connect(key);
    expect(client.getServerVersion()?.name).toBe('quire');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['list_articles', 'create_article', 'get_article', 'get_outline', 'get_section', 'add_sections', 'replace_section', 'move_section', 'delete_section',
      'get_brief', 'set_premise', 'add_note', 'update_note', 'delete_note', 'publish_article', 'import_article', 'unfurl']) {
      expect(names).toContain(name);
    }
    const create = tools.find((t) => t.name === 'create_article')!;
    expect(create.inputSchema.required).toEqual(['title']);
    expect(Object.keys(create.inputSchema.properties!)).toEqual(['title', 'markdown', 'premise']);
    const replace = tools.find((t) => t.name === 'replace_section')!;
    expect(Object.keys(replace.inputSchema.properties!)).toEqual(expect.arrayContaining(['id', 'sid', 'markdown', 'html']));
    expect(replace.inputSchema.required).toEqual(expect.arrayContaining(['id', 'sid']));
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      // The route's success data, or a tool error's {error}: what structuredContent can be.
      expect(tool.outputSchema?.type).toBe('object');
      expect(Array.isArray(tool.outputSchema!.anyOf)).toBe(true);
      expect(tool.outputSchema!.anyOf).toContainEqual(expect.objectContaining({ required: ['error'] }));
    }
    expect((create.outputSchema!.anyOf as any[])[0]).toEqual(expect.objectContaining({ required: ['article', 'outline'] }));
    // A suggestible write: its 200, or a suggest key's 202 {suggestion}.
    expect((replace.outputSchema!.anyOf as any[]).map((s) => s.required)).toEqual([['updated', 'outline'], ['suggestion'], ['error']]);
    expect(tools.find((t) => t.name === 'get_outline')!.annotations?.readOnlyHint).toBe(true);
    await client.close();
  });

  it('previews a link with unfurl, as GET /api/unfurl does', async () => {
    const client = await connect(key);
    const preview = await call(client, 'unfurl', { url: `${site.origin}/og` });
    expect(preview).toEqual((await app.http.get('/api/unfurl').set('Authorization', `Bearer ${key}`).query({ url: `${site.origin}/og` })).body.data);
    expect(preview).toMatchObject({ url: `${site.origin}/og`, host: '127.0.0.1', title: 'The OpenGraph Title' });
    expect(site.requests.map((r) => r.url)).toEqual(['/og', '/og']);
    await client.close();
  });

  it('writes an article section by section through the tools', async () => {
    const client = await connect(key);
    const created = await call(client, 'create_article', { title: 'Tides', markdown: '## Why the sea moves\n\nThe moon pulls.', premise: 'Tides are gravity made visible.' });
    const id = created.article.id;
    expect(created.outline).toHaveLength(1);

    const added = await call(client, 'add_sections', { id, markdown: '## Spring tides\n\nSun and moon align.\n\n## Neap tides\n\nThey pull apart.' });
    expect(added.outline.map((s: any) => s.title)).toEqual(['Why the sea moves', 'Spring tides', 'Neap tides']);

    const outline = (await call(client, 'get_outline', { id: id.slice(0, 8) })).outline;
    const [first, spring, neap] = outline.map((s: any) => s.anchor);
    const section = (await call(client, 'get_section', { id, sid: spring })).section;
    expect(section.markdown).toContain('Sun and moon align.');

    const replaced = await call(client, 'replace_section', { id, sid: spring, markdown: '## Spring tides\n\nSun and moon in a line: the highest tides.' });
    expect(replaced.outline).toHaveLength(3);
    const moved = await call(client, 'move_section', { id, sid: neap, before: first });
    expect(moved.outline.map((s: any) => s.title)).toEqual(['Neap tides', 'Why the sea moves', 'Spring tides']);
    const afterDelete = await call(client, 'delete_section', { id, sid: neap });
    expect(afterDelete.outline).toHaveLength(2);

    const note = await call(client, 'add_note', { id, kind: 'source', title: 'NOAA tides primer', url: 'https://oceanservice.noaa.gov/education/tutorial_tides/' });
    const nid = note.note.anchor;
    await call(client, 'update_note', { id, nid, body: 'The clearest primer.' });
    expect((await call(client, 'set_premise', { id, premise: 'The sea follows the moon.' })).premise).toBe('The sea follows the moon.');
    const brief = await call(client, 'get_brief', { id });
    expect(brief.premise).toBe('The sea follows the moon.');
    expect(brief.notes).toEqual([expect.objectContaining({ title: 'NOAA tides primer', body: 'The clearest primer.', createdBy: 'agent' })]);
    await call(client, 'delete_note', { id, nid });

    const article = await call(client, 'get_article', { id });
    expect(article.article.title).toBe('Tides');
    const published = await call(client, 'publish_article', { id });
    expect(published.url).toMatch(new RegExp(`^${base}/p/`));

    const listed = await call(client, 'list_articles', { limit: '5' });
    expect(listed.articles.map((a: any) => a.id)).toContain(id);

    const imported = await call(client, 'import_article', { markdown: '---\ntitle: Imported\n---\n\n## One\n\nText.' });
    expect(imported.article.title).toBe('Imported');
    await client.close();
  });

  it('answers failures as tool errors with code, message and nextAction', async () => {
    const client = await connect(key);
    const missing = await callError(client, 'get_outline', { id: 'doesnotexist' });
    expect(missing.error.code).toBe('not-found');
    expect(missing.text).toMatch(/^not-found: .+\nNext: .+/);

    const invalid = await callError(client, 'create_article', { title: '' });
    expect(invalid.error).toEqual({ code: 'invalid-argument', message: expect.stringContaining('title'), nextAction: expect.any(String) });

    const unknown = await callError(client, 'get_outline', { id: 'x', nope: 1 });
    expect(unknown.error.code).toBe('invalid-argument');
    await client.close();
  });

  it('scopes every tool to the caller\'s own articles', async () => {
    const ada = await connect(key);
    const { article } = await call(ada, 'create_article', { title: 'Private' });
    const bob = await connect(otherKey);
    expect((await callError(bob, 'get_article', { id: article.id })).error.code).toBe('not-found');
    expect((await call(bob, 'list_articles')).articles.map((a: any) => a.id)).not.toContain(article.id);
    await ada.close();
    await bob.close();
  });

  it('gives a read key tool errors on writes, and searches', async () => {
    const ada = await connect(key);
    const { article } = await call(ada, 'create_article', { title: 'Searchable', markdown: '## Moon\n\nThe moon pulls the tide.' });
    const inArticle = await call(ada, 'search', { id: article.id, q: 'TIDE' });
    expect(inArticle.matches).toEqual([expect.objectContaining({ title: 'Moon', count: 1 })]);
    const everywhere = await call(ada, 'search', { q: 'moon pulls' });
    expect(everywhere.results.map((r: any) => r.article.id)).toContain(article.id);
    await ada.close();

    const readKey = (await app.http.post('/api/keys').set('Authorization', `Bearer ${(await registerUser(app, 'reader')).jwt}`).send({ name: 'reader', scope: 'read' })).body.data.secret;
    const reader = await connect(readKey);
    expect((await call(reader, 'list_articles')).articles).toEqual([]);
    const refused = await callError(reader, 'create_article', { title: 'No' });
    expect(refused.error.code).toBe('permission-denied');
    await reader.close();
  });

  it('replaces a section with the ETag get_section returned, and refuses a stale one as a tool error without writing', async () => {
    const client = await connect(key);
    const { article } = await call(client, 'create_article', { title: 'Currents', markdown: '## Gulf Stream\n\nWarm water north.\n\n## Humboldt\n\nCold water north.' });
    const id = article.id;
    const [gulf] = (await call(client, 'get_outline', { id })).outline.map((s: any) => s.anchor);

    const tool = (await client.listTools()).tools.find((t) => t.name === 'replace_section')!;
    expect(tool.inputSchema.properties!.ifMatch).toEqual(expect.objectContaining({ type: 'string' }));
    const read: any = await client.callTool({ name: 'get_section', arguments: { id, sid: gulf } });
    const etag = read._meta.etag as string;
    expect(read.content).toEqual([{ type: 'text', text: expect.any(String) }, { type: 'text', text: `ETag: ${etag}` }]);
    expect(JSON.parse(read.content[0].text)).toEqual(read.structuredContent);
    expect((await app.http.get(`/api/articles/${id}/sections/${gulf}`).set('Authorization', `Bearer ${key}`)).headers.etag).toBe(etag);

    const written: any = await client.callTool({ name: 'replace_section', arguments: { id, sid: gulf, markdown: '## Gulf Stream\n\nWarm water to Europe.', ifMatch: etag } });
    expect(written.isError).toBeFalsy();
    const newEtag = written._meta.etag as string;
    expect(newEtag).toBeTruthy();
    expect(newEtag).not.toBe(etag);

    // The ETag read before the write is stale now: a tool error, and the section is as written.
    const stale = await callError(client, 'replace_section', { id, sid: gulf, markdown: '## Gulf Stream\n\nOverwritten.', ifMatch: etag });
    expect(stale.error).toEqual({ code: 'precondition-failed', message: expect.any(String), nextAction: expect.any(String) });
    expect(stale.text).toMatch(/^precondition-failed: .+\nNext: .+/);
    const now = await app.http.get(`/api/articles/${id}/sections/${gulf}`).set('Authorization', `Bearer ${key}`);
    expect(now.body.data.section.markdown).toBe('## Gulf Stream\n\nWarm water to Europe.');
    expect(now.headers.etag).toBe(newEtag);

    // The current one still writes.
    await call(client, 'replace_section', { id, sid: gulf, markdown: '## Gulf Stream\n\nWarm water to Europe, at walking pace.', ifMatch: newEtag });
    await client.close();
  });

  it('applies atomic edits through edit_article, with a dry run that writes nothing and the outline\'s ETag', async () => {
    const client = await connect(key);
    const { article } = await call(client, 'create_article', { title: 'Winds', markdown: '## Trade winds\n\nThey blow west.\n\n## Westerlies\n\nThey blow east.' });
    const id = article.id;
    const outlineRead: any = await client.callTool({ name: 'get_outline', arguments: { id } });
    const [trade, westerlies] = outlineRead.structuredContent.outline.map((s: any) => s.anchor);
    const outlineEtag = outlineRead._meta.etag as string;
    const ops = [
      { op: 'replaceText', find: 'blow west', replace: 'blow toward the equator', section: trade },
      { op: 'insert', markdown: '## Doldrums\n\nNo wind at all.', after: westerlies },
      { op: 'move', section: '$1', before: trade },
    ];

    const dry = await call(client, 'edit_article', { id, ops, dryRun: true, ifMatch: outlineEtag });
    expect(dry.results.map((r: any) => r.op)).toEqual(['replaceText', 'insert', 'move']);
    expect(dry.results[0].diff).toContain('+They blow toward the equator.');
    expect(dry.outline.map((s: any) => s.title)).toEqual(['Doldrums', 'Trade winds', 'Westerlies']);
    const untouched = await app.http.get(`/api/articles/${id}/outline`).set('Authorization', `Bearer ${key}`);
    expect(untouched.body.data.outline.map((s: any) => s.title)).toEqual(['Trade winds', 'Westerlies']);
    expect(untouched.headers.etag).toBe(outlineEtag);

    const applied = await call(client, 'edit_article', { id, ops, ifMatch: outlineEtag });
    expect(applied.outline.map((s: any) => s.title)).toEqual(['Doldrums', 'Trade winds', 'Westerlies']);
    const section = await app.http.get(`/api/articles/${id}/sections/${trade}`).set('Authorization', `Bearer ${key}`);
    expect(section.body.data.section.markdown).toBe('## Trade winds\n\nThey blow toward the equator.');

    // All or nothing: the second op fails, the first is not applied; the stale outline ETag is refused too.
    const failed = await callError(client, 'edit_article', { id, ops: [{ op: 'replaceText', find: 'equator', replace: 'tropics', section: trade }, { op: 'delete', section: 'zzzzzzzz' }] });
    expect(failed.error.code).toBe('not-found');
    expect(failed.error.message).toMatch(/^ops\[1\]/);
    expect((await callError(client, 'edit_article', { id, ops: [{ op: 'delete', section: trade }], ifMatch: outlineEtag })).error.code).toBe('precondition-failed');
    const after = await app.http.get(`/api/articles/${id}/sections/${trade}`).set('Authorization', `Bearer ${key}`);
    expect(after.body.data.section.markdown).toBe('## Trade winds\n\nThey blow toward the equator.');
    await client.close();
  });

  it('turns a suggest key\'s section write into a suggestion, applied only when the owner accepts it', async () => {
    const owner = await registerUser(app, 'suggestee');
    const writeKey = await createKey(app, owner, 'writer');
    const suggestKey = await createKey(app, owner, 'assistant', 'suggest');
    const writer = await connect(writeKey);
    const { article } = await call(writer, 'create_article', { title: 'Storms', markdown: '## Hurricanes\n\nBig storms.' });
    const id = article.id;
    const [hurricanes] = (await call(writer, 'get_outline', { id })).outline.map((s: any) => s.anchor);
    await writer.close();

    const suggester = await connect(suggestKey);
    const proposed = await call(suggester, 'replace_section', { id, sid: hurricanes, markdown: '## Hurricanes\n\nStorms that form over warm oceans.' });
    expect(proposed.suggestion).toEqual(expect.objectContaining({ status: 'pending', ops: [expect.objectContaining({ op: 'replace', section: hurricanes })] }));
    const viaTool = await call(suggester, 'suggest_edits', { id, ops: [{ op: 'insert', markdown: '## Typhoons\n\nThe Pacific\'s.' }], note: 'A section on typhoons.' });
    expect(viaTool.suggestion).toEqual(expect.objectContaining({ status: 'pending', note: 'A section on typhoons.' }));
    // Nothing was written: the section is as it was, and the suggest key may not accept its own suggestion.
    expect((await call(suggester, 'get_section', { id, sid: hurricanes })).section.markdown).toBe('## Hurricanes\n\nBig storms.');
    const own = await app.http.post(`/api/articles/${id}/suggestions/${proposed.suggestion.anchor}/accept`).set('Authorization', `Bearer ${suggestKey}`).send({});
    expect(own.status).toBe(403);
    await suggester.close();

    const listed = await app.http.get(`/api/articles/${id}/suggestions`).set('Authorization', `Bearer ${writeKey}`);
    expect(listed.body.data.suggestions.map((s: any) => s.anchor)).toEqual([viaTool.suggestion.anchor, proposed.suggestion.anchor]);
    const accepted = await app.http.post(`/api/articles/${id}/suggestions/${proposed.suggestion.anchor}/accept`).set('Authorization', `Bearer ${writeKey}`).send({});
    expect(accepted.status).toBe(200);
    const section = await app.http.get(`/api/articles/${id}/sections/${hurricanes}`).set('Authorization', `Bearer ${writeKey}`);
    expect(section.body.data.section.markdown).toBe('## Hurricanes\n\nStorms that form over warm oceans.');
  });

  it('lists a section\'s revisions after two writes and restores one', async () => {
    const client = await connect(key);
    const { article } = await call(client, 'create_article', { title: 'Glaciers', markdown: '## Ice\n\nFirst version.' });
    const id = article.id;
    const [ice] = (await call(client, 'get_outline', { id })).outline.map((s: any) => s.anchor);
    await call(client, 'replace_section', { id, sid: ice, markdown: '## Ice\n\nSecond version.' });
    await call(client, 'replace_section', { id, sid: ice, markdown: '## Ice\n\nThird version.' });

    const { revisions } = await call(client, 'list_revisions', { id, sid: ice });
    expect(revisions.map((r: any) => r.rev)).toEqual([3, 2, 1]);
    expect(revisions[0].by).toEqual(expect.objectContaining({ kind: expect.any(String) }));

    const restored = await call(client, 'restore_revision', { id, sid: ice, rev: '1' });
    expect(restored.section.markdown).toBe('## Ice\n\nFirst version.');
    expect((await call(client, 'list_revisions', { id, sid: ice })).revisions.map((r: any) => r.rev)).toEqual([4, 3, 2, 1]);
    const now = await app.http.get(`/api/articles/${id}/sections/${ice}`).set('Authorization', `Bearer ${key}`);
    expect(now.body.data.section.markdown).toBe('## Ice\n\nFirst version.');

    const missing = await callError(client, 'restore_revision', { id, sid: ice, rev: '99' });
    expect(missing.error.code).toBe('not-found');
    await client.close();
  });

  describe('the Origin check (DNS rebinding)', () => {
    const rpc = (origin: string | undefined, secret: string | undefined, body: object) => {
      let request = app.http.post('/api/mcp').set('Accept', 'application/json, text/event-stream');
      if (secret) request = request.set('Authorization', `Bearer ${secret}`);
      if (origin !== undefined) request = request.set('Origin', origin);
      return request.send(body);
    };
    const createCall = (title: string) => ({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_article', arguments: { title } } });

    it('refuses a foreign Origin with 403 in the envelope, before the credential and without running the tool', async () => {
      const refused = await rpc('http://rebound.attacker.test:1337', key, createCall('From a foreign page'));
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        success: false,
        error: { code: 'permission-denied', message: expect.stringContaining('"http://rebound.attacker.test:1337"'), nextAction: expect.stringContaining('CORS_ORIGINS') },
      });
      const listed = await app.http.get('/api/articles').set('Authorization', `Bearer ${key}`);
      expect(listed.body.data.articles.map((a: any) => a.title)).not.toContain('From a foreign page');

      // No credential: still the Origin's 403 (not a 401 inviting an OAuth flow); an opaque or malformed Origin is foreign too.
      expect((await rpc('https://evil.example', undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(403);
      expect((await rpc('null', key, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(403);
      expect((await rpc('not a url', key, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(403);
      // The same host on another scheme or port is another origin.
      expect((await rpc(base.replace('http://', 'https://'), key, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(403);
    });

    it('refuses the official client sent with a foreign Origin', async () => {
      await expect(connect(key, { Origin: 'https://evil.example' })).rejects.toThrow(/permission-denied.*https:\/\/evil\.example.*CORS_ORIGINS/);
    });

    it('serves the server\'s own origin, the origins of CORS_ORIGINS, and requests without Origin', async () => {
      const own = await rpc(base, key, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(own.status).toBe(200);
      expect(own.body.result.tools.length).toBeGreaterThan(10);
      const trusted = await rpc(TRUSTED_ORIGIN, key, createCall('From the web app'));
      expect(trusted.status).toBe(200);
      expect(trusted.body.result.structuredContent.article.title).toBe('From the web app');
      expect(trusted.headers['access-control-allow-origin']).toBe(TRUSTED_ORIGIN);
      expect((await rpc(undefined, key, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);

      const client = await connect(key, { Origin: 'https://other.example.org' });
      expect((await call(client, 'get_outline', { id: trusted.body.result.structuredContent.article.id })).outline).toHaveLength(1);
      await client.close();
    });
  });

  it('is stateless: no session id, and GET is not served', async () => {
    const res = await app.http
      .post('/api/mcp')
      .set('Authorization', `Bearer ${key}`)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.body.result.protocolVersion).toBe('2025-11-25');
    for (const method of ['get', 'delete'] as const) {
      const res = await app.http[method]('/api/mcp').set('Authorization', `Bearer ${key}`).set('Accept', 'text/event-stream');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.body).toEqual({ success: false, error: { code: 'method-not-allowed', message: expect.stringContaining('stateless'), nextAction: expect.stringContaining('POST /api/mcp') } });
    }
  });

  it('answers the SDK client\'s GET for an SSE stream with 405, which the client takes as "no stream" (no error)', async () => {
    const errors: Error[] = [];
    const gets: Array<Promise<Response>> = [];
    const client = new Client({ name: 'quire-test-agent', version: '1.0.0' });
    client.onerror = (error) => errors.push(error);
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
      fetch: (url, init) => {
        const response = fetch(url, init);
        if (init?.method === 'GET') gets.push(response);
        return response;
      },
    });
    await client.connect(transport);
    // The client opens the stream after its initialized notification, without awaiting it: let its
    // pending steps run, then wait for the answer and the client's handling of it.
    await new Promise(setImmediate);
    expect(gets).toHaveLength(1);
    expect((await gets[0]).status).toBe(405);
    await new Promise(setImmediate);
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    expect(errors).toEqual([]);
    await client.close();
  });
});
