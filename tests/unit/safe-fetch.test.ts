import os from 'node:os';
import dns from 'node:dns';
import zlib from 'node:zlib';
import {
  BlockedUrlError,
  BLOCKED_MESSAGES,
  FetchFailedError,
  guardedAgent,
  safeFetch,
  type Resolver,
} from '../../src/kernel/safe-fetch';
import { allowedPrivateHostsFromEnv } from '../../src/plugins/quire/server/src/config';
import { fetch as undiciFetch } from 'undici';
import { blockedUrls, startServer, type TestServer } from '../helpers/servers';

let trap: TestServer; // must never be reached
let site: TestServer; // the exempted fixture server
let allowed: string[];

const html = (body: string) => `<!doctype html><html><head><title>${body}</title></head><body>${body}</body></html>`;

beforeAll(async () => {
  const bomb = zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024)); // 50 MiB of zeros in about 50 KB
  trap = await startServer(undefined, '::');
  site = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    switch (url.pathname) {
      case '/page':
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(html('hello'));
      case '/json':
        res.setHeader('content-type', 'application/json');
        return res.end('{"ok":true}');
      case '/echo': {
        const chunks: Buffer[] = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), type: req.headers['content-type'] ?? null }));
        });
        return;
      }
      case '/missing':
        res.statusCode = 404;
        res.setHeader('content-type', 'text/html');
        return res.end('<title>nope</title>');
      case '/redirect':
        res.statusCode = Number(url.searchParams.get('status') ?? 302);
        res.setHeader('location', to ?? '/page');
        return res.end();
      case '/chain': {
        const n = Number(url.searchParams.get('n'));
        res.statusCode = 302;
        res.setHeader('location', n > 0 ? `/chain?n=${n - 1}` : '/page');
        return res.end();
      }
      case '/silent':
        return; // never answers
      case '/trickle':
        res.setHeader('content-type', 'text/html');
        res.write('<html>');
        return; // headers sent, body never ends
      case '/endless': {
        res.setHeader('content-type', 'text/html');
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          while (res.write(chunk)) {
            /* keep writing */
          }
        };
        res.on('drain', pump);
        pump();
        return;
      }
      case '/bomb': {
        res.setHeader('content-type', 'text/html');
        res.setHeader('content-encoding', 'gzip');
        return res.end(bomb);
      }
      case '/big-declared':
        res.setHeader('content-type', 'text/html');
        res.setHeader('content-length', String(3 * 1024 * 1024));
        res.write('<html>');
        return;
      default:
        res.statusCode = 500;
        return res.end();
    }
  });
  allowed = [`127.0.0.1:${site.port}`];
});
afterAll(async () => {
  await trap?.close();
  await site?.close();
});

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the fetch to be refused');
}

