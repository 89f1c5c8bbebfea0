/**
 * A local web site for link-preview tests: the HTML fixtures of tests/fixtures/unfurl plus
 * hostile answers (slow, endless, gzip bomb, redirect loops, JSON, errors).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import { startServer, type TestServer } from './servers';

const fixtures = path.join(__dirname, '..', 'fixtures', 'unfurl');
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name), 'utf8');

/** `trapPort`: a server that must never be reached; hostile pages point at it. */
export function startUnfurlSite(trapPort: number): Promise<TestServer> {
  return startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const html = (body: string | Buffer, type = 'text/html; charset=utf-8') => {
      res.setHeader('content-type', type);
      res.end(body);
    };
    switch (url.pathname) {
      case '/og':
        return html(fixture('opengraph.html'));
      case '/twitter':
        return html(fixture('twitter.html'));
      case '/bare':
        return html(fixture('bare.html'));
      case '/blog/2024/post.html':
        return html(fixture('relative-image.html'));
      case '/latin1': // charset only in the header; the bytes are windows-1252
        return html(iconv.encode(fixture('charset-latin.html').replace('<meta charset="windows-1252">', ''), 'windows-1252'), 'text/html; charset=ISO-8859-1');
      case '/sjis': // charset only in <meta http-equiv>
        return html(iconv.encode(fixture('charset-sjis.html'), 'shift_jis'), 'text/html');
      case '/hostile':
        return html(fixture('hostile.html').replaceAll('127.0.0.1:1', `127.0.0.1:${trapPort}`));
      case '/redirect':
        res.statusCode = Number(url.searchParams.get('status') ?? 302);
        res.setHeader('location', url.searchParams.get('to') ?? '/og');
        return res.end();
      case '/loop': {
        const n = Number(url.searchParams.get('n') ?? 0);
        res.statusCode = 302;
        res.setHeader('location', `/loop?n=${n + 1}`);
        return res.end();
      }
      case '/chain': {
        const n = Number(url.searchParams.get('n'));
        res.statusCode = 301;
        res.setHeader('location', n > 0 ? `/chain?n=${n - 1}` : '/og');
        return res.end();
      }
      case '/missing':
        res.statusCode = 404;
        return html('<title>Not here</title>');
      case '/broken':
        res.statusCode = 503;
        return html('<title>Down</title>');
      case '/json':
        return html('{"title":"not html"}', 'application/json');
      case '/slow':
        return; // never answers
      case '/endless': {
        res.setHeader('content-type', 'text/html');
        const chunk = Buffer.alloc(64 * 1024, ' ');
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {
            /* keep writing */
          }
        };
        res.on('drain', pump);
        res.write('<html><head><title>Endless</title>');
        pump();
        return;
      }
      case '/bomb':
        res.setHeader('content-type', 'text/html');
        res.setHeader('content-encoding', 'gzip');
        return res.end(zlib.gzipSync(Buffer.concat([Buffer.from('<html><head><title>Bomb</title>'), Buffer.alloc(40 * 1024 * 1024, ' ')])));
      default:
        res.statusCode = 404;
        return res.end();
    }
  });
}
