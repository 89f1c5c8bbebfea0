/**
 * Small local HTTP servers for tests of outbound fetches: each counts the requests it
 * receives, so a test can prove that a blocked URL reached nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Requests received so far. */
  hits: number;
  /** The requests received, for assertions on method, path and headers. */
  requests: http.IncomingMessage[];
  close(): Promise<void>;
}

/**
 * Starts a server on `host` (default 127.0.0.1; '::' listens on every local address, IPv4
 * and IPv6, so any spelling of "this machine" reaches it).
 */
export async function startServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, server: TestServer) => void = (_req, res) => res.end('hit'),
  host = '127.0.0.1',
): Promise<TestServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state = { port: 0, origin: '', hits: 0, requests: [] as http.IncomingMessage[], close: async () => undefined } as TestServer;
  const server = http.createServer((req, res) => {
    state.hits += 1;
    state.requests.push(req);
    handler(req, res, state);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host, ipv6Only: false }, resolve));
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

/**
 * Spellings of local and private addresses (and of URLs that are not http(s) at all) that an
 * outbound fetch must refuse. `port` is a local server's port, so a spelling that slipped
 * through would reach it and show up in its hit counter.
 */
export function blockedUrls(port: number): string[] {
  const p = port;
  return [
    // loopback, named and numbered
    `http://127.0.0.1:${p}/`,
    `http://localhost:${p}/`,
    `http://localhost.:${p}/`,
    `http://LOCALHOST:${p}/`,
    `http://foo.localhost:${p}/`,
    `http://127.127.127.127:${p}/`,
    `http://127.0.1.3:${p}/`,
    `http://127.0.0.0:${p}/`,
    `http://127.1:${p}/`,
    `http://127.0.1:${p}/`,
    `http://127.0.0.1.:${p}/`,
    `https://127.0.0.1:${p}/`,
    // unspecified
    `http://0:${p}/`,
    `http://0.0.0.0:${p}/`,
    `http://[::]:${p}/`,
    // IPv6 loopback and IPv4 embedded in IPv6
    `http://[::1]:${p}/`,
    `https://[::1]:${p}/`,
    `http://[0000::1]:${p}/`,
    `http://[0:0:0:0:0:0:0:1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
    `http://[::ffff:7f00:1]:${p}/`,
    `http://[::127.0.0.1]:${p}/`,
    `http://[::ffff:0:7f00:1]:${p}/`,
    `http://[64:ff9b::127.0.0.1]:${p}/`,
    `http://[64:ff9b:1::7f00:1]:${p}/`,
    `http://[2002:7f00:1::]:${p}/`,
    `http://[2001:0000:4136:e378:8000:63bf:80ff:fffe]:${p}/`,
    // decimal, octal, hex and short IPv4
    `http://2130706433:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://0x7f.1:${p}/`,
    `http://0x7f.0.0.1:${p}/`,
    `http://017700000001:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://0177.0.0.01:${p}/`,
    `http://3232235521:${p}/`,
    `http://3232235777:${p}/`,
    // cloud metadata and link-local
    `http://169.254.169.254:${p}/latest/meta-data/`,
    `http://2852039166:${p}/`,
    `http://0251.254.169.254:${p}/`,
    `http://[::ffff:169.254.169.254]:${p}/`,
    `http://[::ffff:a9fe:a9fe]:${p}/`,
    `http://metadata.google.internal:${p}/computeMetadata/v1/`,
    `http://100.100.100.200:${p}/`,
    `http://[fe80::1]:${p}/`,
    // private, CGNAT, benchmarking, documentation, multicast, reserved, broadcast
    `http://10.0.0.1:${p}/`,
    `http://172.16.0.1:${p}/`,
    `http://172.31.255.255:${p}/`,
    `http://192.168.1.1:${p}/`,
    `http://100.64.0.1:${p}/`,
    `http://198.18.0.1:${p}/`,
    `http://192.0.0.1:${p}/`,
    `http://192.0.2.1:${p}/`,
    `http://198.51.100.1:${p}/`,
    `http://203.0.113.1:${p}/`,
    `http://224.0.0.1:${p}/`,
    `http://239.255.255.250:${p}/`,
    `http://240.0.0.1:${p}/`,
    `http://255.255.255.255:${p}/`,
    `http://[fd00::1]:${p}/`,
    `http://[fc00::1]:${p}/`,
    `http://[fec0::1]:${p}/`,
    `http://[ff02::1]:${p}/`,
    `http://[2001:db8::1]:${p}/`,
    `http://[100::1]:${p}/`,
    // user-info and parser confusion
    `http://evil.com@127.0.0.1:${p}/`,
    `http://user:pass@example.com/`,
    `http://127.0.0.1:${p}#@evil.com/`,
    `http://127.1.1.1:${p}\\@127.2.2.2:80/`,
    `http:/127.0.0.1:${p}/`,
    `http:\\\\127.0.0.1:${p}\\`,
    ` http://127.0.0.1:${p}/`,
    // Unicode that IDNA maps onto local names and numbers
    `http://①②⑦.⓪.⓪.①:${p}/`,
    `http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:${p}/`,
    // not http(s), or not a URL
    'file:///etc/passwd',
    `gopher://127.0.0.1:${p}/_INFO`,
    `dict://127.0.0.1:${p}/INFO`,
    `ftp://127.0.0.1:${p}/`,
    `ws://127.0.0.1:${p}/`,
    'javascript:alert(1)',
    'data:text/html,<p>x</p>',
    `//127.0.0.1:${p}/`,
    'http://256.256.256.256/',
    'http://4294967296/',
    'not a url',
  ];
}