describe('safeFetch: blocked URLs', () => {
  it('refuses every spelling of a local or private address and reaches nothing', async () => {
    const urls = blockedUrls(trap.port);
    expect(urls.length).toBeGreaterThanOrEqual(40);
    for (const url of urls) {
      const error = await refusal(safeFetch(url));
      expect([url, error]).toEqual([url, expect.any(BlockedUrlError)]);
    }
    expect(trap.hits).toBe(0);
  });

  it('answers one message for every private range, so it cannot be used to map a network', async () => {
    const messages = new Set<string>();
    for (const url of [`http://127.0.0.1:${trap.port}/`, 'http://10.0.0.1/', 'http://[::1]/', 'http://169.254.169.254/', 'http://localhost/']) {
      messages.add((await refusal(safeFetch(url))).message);
    }
    expect([...messages]).toEqual([BLOCKED_MESSAGES.private]);
    expect((await refusal(safeFetch('ftp://example.com/'))).message).toBe(BLOCKED_MESSAGES.scheme);
    expect((await refusal(safeFetch('http://a:b@example.com/'))).message).toBe(BLOCKED_MESSAGES.credentials);
    expect((await refusal(safeFetch('nope'))).message).toBe(BLOCKED_MESSAGES.invalid);
    expect((await refusal(safeFetch(`http://example.com/${'a'.repeat(2100)}`))).message).toBe(BLOCKED_MESSAGES.invalid);
  });

  it('refuses names that resolve to a private address, checking every address of the answer', async () => {
    const answers: Record<string, string[]> = {
      'loopback.test': ['127.0.0.1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'v6.test': ['::1'],
      'mixed.test': ['93.184.215.14', '127.0.0.1'],
      'mixed-v6.test': ['2606:4700:4700::1111', '::1'],
      'metadata.test': ['169.254.169.254'],
      'unspecified.test': ['0.0.0.0'],
    };
    const resolve: Resolver = async (name) => (answers[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    for (const name of Object.keys(answers)) {
      const error = await refusal(safeFetch(`http://${name}:${trap.port}/`, { resolve }));
      expect([name, error]).toEqual([name, expect.any(BlockedUrlError)]);
    }
    expect(trap.hits).toBe(0);
  });

  it('refuses real DNS names of this machine (system resolver, /etc/hosts)', async () => {
    const names = ['localhost'];
    const self = os.hostname();
    const selfAddresses = await dns.promises.lookup(self, { all: true }).catch(() => []);
    if (selfAddresses.length) names.push(self); // on most machines this resolves to a local address
    for (const name of names) {
      expect(await refusal(safeFetch(`http://${name}:${trap.port}/`))).toBeInstanceOf(BlockedUrlError);
    }
    expect(trap.hits).toBe(0);
  });

  it('checks every redirect hop: a permitted page that redirects to a private address is refused', async () => {
    for (const target of [
      `http://127.0.0.1:${trap.port}/`,
      `http://[::1]:${trap.port}/`,
      `http://0.0.0.0:${trap.port}/`,
      `http://2130706433:${trap.port}/`,
      `http://localhost:${trap.port}/`,
      'http://169.254.169.254/latest/meta-data/',
      `gopher://127.0.0.1:${trap.port}/`,
      `http://127.0.0.1:${site.port + 0}@127.0.0.1:${trap.port}/`,
    ]) {
      for (const status of [301, 302, 303, 307, 308]) {
        const url = `${site.origin}/redirect?status=${status}&to=${encodeURIComponent(target)}`;
        const error = await refusal(safeFetch(url, { allowedPrivateHosts: allowed }));
        expect([target, status, error]).toEqual([target, status, expect.any(BlockedUrlError)]);
      }
    }
    expect(trap.hits).toBe(0);
  });

  it('holds at connection time on its own: IP literals and resolved names are checked without the URL pre-check', async () => {
    // undici (like net.connect) never calls a DNS lookup hook for an IP-literal host; the
    // connector must check literals itself. Here the URL pre-check is bypassed on purpose.
    const literals = [
      `http://127.0.0.1:${trap.port}/`,
      `http://[::1]:${trap.port}/`,
      `http://0.0.0.0:${trap.port}/`,
      `http://[::]:${trap.port}/`,
      `http://[::ffff:127.0.0.1]:${trap.port}/`,
      `http://2130706433:${trap.port}/`,
      `http://0x7f.1:${trap.port}/`,
      `http://localhost:${trap.port}/`,
      `https://127.0.0.1:${trap.port}/`,
    ];
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    for (const url of [...literals, `http://rebound.test:${trap.port}/`]) {
      const agent = guardedAgent({ resolve });
      const error = await refusal(undiciFetch(url, { dispatcher: agent }));
      await agent.destroy();
      expect([url, (error as Error & { cause?: unknown }).cause]).toEqual([url, expect.any(BlockedUrlError)]);
    }
    expect(trap.hits).toBe(0);
    // and Node's global fetch would have gone straight through: the guard is what stops it
    const res = await fetch(`http://127.0.0.1:${trap.port}/`);
    expect(await res.text()).toBe('hit');
    expect(trap.hits).toBe(1);
    trap.hits = 0;
  });

  it('exempts only the named host and port', async () => {
    const other = `http://127.0.0.1:${trap.port}/`;
    expect(await refusal(safeFetch(other, { allowedPrivateHosts: allowed }))).toBeInstanceOf(BlockedUrlError);
    expect(trap.hits).toBe(0);
    const res = await safeFetch(`${site.origin}/page`, { allowedPrivateHosts: allowed });
    expect(res.status).toBe(200);
    // the same exemption by name, resolved (once) to the checked address
    let lookups = 0;
    const resolve: Resolver = async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const before = site.requests.length;
    const named = await safeFetch(`http://intranet.test:${site.port}/page`, { allowedPrivateHosts: [`intranet.test:${site.port}`], resolve });
    expect(named.status).toBe(200);
    expect(lookups).toBe(1);
    expect(site.requests[before].headers.host).toBe(`intranet.test:${site.port}`);
  });
});

describe('safeFetch: answers', () => {
  it('returns the page, its headers and the media type', async () => {
    const res = await safeFetch(`${site.origin}/page`, { allowedPrivateHosts: allowed });
    expect(res).toMatchObject({ url: `${site.origin}/page`, status: 200, contentType: 'text/html' });
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body.toString()).toBe(html('hello'));
  });

  it('returns non-OK statuses instead of throwing', async () => {
    const res = await safeFetch(`${site.origin}/missing`, { allowedPrivateHosts: allowed });
    expect(res.status).toBe(404);
    expect(res.body.toString()).toContain('nope');
  });

  it('follows up to 5 redirects and reports the final URL', async () => {
    const res = await safeFetch(`${site.origin}/chain?n=4`, { allowedPrivateHosts: allowed });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${site.origin}/page`);
    const error = await refusal(safeFetch(`${site.origin}/chain?n=5`, { allowedPrivateHosts: allowed }));
    expect(error).toBeInstanceOf(FetchFailedError);
    expect((error as FetchFailedError).reason).toBe('too-many-redirects');
    const fewer = await refusal(safeFetch(`${site.origin}/chain?n=1`, { allowedPrivateHosts: allowed, maxRedirects: 1 }));
    expect((fewer as FetchFailedError).reason).toBe('too-many-redirects');
  });

  it('refuses non-HTML answers unless told otherwise, and can POST JSON', async () => {
    const error = await refusal(safeFetch(`${site.origin}/json`, { allowedPrivateHosts: allowed }));
    expect((error as FetchFailedError).reason).toBe('not-html');
    const json = await safeFetch(`${site.origin}/json`, { allowedPrivateHosts: allowed, htmlOnly: false });
    expect(JSON.parse(json.body.toString())).toEqual({ ok: true });
    const posted = await safeFetch(`${site.origin}/echo`, {
      allowedPrivateHosts: allowed,
      htmlOnly: false,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    expect(JSON.parse(posted.body.toString())).toEqual({ method: 'POST', body: '{"a":1}', type: 'application/json' });
  });

  it('turns a POST into a GET on a 303 redirect and keeps it on a 307', async () => {
    const options = { allowedPrivateHosts: allowed, htmlOnly: false, method: 'POST' as const, body: 'x', headers: { 'content-type': 'text/plain' } };
    const see = await safeFetch(`${site.origin}/redirect?status=303&to=/echo`, options);
    expect(JSON.parse(see.body.toString())).toEqual({ method: 'GET', body: '', type: null });
    const keep = await safeFetch(`${site.origin}/redirect?status=307&to=/echo`, options);
    expect(JSON.parse(keep.body.toString())).toEqual({ method: 'POST', body: 'x', type: 'text/plain' });
  });
});

describe('safeFetch: redirects to another origin', () => {
  let other: TestServer; // another origin, which records what reaches it
  const seen: Array<{ method?: string; headers: Record<string, unknown>; body: string }> = [];
  beforeAll(async () => {
    other = await startServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.setHeader('content-type', 'application/json');
        res.end('{"other":true}');
      });
    });
  });
  afterAll(() => other?.close());
  const options = () => ({
    allowedPrivateHosts: [...allowed, `127.0.0.1:${other.port}`],
    htmlOnly: false,
    method: 'POST' as const,
    body: '{"secret":"payload"}',
    headers: { 'content-type': 'application/json', 'X-Secret-Token': 's3cret', 'Proxy-Authorization': 'Basic eA==', Authorization: 'Bearer t' },
  });

  it('does not follow a 307 or 308 there: the body and the configured headers stay home', async () => {
    seen.length = 0;
    for (const status of [307, 308]) {
      const to = encodeURIComponent(`${other.origin}/hook`);
      const res = await safeFetch(`${site.origin}/redirect?status=${status}&to=${to}`, options());
      expect(res.status).toBe(status);
    }
    expect(seen).toEqual([]);
  });

  it('follows other redirects there as a bare GET, without any configured header', async () => {
    seen.length = 0;
    for (const status of [301, 302, 303]) {
      const to = encodeURIComponent(`${other.origin}/hook`);
      const res = await safeFetch(`${site.origin}/redirect?status=${status}&to=${to}`, options());
      expect(res.status).toBe(200);
    }
    expect(seen).toHaveLength(3);
    for (const request of seen) {
      expect(request.method).toBe('GET');
      expect(request.body).toBe('');
      expect(Object.keys(request.headers).filter((name) => ['x-secret-token', 'proxy-authorization', 'authorization', 'content-type'].includes(name))).toEqual([]);
    }
  });

  it('keeps them on a redirect within the same origin', async () => {
    const keep = await safeFetch(`${site.origin}/redirect?status=307&to=/echo`, options());
    expect(JSON.parse(keep.body.toString())).toEqual({ method: 'POST', body: '{"secret":"payload"}', type: 'application/json' });
  });
});

describe('safeFetch: limits', () => {
  const reasonOf = async (path: string, extra: Record<string, unknown> = {}) => {
    const error = await refusal(safeFetch(`${site.origin}${path}`, { allowedPrivateHosts: allowed, ...extra }));
    expect(error).toBeInstanceOf(FetchFailedError);
    return (error as FetchFailedError).reason;
  };

  it('gives up on a server that never answers', async () => {
    expect(await reasonOf('/silent', { timeoutMs: 300 })).toBe('timeout');
  });

  it('gives up on a body that never ends', async () => {
    expect(await reasonOf('/trickle', { timeoutMs: 300 })).toBe('timeout');
  });

  it('stops reading an endless body at the byte limit', async () => {
    expect(await reasonOf('/endless')).toBe('too-large');
    expect(await reasonOf('/endless', { maxBytes: 1000 })).toBe('too-large');
  });

  it('counts decoded bytes, so a gzip bomb stops at the limit', async () => {
    expect(await reasonOf('/bomb')).toBe('too-large');
  });

  it('refuses a declared length over the limit without reading it', async () => {
    expect(await reasonOf('/big-declared')).toBe('too-large');
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = await startServer();
    const port = closed.port;
    await closed.close();
    const error = await refusal(safeFetch(`http://127.0.0.1:${port}/`, { allowedPrivateHosts: [`127.0.0.1:${port}`] }));
    expect((error as FetchFailedError).reason).toBe('network');
  });
});

describe('allowedPrivateHostsFromEnv', () => {
  it('reads the comma-separated list and refuses malformed entries', () => {
    expect(allowedPrivateHostsFromEnv({ UNFURL_ALLOWED_PRIVATE_HOSTS: ' wiki.corp, 127.0.0.1:8080 ,,' })).toEqual(['wiki.corp', '127.0.0.1:8080']);
    expect(allowedPrivateHostsFromEnv({})).toEqual([]);
    expect(() => allowedPrivateHostsFromEnv({ UNFURL_ALLOWED_PRIVATE_HOSTS: 'wiki:abc' })).toThrow();
  });
});
