/**
 * The live channel (CONTRACT 19 and 22; docs/architecture.md "The live canvas"): Hocuspocus on
 * Strapi's own HTTP server, taking its `upgrade` event for /quire/live only, composed of small
 * extensions, each one idea with its own test (tests/unit/live): who may connect and what they
 * may still do, loading, storing, article events, presence, limits, and the Redis relay across
 * processes; and the hardening of issue 32 (live/limit-settings.ts): document names and caps,
 * the update guard, the awareness guard, the rate limit, and the socket limits at the upgrade.
 */
import type { Core } from '@strapi/strapi';
import { Hocuspocus, type Extension } from '@hocuspocus/server';
import { allowedOrigins } from '#kernel/origins';
import { quireConfig } from '../config';
import { ArticleEvents } from './article-events';
import { Authentication } from './authentication';
import { AwarenessGuard } from './awareness-extension';
import { DocumentNames } from './document-names';
import { UpdateGuard } from './guard-extension';
import { DEFAULT_LIVE_LIMITS, hocuspocusLimits, liveLimitsOf, type LiveLimits } from './limit-settings';
import { Limits } from './limits';
import { Loading } from './loading';
import { Permissions } from './permissions';
import { type LiveAccess, type LiveContext, type LiveEvents, type LiveLog, type LiveStore } from './ports';
import { Presence, type Editor } from './presence';
import { RateLimit } from './rate-extension';
import { redisRelay } from './relay';
import { SocketLimits } from './socket-limits';
import { Storing } from './storing';
import { strapiAccess, strapiEvents, strapiStore } from './strapi-ports';
import { acceptUpgrades } from './upgrade';

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
export function liveHocuspocus(ports: LivePorts, options: { redis?: { url: string; prefix: string } | null; extra?: Extension[]; limits?: LiveLimits } = {}) {
  const limits = options.limits ?? DEFAULT_LIVE_LIMITS;
  const names = new DocumentNames(limits);
  const storing = new Storing(ports.store, ports.log);
  const events = new ArticleEvents(ports.events, ports.store, ports.log);
  const presence = new Presence();
  const extensions: Extension[] = [
    new RateLimit(limits),
    names,
    new Authentication(ports.access, names),
    new UpdateGuard(limits, ports.log),
    new AwarenessGuard(),
    new Permissions(ports.access, ports.log),
    new Limits(ports.log),
    new Loading(ports.store),
    storing,
    events,
    presence,
    ...(options.redis ? [redisRelay({ ...options.redis, log: ports.log })] : []),
    ...(options.extra ?? []),
  ];
  const hocuspocus = new Hocuspocus<LiveContext>({ name: 'quire-live', ...hocuspocusLimits(limits), extensions, quiet: true, debounce: 1000, maxDebounce: 2000, unloadImmediately: true });
  const settled = async () => {
    await events.settled();
    await storing.settled();
  };
  return { hocuspocus, presence, settled };
}

export function startLiveChannel(strapi: Core.Strapi, options: { coalesceSeconds: number; redis?: { url: string; prefix: string } | null }): LiveChannel {
  const log = strapi.log;
  const limits = liveLimitsOf(quireConfig(strapi));
  const { hocuspocus, presence, settled } = liveHocuspocus(
    { access: strapiAccess(strapi), store: strapiStore(strapi, options), events: strapiEvents(strapi), log },
    { redis: options.redis, limits },
  );
  // Client addresses as the HTTP limits take them (TRUST_PROXY, TRUST_PROXY_HOPS).
  const proxy = strapi.config.get('server.proxy') as { koa?: boolean; maxIpsCount?: number } | undefined;
  const stop = acceptUpgrades(strapi.server.httpServer, hocuspocus, log, {
    sockets: new SocketLimits(limits, log),
    origins: () => allowedOrigins(strapi),
    proxyHops: proxy?.koa ? Number(proxy.maxIpsCount ?? 1) : 0,
  });
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
