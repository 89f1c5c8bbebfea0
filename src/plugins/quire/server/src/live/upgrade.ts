/**
 * The live channel on an existing HTTP server (Strapi's, or a test's): its WebSocket upgrades
 * for one path go to Hocuspocus (a `ws` server with `noServer`), other paths are left alone, so
 * the canvas shares the admin's port, TLS and proxy. With `guard` (issue 32, finding 1): an
 * upgrade from a foreign web origin is refused, sockets are counted per client address, and
 * each socket's pre-authentication bytes, deadline and refused authentications are bounded
 * (live/socket-limits.ts); the `ws` payload cap is the guard's.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Hocuspocus } from '@hocuspocus/server';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIVE_PATH, MAX_UPDATE_BYTES, type LiveContext, type LiveLog } from './ports';
import { addressOf, originAllowed, type SocketLimits } from './socket-limits';

export interface UpgradeGuard {
  sockets: SocketLimits;
  /** The web origins besides the request's own host that may open the channel (PUBLIC_URL, CORS_ORIGINS). */
  origins: () => Set<string>;
  /** Trusted proxies in front (TRUST_PROXY_HOPS; 0: the TCP peer is the client). */
  proxyHops: number;
}

/** Passes WebSocket upgrades of `path` on an HTTP server to Hocuspocus; returns how to stop. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function acceptUpgrades(server: { on: Function; off: Function }, hocuspocus: Hocuspocus<LiveContext>, log: LiveLog, guard?: UpgradeGuard, path = LIVE_PATH) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: guard?.sockets.maxPayload ?? 2 * MAX_UPDATE_BYTES });
  const sockets = new Set<WebSocket>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    let pathname: string;
    try {
      pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    } catch {
      return;
    }
    if (pathname !== path) return;
    if (guard && !originAllowed(request, guard.origins())) return guard.sockets.refuseOrigin(socket);
    if (guard && !guard.sockets.admit(socket, addressOf(request, guard.proxyHops))) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      guard?.sockets.watch(ws, socket);
      sockets.add(ws);
      const headers = new Headers();
      for (const [key, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(key, value);
      const client = hocuspocus.handleConnection(ws as any, new Request(`http://localhost${request.url}`, { headers }), {} as LiveContext);
      ws.on('message', (data: Buffer) => client.handleMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
      ws.on('close', (code: number, reason: Buffer) => {
        sockets.delete(ws);
        client.handleClose({ code, reason: reason.toString() });
      });
      ws.on('error', (error) => log.warn(`live: socket error: ${error.message}`));
    });
  };
  server.on('upgrade', onUpgrade);
  return async () => {
    server.off('upgrade', onUpgrade);
    for (const ws of sockets) ws.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}

