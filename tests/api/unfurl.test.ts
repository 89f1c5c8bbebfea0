import dns from 'node:dns';
import os from 'node:os';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { signIn } from '../helpers/cli-login';
import { blockedUrls, startServer, type TestServer } from '../helpers/servers';
import { startUnfurlSite } from '../helpers/unfurl-site';

let app: TestApp;
let alice: TestUser;
let key: string;
let site: TestServer; // exempted through UNFURL_ALLOWED_PRIVATE_HOSTS
let trap: TestServer; // listens on every local address; must never be reached
let closedPort: number; // exempted too, but nothing listens there

const PRIVATE = 'url: The URL points to a local or private-network address, which cannot be fetched.';

beforeAll(async () => {
  trap = await startServer(undefined, '::');
  site = await startUnfurlSite(trap.port);
  const closed = await startServer();
  closedPort = closed.port;
  await closed.close();
  app = await startApp({
    UNFURL_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${site.port}, 127.0.0.1:${closedPort}`,
    UNFURL_RATE_LIMIT: '100000',
    UNFURL_TIMEOUT_MS: '2000',
  });
  alice = await registerUser(app, 'alice');
  key = await createKey(app, alice);
});

afterAll(async () => {
  await app?.close();
  await site?.close();
  await trap?.close();
});

const unfurl = (url?: string, credential = key) => {
  const req = app.http.get('/api/unfurl').set(bearer(credential));
  return url === undefined ? req : req.query({ url });
};

async function preview(url: string) {
  const res = await unfurl(url);
  expect([res.status, res.body?.success]).toEqual([200, true]);
  expect(Object.keys(res.body.data).sort()).toEqual(['description', 'host', 'image', 'title', 'url']);
  return res.body.data;
}

describe('GET /api/unfurl: previews', () => {
  it('reads OpenGraph metadata', async () => {
    expect(await preview(`${site.origin}/og`)).toEqual({
      url: `${site.origin}/og`,
      host: '127.0.0.1',
      title: 'The OpenGraph Title',
      description: 'What the OpenGraph description says.',
      image: 'https://cdn.example.com/cover.png',
    });
  });

  it('reads Twitter cards', async () => {
    expect(await preview(`${site.origin}/twitter`)).toMatchObject({
      title: 'A Twitter Card Title',
      description: 'The card description.',
      image: 'https://cdn.example.com/card.jpg',
    });
  });

  it('falls back to <title> and the first meta description; what is missing is ""', async () => {
    expect(await preview(`${site.origin}/bare`)).toMatchObject({ title: 'Just a title', description: 'The first meta description.', image: '' });
  });

  it('makes a relative image URL absolute', async () => {
    expect((await preview(`${site.origin}/blog/2024/post.html`)).image).toBe(`${site.origin}/blog/images/cover.jpg?size=large`);
  });

  it('decodes pages that are not UTF-8 (charset in the header, or in <meta>)', async () => {
    expect(await preview(`${site.origin}/latin1`)).toMatchObject({
      title: 'Café crème – déjà vu',
      description: 'Ærøskøbing, naïve façade, “quotes”.',
    });
    expect(await preview(`${site.origin}/sjis`)).toMatchObject({ title: '日本語のタイトル', description: 'これは説明文です。' });
  });

  it('follows redirects and reports the final URL and its host', async () => {
    const data = await preview(`${site.origin}/redirect?to=${encodeURIComponent('/chain?n=3')}`);
    expect(data).toMatchObject({ url: `${site.origin}/og`, host: '127.0.0.1', title: 'The OpenGraph Title' });
  });

  it('fetches nothing but the page: no favicon, no oEmbed, and a javascript: image is dropped', async () => {
    expect(await preview(`${site.origin}/hostile`)).toMatchObject({ title: 'Hostile page', image: '' });
    expect(trap.hits).toBe(0);
  });

  it('accepts the browser session', async () => {
    const res = await (await signIn(app, alice)).get('/api/unfurl').query({ url: `${site.origin}/og` });
    expect(res.status).toBe(200);
    expect((await unfurl(`${site.origin}/og`, alice.jwt)).status).toBe(200);
  });
});

describe('GET /api/unfurl: errors', () => {
  it('needs a credential, so it is no open fetch proxy', async () => {
    const before = site.hits;
    expectFailure(await app.http.get('/api/unfurl').query({ url: `${site.origin}/og` }), 401, 'unauthenticated');
    expectFailure(await app.http.get('/api/unfurl').set(bearer('qk_not-a-key')).query({ url: `${site.origin}/og` }), 401, 'unauthenticated');
    expect(site.hits).toBe(before);
  });

  it('refuses a missing, empty, repeated or malformed url, naming the field', async () => {
    expect(expectFailure(await unfurl(), 400, 'invalid-argument')).toMatchObject({ message: 'url is required.', nextAction: 'Pass the link as ?url=<encoded-url>.' });
    expect(expectFailure(await unfurl(''), 400, 'invalid-argument').message).toBe('url must not be empty.');
    const twice = await app.http.get(`/api/unfurl?url=${encodeURIComponent(`${site.origin}/og`)}&url=x`).set(bearer(key));
    expect(expectFailure(twice, 400, 'invalid-argument').message).toBe('url must be a string.');
    expect(expectFailure(await unfurl('example.com/page'), 400, 'invalid-argument').message).toBe('url: The URL is not a valid absolute http(s) URL.');
    expect(expectFailure(await unfurl('ftp://example.com/'), 400, 'invalid-argument').message).toBe('url: Only http and https URLs can be fetched.');
  });

  it('refuses at least 40 spellings of private addresses, with one message for all ranges, reaching nothing', async () => {
    const urls = blockedUrls(trap.port);
    expect(urls.length).toBeGreaterThanOrEqual(40);
    const privateMessages = new Set<string>();
    for (const url of urls) {
      const res = await unfurl(url);
      const error = expectFailure(res, 400, 'invalid-argument');
      if (/^\s*https?:/i.test(url) && !url.includes('@') && !/256|4294967296/.test(url)) privateMessages.add(error.message);
    }
    expect([...privateMessages]).toEqual([PRIVATE]);
    expect(trap.hits).toBe(0);
  });

  it('refuses names that resolve to this machine (system resolver)', async () => {
    const names = ['localhost', 'LocalHost.', 'anything.localhost'];
    const self = os.hostname();
    if ((await dns.promises.lookup(self, { all: true }).catch(() => [])).length) names.push(self);
    for (const name of names) {
      const error = expectFailure(await unfurl(`http://${name}:${trap.port}/`), 400, 'invalid-argument');
      expect([name, error.message]).toEqual([name, PRIVATE]);
    }
    expect(trap.hits).toBe(0);
  });

  it('checks every redirect: a permitted page redirecting to a private address is refused', async () => {
    for (const target of [`http://127.0.0.1:${trap.port}/`, `http://[::1]:${trap.port}/`, `http://0.0.0.0:${trap.port}/`, 'http://169.254.169.254/latest/meta-data/']) {
      for (const status of [301, 302, 307, 308]) {
        const res = await unfurl(`${site.origin}/redirect?status=${status}&to=${encodeURIComponent(target)}`);
        expect(expectFailure(res, 400, 'invalid-argument').message).toBe(PRIVATE);
      }
    }
    expect(trap.hits).toBe(0);
  });

  it('answers 404 when the link answers a non-OK status', async () => {
    expect(expectFailure(await unfurl(`${site.origin}/missing`), 404, 'not-found').message).toBe('The link answered HTTP 404.');
    expect(expectFailure(await unfurl(`${site.origin}/broken`), 404, 'not-found').message).toBe('The link answered HTTP 503.');
  });

  it.each([
    ['/slow', /did not answer within 2 seconds/],
    ['/endless', /larger than 2 MiB/],
    ['/bomb', /larger than 2 MiB/],
    ['/json', /not an HTML page/],
    ['/loop', /redirects too many times/],
    ['/chain?n=5', /redirects too many times/],
  ])('answers 500 internal when %s cannot be fetched', async (path, message) => {
    const error = expectFailure(await unfurl(`${site.origin}${path}`), 500, 'internal');
    expect(error.message).toMatch(message);
  });

  it('says which site it could not reach and why, and points at the URL or the network, not at us', async () => {
    const NEXT = "Check the URL (host name and port); if it is right, check the server's outbound network (DNS, firewall, proxy), then retry.";
    const refused = expectFailure(await unfurl(`http://127.0.0.1:${closedPort}/`), 500, 'internal');
    expect(refused).toEqual({ code: 'internal', message: `The server could not reach 127.0.0.1:${closedPort}: the connection was refused.`, nextAction: NEXT });
    const unknown = expectFailure(await unfurl('http://no-such-host.invalid/page'), 500, 'internal');
    expect(unknown).toEqual({ code: 'internal', message: 'The server could not reach no-such-host.invalid: no DNS answer.', nextAction: NEXT });
    for (const error of [refused, unknown]) expect(error.nextAction).not.toMatch(/report/i);
  });
});
