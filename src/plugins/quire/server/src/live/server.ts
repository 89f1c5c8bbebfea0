/**
 * The live channel (CONTRACT 19 and 22; docs/architecture.md "The live canvas"): Hocuspocus on
 * Strapi's own HTTP server, taking its `upgrade` event for /quire/live only, composed of small
 * extensions, each one idea with its own test (tests/unit/live): who may connect and what they
 * may still do, loading, storing, article events, presence, limits, and the Redis relay across
 * processes. Other extensions (hardening) join through `extensions`.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Core } from '@strapi/strapi';
import { Hocuspocus, type Extension } from '@hocuspocus/server';
import { WebSocketServer, type WebSocket } from 'ws';
import { ArticleEvents } from './article-events';
import { Authentication } from './authentication';
import { Limits } from './limits';
import { Loading } from './loading';
import { Permissions } from './permissions';
import { LIVE_PATH, MAX_UPDATE_BYTES, type LiveAccess, type LiveContext, type LiveEvents, type LiveLog, type LiveStore } from './ports';
import { Presence, type Editor } from './presence';
import { redisRelay } from './relay';
import { Storing } from './storing';
import { strapiAccess, strapiEvents, strapiStore } from './strapi-ports';

export interface LiveChannel {
  hocuspocus: Hocuspocus<LiveContext>;
  /** Editors connected to an article's document (awareness), for presence. */
  editors(articleId: string): Editor[];
  /** Resolves once pending stores and merges have run (tests, shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface LivePorts {
  access: LiveAccess;
  store: LiveStore;
  events: LiveEvents;
  log: LiveLog;
}

/** The live Hocuspocus with its extensions, on any ports (Strapi's, or a test's). */
export function liveHocuspocus(ports: LivePorts, options: { redis?: { url: string; prefix: string } | null; extra?: Extension[] } = {}) {
  const storing = new Storing(ports.store, ports.log);
  const events = new ArticleEvents(ports.events, ports.store, ports.log);
  const presence = new Presence();
  const extensions: Extension[] = [
    new Authentication(ports.access),
    new Permissions(ports.access, ports.log),
    new Limits(ports.log),
    new Loading(ports.store),
    storing,
    events,
    presence,
    ...(options.redis ? [redisRelay({ ...options.redis, log: ports.log })] : []),
    ...(options.extra ?? []),
  ];
  const hocuspocus = new Hocuspocus<LiveContext>({ name: 'quire-live', extensions, quiet: true, debounce: 1000, maxDebounce: 2000, unloadImmediately: true });
  const settled = async () => {
    await events.settled();
    await storing.settled();
  };
  return { hocuspocus, presence, settled };
}

/** Passes WebSocket upgrades of `path` on an HTTP server to Hocuspocus; returns how to stop. */
export function acceptUpgrades(server: { on: Function; off: Function }, hocuspocus: Hocuspocus<LiveContext>, log: LiveLog, path = LIVE_PATH) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * MAX_UPDATE_BYTES });
  const sockets = new Set<WebSocket>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    let pathname: string;
    try {
      pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    } catch {
      return;
    }
    if (pathname !== path) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
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

export function startLiveChannel(strapi: Core.Strapi, options: { coalesceSeconds: number; redis?: { url: string; prefix: string } | null }): LiveChannel {
  const log = strapi.log;
  const { hocuspocus, presence, settled } = liveHocuspocus(
    { access: strapiAccess(strapi), store: strapiStore(strapi, options), events: strapiEvents(strapi), log },
    { redis: options.redis },
  );
  const stop = acceptUpgrades(strapi.server.httpServer, hocuspocus, log);
  return {
    hocuspocus,
    editors: (articleId) => presence.editors(articleId),
    settled,
    async close() {
      // Pending stores run now, then every connection closes (its document unloads).
      hocuspocus.flushPendingStores();
      await settled().catch(() => undefined);
      hocuspocus.closeConnections();
      await stop();
      await settled().catch(() => undefined);
      // The Redis relay unloads a second after the last connection: let it, before its clients go.
      for (let waited = 0; options.redis && hocuspocus.documents.size > 0 && waited < 3_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      await hocuspocus.hooks('onDestroy', { instance: hocuspocus } as any);
    },
  };
}
