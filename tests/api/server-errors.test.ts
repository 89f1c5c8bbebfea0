/**
 * The root routes that do not answer in the envelope still answer a failure on our side in their
 * own format, as their routes declare it (CONTRACT 15): the public page as a page (its Markdown
 * as text), the OAuth endpoints as RFC 6749's `server_error`, the authorize page as a page. The
 * failure is real: the table the route reads is renamed away for the request.
 */
import { startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let logged: string[] = [];

beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.close());

/** Runs `fn` while the table of `uid` is missing, and collects what the server logged as errors. */
async function withTableGone<T>(uid: string, fn: () => Promise<T>): Promise<T> {
  const table = app.strapi.db.metadata.get(uid as never).tableName;
  const knex = app.strapi.db.connection;
  const hidden = `${table}_away`;
  logged = [];
  const log = jest.spyOn(app.strapi.log, 'error').mockImplementation((...args: unknown[]) => void logged.push(String(args[0])));
  await knex.schema.renameTable(table, hidden);
  try {
    return await fn();
  } finally {
    await knex.schema.renameTable(hidden, table);
    log.mockRestore();
  }
}

describe('a public page whose copy cannot be read', () => {
  it('is a page that says so (text for the Markdown), never cached, and the cause is logged', async () => {
    const [html, markdown] = await withTableGone('plugin::quire.publication', async () => [
      await app.http.get('/p/some-article'),
      await app.http.get('/p/some-article.md'),
    ]);
    expect(html.status).toBe(500);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['cache-control']).toBe('no-store');
    expect(html.text).toContain('<h1>Something went wrong</h1>');
    expect(markdown.status).toBe(500);
    expect(markdown.headers['content-type']).toMatch(/^text\/plain/);
    expect(markdown.text).toBe('Something went wrong on our side. Try again in a moment.\n');
    expect(logged.some((line) => line.startsWith('GET /p/some-article failed'))).toBe(true);

    // Back to normal once the table is back.
    expect((await app.http.get('/p/some-article')).status).toBe(404);
  });
});

describe('the OAuth endpoints when the server fails', () => {
  it('answer server_error in the OAuth format (register, token, revoke)', async () => {
    const answers = await withTableGone('plugin::quire.oauth-client', async () => [
      await app.http.post('/oauth/register').send({ client_name: 'Tide Agent', redirect_uris: ['http://127.0.0.1:8976/callback'] }),
      await app.http.post('/oauth/token').type('form').send({ grant_type: 'authorization_code', client_id: 'qoc_unknown', code: 'x', redirect_uri: 'http://127.0.0.1:8976/callback', code_verifier: 'v'.repeat(43) }),
    ]);
    answers.push(
      await withTableGone('plugin::quire.oauth-token', () => app.http.post('/oauth/revoke').type('form').send({ token: 'qoa_not_a_real_token' })),
    );
    for (const res of answers) {
      expect(res.status).toBe(500);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({ error: 'server_error', error_description: 'Something went wrong on the server. Try again in a moment.' });
    }
    expect(logged.some((line) => line.startsWith('POST /oauth/revoke failed'))).toBe(true);
  });

  it('the authorize page says so as a page', async () => {
    const res = await withTableGone('plugin::quire.oauth-client', () =>
      app.http.get('/oauth/authorize').query({
        response_type: 'code',
        client_id: 'qoc_unknown',
        redirect_uri: 'http://127.0.0.1:8976/callback',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }),
    );
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Something went wrong on our side. Try again in a moment.');
    expect(logged.some((line) => line.startsWith('GET /oauth/authorize failed'))).toBe(true);
  });
});
